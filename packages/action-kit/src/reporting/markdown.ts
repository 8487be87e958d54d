/**
 * GitHub-flavoured Markdown for pull-request comments. Values from users or the service (case
 * names, app names, links) pass `oneLine` first (one line, no control or invisible characters,
 * shortened, redacted: a comment is not masked like the log), then are escaped, so that a `|`
 * cannot break a table, a `<` cannot open a tag and a backtick cannot start code.
 */
import { linkAddress, MAX_NAME_LENGTH, MAX_SENTENCE_LENGTH, oneLine } from './one-line.ts';

/**
 * Punctuation that starts or ends markup within a line: emphasis, code, links, a table cell's `|`,
 * strike-through, math, mentions and references (a case named `@team` must not notify a team).
 */
const MARKUP = /[\\`*_[\]|~$@#]/g;

/** A name or other short text shown as it is: one line, shortened, HTML escaped, Markdown's punctuation backslash-escaped. */
export function markdownText(text: string): string {
  return escapeMarkdown(oneLine(text, MAX_NAME_LENGTH));
}

/** `markdownText` for a sentence (a note), which may be longer than a name. */
export function markdownSentence(text: string): string {
  return escapeMarkdown(oneLine(text, MAX_SENTENCE_LENGTH));
}

function escapeMarkdown(line: string): string {
  return line
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(MARKUP, (char) => `\\${char}`);
}

/**
 * Inline code: its content is shown verbatim, so instead of escapes it gets a fence of more
 * backticks than it holds in a row; a `|` is escaped all the same, as GitHub splits table cells first.
 */
export function markdownCode(text: string): string {
  const value = oneLine(text);
  if (value === '') return '';
  const longestRun = Math.max(0, ...[...value.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longestRun + 1);
  const padded = value.startsWith('`') || value.endsWith('`') ? ` ${value} ` : value;
  return `${fence}${padded.replace(/\|/g, '\\|')}${fence}`;
}

/**
 * A link; only `http(s)` addresses become one (anything else is shown as text), with the
 * characters that would end the address percent-encoded.
 */
export function markdownLink(text: string, href: string): string {
  const label = markdownText(text);
  if (!/^https?:\/\//i.test(href)) return label;
  return `[${label}](${linkAddress(href, '()<>|`\\[]')})`;
}

/** A table; cells are Markdown already (escape values with `markdownText`). */
export function markdownTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  align?: readonly ('left' | 'right')[],
): string {
  const rule = headers.map((_, index) => (align?.[index] === 'right' ? '---:' : '---'));
  const line = (cells: readonly string[]): string => `| ${cells.map((cell) => cell || ' ').join(' | ')} |`;
  return [line(headers), line(rule), ...rows.map(line)].join('\n');
}
