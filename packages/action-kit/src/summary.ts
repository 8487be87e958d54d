/**
 * Step summary builders on `core.summary`. Values from users or the service are escaped, since
 * the summary is HTML, and redacted, since the summary file is not masked like the log.
 */
import * as core from '@actions/core';
import { redactSecrets } from './secrets.ts';

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export interface SummaryLink {
  text: string;
  href: string;
}

/** An anchor, escaped. */
export function linkHtml(link: SummaryLink): string {
  return `<a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a>`;
}

/** A row of the facts table: a label and a value, or a link; rows without a value are skipped. */
export type Fact = readonly [label: string, value: string | number | SummaryLink | undefined];

/** Builds a step summary section by section; `write()` appends it to the step's summary file. */
export class SummaryBuilder {
  readonly #summary = core.summary;

  constructor() {
    this.#summary.emptyBuffer();
  }

  heading(text: string, level: 1 | 2 | 3 = 2): this {
    this.#summary.addHeading(escapeHtml(redactSecrets(text)), level);
    return this;
  }

  paragraph(text: string): this {
    this.#summary.addRaw(`<p>${escapeHtml(redactSecrets(text))}</p>`, true);
    return this;
  }

  /** A two-column table of facts. */
  facts(rows: readonly Fact[]): this {
    const kept = rows.filter((row) => row[1] !== undefined && row[1] !== '');
    if (kept.length === 0) return this;
    this.#summary.addTable([
      [
        { data: 'Item', header: true },
        { data: 'Value', header: true },
      ],
      ...kept.map(([label, value]) => [escapeHtml(label), cellHtml(value as string | number | SummaryLink)]),
    ]);
    return this;
  }

  /** A table with a header row; every cell is text. */
  table(header: readonly string[], rows: readonly (readonly string[])[]): this {
    this.#summary.addTable([
      header.map((cell) => ({ data: escapeHtml(cell), header: true })),
      ...rows.map((row) => row.map((cell) => escapeHtml(redactSecrets(cell)))),
    ]);
    return this;
  }

  /** A bulleted list of links; links without an address are skipped. */
  links(links: readonly (SummaryLink | undefined)[]): this {
    const kept = links.filter((link): link is SummaryLink => link !== undefined && link.href !== '');
    if (kept.length > 0) this.#summary.addList(kept.map((link) => linkHtml(redactLink(link))));
    return this;
  }

  /** A bulleted list of text items, or `empty` when there are none. */
  list(items: readonly string[], empty?: string): this {
    if (items.length > 0) this.#summary.addList(items.map((item) => escapeHtml(redactSecrets(item))));
    else if (empty !== undefined) this.paragraph(empty);
    return this;
  }

  /** The HTML built so far (for tests and for logs). */
  html(): string {
    return this.#summary.stringify();
  }

  /** Appends to the summary file; outside a runner (no `GITHUB_STEP_SUMMARY`) it only logs. */
  async write(): Promise<void> {
    if (!process.env.GITHUB_STEP_SUMMARY) {
      core.debug('no GITHUB_STEP_SUMMARY: the step summary is not written');
      this.#summary.emptyBuffer();
      return;
    }
    await this.#summary.write();
  }
}

function cellHtml(value: string | number | SummaryLink): string {
  if (typeof value === 'object') return linkHtml(redactLink(value));
  return escapeHtml(redactSecrets(String(value)));
}

function redactLink(link: SummaryLink): SummaryLink {
  return { text: redactSecrets(link.text), href: redactSecrets(link.href) };
}
