/**
 * Summaries and comments cut to a limit at their blocks: every fixed block kept, list items by
 * rank (failed, flaky, the rest) while they fit, a line counting what each list lost, the tail
 * (the step's failure) always kept, and a plain string cut at line ends only.
 */
import { describe, expect, it } from 'vitest';
import {
  commentLimit,
  fitText,
  MAX_COMMENT_LENGTH,
  MAX_SUMMARY_BYTES,
  summaryLimit,
  wholeText,
  type TextLimit,
} from '../../src/reporting/budget.ts';
import type { ItemList, ItemRank, StructuredText } from '../../src/reporting/report-text.ts';

/** Rows `<tr>x00</tr>` (failed), `<tr>k01</tr>` (flaky), `<tr>o02</tr>` (other) of 12 characters each. */
const LETTER: Record<ItemRank, string> = { failed: 'x', flaky: 'k', other: 'o' };

function table(ranks: readonly ItemRank[], max?: number): ItemList {
  return {
    open: '<table>',
    items: ranks.map((rank, n) => ({ text: `<tr>${LETTER[rank]}${String(n).padStart(2, '0')}</tr>`, rank })),
    close: '</table>\n',
    noun: 'jobs',
    fullList: 'every job is in the results file',
    ...(max !== undefined ? { max } : {}),
  };
}

const html = (...blocks: StructuredText['blocks']): StructuredText => ({ format: 'html', blocks });
const characters = (limit: number): TextLimit => ({ ...summaryLimit(limit), measure: (text) => text.length });
const rowsOf = (text: string): string[] => text.match(/<tr>[a-z]\d\d<\/tr>/g) ?? [];

