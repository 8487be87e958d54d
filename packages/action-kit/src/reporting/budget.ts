/**
 * Summaries and comments cut to GitHub's limits, block by block: the runner refuses a step summary
 * over 1 MiB whole, and GitHub a comment over 65,536 characters. What must stay (the failure) is
 * kept first, then every fixed block, then the items of lists by rank (failed, flaky, the rest)
 * while they fit, each list that lost items followed by one line counting them and saying where
 * the full list is. Nothing is ever cut inside a block; a plain string is cut at line ends.
 */
import { markdownSentence } from './markdown.ts';
import {
  isItemList,
  listText,
  type Block,
  type ItemList,
  type ItemRank,
  type ListItem,
  type ReportText,
} from './report-text.ts';
import { safeSentence } from './summary.ts';

/** The runner refuses a step summary over this many bytes ("supports content up to a size of 1024k"). */
export const MAX_SUMMARY_BYTES = 1024 * 1024;
/** GitHub refuses a pull-request comment longer than this. */
export const MAX_COMMENT_LENGTH = 65_536;

export interface TextLimit {
  /** The most the text may measure. */
  limit: number;
  measure(text: string): number;
  /** Of a plain string, for the line that says the rest was left out. */
  format: 'html' | 'markdown';
  /** What the text is and what limits it, for that line: `summary`, `1 MiB`. */
  what: string;
  limitText: string;
  /** Where the rest can be read, for that line: `the step summary has more`. */
  elsewhere?: string;
}

const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** A step summary: bytes, in UTF-8, up to `limit` (1 MiB unless told). */
export function summaryLimit(limit = MAX_SUMMARY_BYTES): TextLimit {
  return {
    limit,
    measure: utf8Bytes,
    format: 'html',
    what: 'summary',
    limitText: '1 MiB',
    elsewhere: "the step's log and its results file, where it writes one, have the rest",
  };
}

/** A comment: characters (UTF-16 units, never fewer than GitHub counts) up to `limit`. */
export function commentLimit(limit = MAX_COMMENT_LENGTH): TextLimit {
  return {
    limit,
    measure: (text) => text.length,
    format: 'markdown',
    what: 'comment',
    limitText: '65,536 characters',
    elsewhere: 'the step summary has more',
  };
}

export interface FittedText {
  text: string;
  /** Items of lists not shown, past a list's `max` or the limit. */
  leftOut: number;
  /** Whether fixed blocks were left out too (the rest of the text, from the first that did not fit). */
  truncated: boolean;
}

const RANKS: readonly ItemRank[] = ['failed', 'flaky', 'other'];

/** Blocks and how they are joined: a plain string's lines are joined by nothing. */
interface Layout {
  format: 'html' | 'markdown';
  blocks: readonly Block[];
  separator: string;
}

function layoutOf(text: ReportText, format: 'html' | 'markdown'): Layout {
  if (typeof text !== 'string') {
    return { format: text.format, blocks: text.blocks, separator: text.format === 'html' ? '' : '\n\n' };
  }
  return { format, blocks: text.match(/[^\n]*\n|[^\n]+$/g) ?? [], separator: '' };
}

/** A sentence of the host's as a block of the layout: a paragraph of its own. */
function sentenceBlock(layout: Layout, sentence: string): string {
  if (layout.format === 'html') return `<p>${safeSentence(sentence)}</p>\n`;
  return layout.separator === '' ? `\n${markdownSentence(sentence)}\n` : markdownSentence(sentence);
}

/** `Jobs not listed here: 12; every job is in the results file.`: right whatever the count. */
function leftOutSentence(list: ItemList, count: number): string {
  const noun = list.noun.charAt(0).toUpperCase() + list.noun.slice(1);
  return `${noun} not listed here: ${count}; ${list.fullList}.`;
}

/**
 * The text within the limit, `tail` (the failure) always kept at its end: every fixed block, then
 * list items by rank while they fit, in their own order; each list that lost items followed by a
 * line counting them. When the fixed blocks alone do not fit, they are kept in order while they
 * do, and a line says the rest was left out.
 */
