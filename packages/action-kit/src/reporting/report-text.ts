/**
 * A step summary or a pull-request comment as blocks that a host can cut to GitHub's limits
 * (`budget.ts`) without cutting into one: fixed blocks (headings, totals, notes) and lists of
 * items (a table's rows), each item ranked, so that failed and flaky items are kept first and the
 * host counts the rest in one line saying where the full list is. A plain string is text too,
 * cut at line ends only, which is where every element the kit writes ends.
 */

/** Which items a budget keeps first: failed (or unfinished) ones, then flaky ones, then the rest. */
export type ItemRank = 'failed' | 'flaky' | 'other';

export interface ListItem {
  /** The item as written, a table row with its separator. */
  text: string;
  rank: ItemRank;
}

/** A list of items within a frame, such as the rows of a table. */
export interface ItemList {
  /** What comes before the items: a table's opening and its header row. */
  open: string;
  items: readonly ListItem[];
  /** What comes after the items: the table's end. */
  close: string;
  /** What the items are, for the line counting those not shown: `jobs`. */
  noun: string;
  /** Where every item is, for that line: `every job is in the results file`. */
  fullList: string;
  /** Items shown at most, however much room there is: a comment stays short to read. */
  max?: number;
}

export type Block = string | ItemList;

/**
 * Blocks in HTML (a step summary: each block ends its own line) or in Markdown (a comment: blocks
 * apart by a blank line); the format says how the line counting what was left out is written.
 */
export interface StructuredText {
  format: 'html' | 'markdown';
  blocks: readonly Block[];
}

/** What an action hands its host as a summary or a comment. */
export type ReportText = string | StructuredText;

export function isItemList(block: Block): block is ItemList {
  return typeof block !== 'string';
}

/** A list's items, in their order, with nothing left out. */
export function listText(list: ItemList, items: readonly ListItem[] = list.items): string {
  return `${list.open}${items.map((item) => item.text).join('')}${list.close}`;
}