describe('fitText', () => {
  const mixed: ItemRank[] = ['other', 'failed', 'flaky', 'other', 'failed', 'flaky', 'other', 'failed'];
  const line = (count: number) =>
    `<p>Jobs not listed here: ${count}; every job is in the results file.</p>\n`;
  const head = '<h2>Suite</h2>\n';
  const frame = head.length + '<table></table>\n'.length + line(8).length;

  it.each([
    // room for rows beyond the frame and the longest counting line: which rows are kept, in order
    ['every row when all fit', 1_000, mixed.length, ['o00', 'x01', 'k02', 'o03', 'x04', 'k05', 'o06', 'x07']],
    ['failed rows first, in their order', frame + 36, 3, ['x01', 'x04', 'x07']],
    ['then flaky ones', frame + 60, 5, ['x01', 'k02', 'x04', 'k05', 'x07']],
    ['then the rest', frame + 72, 6, ['o00', 'x01', 'k02', 'x04', 'k05', 'x07']],
    ['no row when only the frame fits', frame, 0, []],
  ])('keeps %s', (_, limit, kept, rows) => {
    const fitted = fitText(html(head, table(mixed)), characters(limit));
    expect(fitted.text.length).toBeLessThanOrEqual(limit);
    expect(rowsOf(fitted.text).map((row) => row.slice(4, 7))).toEqual(rows);
    expect(fitted.leftOut).toBe(mixed.length - kept);
    expect(fitted.truncated).toBe(false);
    if (kept < mixed.length) expect(fitted.text).toContain(line(mixed.length - kept));
    else expect(fitted.text).not.toContain('not listed here');
  });

  it('keeps the tail whole at the end, counted in the limit', () => {
    const tail = '<h2>Run suite: tests failed</h2><p>4 of 8 jobs failed.</p>';
    const fitted = fitText(html(head, table(mixed)), characters(frame + 36 + tail.length), [tail]);
    expect(fitted.text.endsWith(tail)).toBe(true);
    expect(rowsOf(fitted.text)).toHaveLength(3);
    expect(fitted.text.length).toBeLessThanOrEqual(frame + 36 + tail.length);
  });

  it('shows no more than a list’s first max items, and counts the rest', () => {
    const fitted = fitText(html(table(mixed, 2)), characters(10_000));
    expect(rowsOf(fitted.text)).toEqual(['<tr>o00</tr>', '<tr>x01</tr>']);
    expect(fitted.leftOut).toBe(6);
    expect(fitted.text).toContain(line(6));
  });

  it('counts every list on its own and ranks across lists', () => {
    const fitted = fitText(html(table(['other', 'failed']), table(['failed', 'other'])), characters(190));
    expect(rowsOf(fitted.text)).toEqual(['<tr>x01</tr>', '<tr>x00</tr>']);
    expect(fitted.text.match(/Jobs not listed here: 1;/g)).toHaveLength(2);
  });

  it('keeps the fixed blocks in order while they fit when they alone are too long, and says so', () => {
    const blocks = ['<p>one</p>\n', 'x'.repeat(500), '<p>three</p>\n'];
    const fitted = fitText(html(...blocks, table(mixed)), characters(200), ['<p>failure</p>']);
    expect(fitted.truncated).toBe(true);
    expect(fitted.leftOut).toBe(mixed.length);
    expect(fitted.text).toMatch(
      /^<p>one<\/p>\n<p>The rest of this summary is left out to keep within GitHub(&#39;|')s limit of 1 MiB: .*<\/p>\n<p>failure<\/p>$/,
    );
    expect(fitted.text.length).toBeLessThanOrEqual(200);
  });

  it.each([
    ['nothing when not even the tail fits', 10, ''],
    ['the tail alone when the line counting the rest does not fit', 40, '<p>the failure</p>'],
  ])('writes %s, never more than the limit', (_, limit, text) => {
    const fitted = fitText(html('<p>one</p>\n', table(mixed)), characters(limit), ['<p>the failure</p>']);
    expect(fitted).toEqual({ text, leftOut: mixed.length, truncated: true });
  });

  it.each([
    ['html', summaryLimit(60), '<p>The rest of this summary is left out'],
    [
      'markdown',
      commentLimit(60),
      "The rest of this comment is left out to keep within GitHub's limit of 65,536 characters",
    ],
  ])('cuts a plain string (%s) at line ends only', (_, limit, rest) => {
    const text = Array.from(
      { length: 20 },
      (_, n) => `line ${String(n).padStart(2, '0')} of the text\n`,
    ).join('');
    const fitted = fitText(text, { ...limit, limit: 200 });
    const lines = fitted.text.split('\n').filter((kept) => kept.startsWith('line'));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((kept) => /^line \d\d of the text$/.test(kept))).toBe(true);
    expect(fitted.text).toContain(rest);
    expect(limit.measure(fitted.text)).toBeLessThanOrEqual(200);
  });

  it('measures a summary in UTF-8 bytes and a comment in characters', () => {
    const rows = table(Array.from({ length: 100 }, () => 'failed'));
    const wide = {
      ...rows,
      items: rows.items.map((item) => ({ ...item, text: `<tr>é€😀${item.text}</tr>` })),
    };
    const bytes = fitText(html(wide), summaryLimit(1_000)).text;
    expect(Buffer.byteLength(bytes, 'utf8')).toBeLessThanOrEqual(1_000);
    const chars = fitText(html(wide), commentLimit(1_000)).text;
    expect(chars.length).toBeLessThanOrEqual(1_000);
    expect(chars.length).toBeGreaterThan(bytes.length);
  });

  it('has GitHub’s limits as defaults', () => {
    expect(summaryLimit().limit).toBe(1_048_576);
    expect(MAX_SUMMARY_BYTES).toBe(1024 * 1024);
    expect(commentLimit().limit).toBe(65_536);
    expect(MAX_COMMENT_LENGTH).toBe(65_536);
  });
});

describe('wholeText', () => {
  it('writes every item, and a string as it is', () => {
    expect(wholeText(html('<h2>t</h2>\n', table(['other', 'failed'])))).toBe(
      '<h2>t</h2>\n<table><tr>o00</tr><tr>x01</tr></table>\n',
    );
    expect(wholeText('as it is\nend')).toBe('as it is\nend');
  });
});