export function fitText(text: ReportText, limit: TextLimit, tail: readonly string[] = []): FittedText {
  const layout = layoutOf(text, limit.format);
  const { blocks, separator } = layout;
  const size = (part: string): number => limit.measure(part);
  const sep = size(separator);
  const tailCost = tail.reduce((sum, block) => sum + size(block) + sep, 0);
  const lists = blocks.filter(isItemList);
  const candidates = new Map(lists.map((list) => [list, list.items.slice(0, list.max ?? Infinity)]));
  // The fixed blocks, each list's frame, and room for each list's line at its longest.
  const fixedCost =
    blocks.reduce(
      (sum, block) => sum + sep + (isItemList(block) ? size(block.open) + size(block.close) : size(block)),
      -sep,
    ) +
    lists.reduce(
      (sum, list) =>
        sum +
        (list.items.length > 0
          ? sep + size(sentenceBlock(layout, leftOutSentence(list, list.items.length)))
          : 0),
      0,
    ) +
    tailCost;
  if (fixedCost > limit.limit) return truncate(layout, limit, tail);

  let room = limit.limit - fixedCost;
  const kept = new Set<ListItem>();
  fill: for (const rank of RANKS) {
    for (const list of lists) {
      for (const item of candidates.get(list) ?? []) {
        if (item.rank !== rank) continue;
        const cost = size(item.text);
        if (cost > room) break fill;
        kept.add(item);
        room -= cost;
      }
    }
  }
  let leftOut = 0;
  const out: string[] = [];
  for (const block of blocks) {
    if (!isItemList(block)) {
      out.push(block);
      continue;
    }
    const shown = block.items.filter((item) => kept.has(item));
    out.push(listText(block, shown));
    const missing = block.items.length - shown.length;
    leftOut += missing;
    if (missing > 0) out.push(sentenceBlock(layout, leftOutSentence(block, missing)));
  }
  return { text: [...out, ...tail].join(separator), leftOut, truncated: false };
}

/** Fixed blocks in order while they fit, then a line saying the rest was left out; lists by their line alone. */
function truncate(layout: Layout, limit: TextLimit, tail: readonly string[]): FittedText {
  const { blocks, separator } = layout;
  const size = (part: string): number => limit.measure(part);
  const sep = size(separator);
  const rest = sentenceBlock(
    layout,
    `The rest of this ${limit.what} is left out to keep within GitHub's limit of ${limit.limitText}${limit.elsewhere !== undefined ? `: ${limit.elsewhere}` : ''}.`,
  );
  // Every block kept pays for a separator, which covers the one before the line that ends them.
  let room = limit.limit - tail.reduce((sum, block) => sum + size(block) + sep, 0) - size(rest);
  const total = blocks.reduce((sum, block) => sum + (isItemList(block) ? block.items.length : 0), 0);
  if (room < 0) {
    // Too little room even for the line: the tail alone when it fits (a failure must be seen), or nothing.
    const tailText = tail.join(separator);
    return { text: size(tailText) <= limit.limit ? tailText : '', leftOut: total, truncated: true };
  }
  const out: string[] = [];
  let leftOut = 0;
  let stopped = false;
  for (const block of blocks) {
    const count = isItemList(block) ? block.items.length : 0;
    const written = !isItemList(block)
      ? block
      : count > 0
        ? sentenceBlock(layout, leftOutSentence(block, count))
        : '';
    const cost = size(written) + sep;
    if (!stopped && cost <= room) {
      out.push(written);
      room -= cost;
    } else {
      stopped = true;
    }
    leftOut += count;
  }
  // The tail is bounded by its makers (a failure's sentence), far below any limit.
  return { text: [...out, rest, ...tail].join(separator), leftOut, truncated: true };
}

/** The whole text, nothing left out but past a list's `max`: what a small report is, and what tests read. */
export function wholeText(text: ReportText): string {
  return fitText(text, { ...summaryLimit(Infinity), measure: (part) => part.length }).text;
}
