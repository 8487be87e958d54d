/**
 * Step summaries, built as text any host can publish (the runner's step summary, a file the command
 * line writes). Every value from users or the service passes `safeText`: one line with no control
 * or invisible characters, shortened (`one-line.ts`), redacted (the summary is not masked like the
 * log), and HTML-escaped, since the summary holds HTML. One line matters: a blank line would end
 * the summary's HTML block and let Markdown in a name run.
 */
import { linkAddress, MAX_NAME_LENGTH, MAX_SENTENCE_LENGTH, oneLine } from './one-line.ts';
import { isItemList, listText, type Block, type ItemList, type StructuredText } from './report-text.ts';

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** For a name or other short text from a user or the service: one line, cleaned, redacted, escaped, shortened. */
export function safeText(text: string): string {
  return escapeHtml(oneLine(text, MAX_NAME_LENGTH));
}

/** `safeText` for a sentence (a failure's message, a note), which may be longer than a name. */
export function safeSentence(text: string): string {
  return escapeHtml(oneLine(text, MAX_SENTENCE_LENGTH));
}

interface SummaryLink {
  text: string;
  href: string;
}

/** An anchor, escaped and redacted; an address other than `http(s)` is shown as its text alone. */
export function linkHtml(link: SummaryLink): string {
  if (!/^https?:\/\//i.test(link.href)) return safeText(link.text);
  return `<a href="${escapeHtml(linkAddress(link.href))}">${safeText(link.text)}</a>`;
}

/** A row of the facts table: a label and a value, or a link; rows without a value are skipped. */
type Fact = readonly [label: string, value: string | number | SummaryLink | undefined];

/**
 * Builds a step summary section by section: `toText()` is what a host publishes, cut to the
 * summary's limit at its blocks; `toString()` the whole text, every item of its lists included.
 */
export class SummaryBuilder {
  readonly #parts: Block[] = [];

  heading(text: string, level: 1 | 2 | 3 = 2): this {
    return this.raw(`<h${level}>${safeText(text)}</h${level}>`);
  }

  paragraph(text: string): this {
    return this.raw(`<p>${safeSentence(text)}</p>`);
  }

  /** A two-column table of facts. */
  facts(rows: readonly Fact[]): this {
    const kept = rows.filter((row) => row[1] !== undefined && row[1] !== '');
    if (kept.length === 0) return this;
    const body = kept.map(
      ([label, value]) =>
        `<tr><td>${safeText(label)}</td><td>${cellHtml(value as string | number | SummaryLink)}</td></tr>`,
    );
    return this.raw(`<table><tr><th>Item</th><th>Value</th></tr>${body.join('')}</table>`);
  }

  /** A table with a header row; every cell is text. */
  table(header: readonly string[], rows: readonly (readonly string[])[]): this {
    const head = `<tr>${header.map((cell) => `<th>${safeText(cell)}</th>`).join('')}</tr>`;
    const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${safeText(cell)}</td>`).join('')}</tr>`);
    return this.raw(`<table>${head}${body.join('')}</table>`);
  }

  /** A bulleted list of links; links without an address are skipped. */
  links(links: readonly (SummaryLink | undefined)[]): this {
    const kept = links.filter((link): link is SummaryLink => link !== undefined && link.href !== '');
    return kept.length > 0 ? this.#bullets(kept.map(linkHtml)) : this;
  }

  /** A bulleted list of text items, or `empty` when there are none. */
  list(items: readonly string[], empty?: string): this {
    if (items.length > 0) return this.#bullets(items.map(safeText));
    return empty !== undefined ? this.paragraph(empty) : this;
  }

  /** HTML the caller has escaped itself. */
  raw(html: string): this {
    this.#parts.push(`${html}\n`);
    return this;
  }

  /** A list of items (a table's rows) that a host may cut, ranked, to the summary's limit. */
  items(list: ItemList): this {
    this.#parts.push(list);
    return this;
  }

  /** Blocks made elsewhere, such as a jobs table of ranked rows. */
  blocks(text: StructuredText): this {
    this.#parts.push(...text.blocks);
    return this;
  }

  toText(): StructuredText {
    return { format: 'html', blocks: [...this.#parts] };
  }

  toString(): string {
    return this.#parts.map((part) => (isItemList(part) ? listText(part) : part)).join('');
  }

  #bullets(itemsHtml: readonly string[]): this {
    return this.raw(`<ul>${itemsHtml.map((item) => `<li>${item}</li>`).join('')}</ul>`);
  }
}

function cellHtml(value: string | number | SummaryLink): string {
  return typeof value === 'object' ? linkHtml(value) : safeText(String(value));
}
