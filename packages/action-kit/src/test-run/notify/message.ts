/**
 * What one message about a run says, whatever its format (Slack, Teams, JSON): the run, where it
 * ran, its counts by class and the items of each class that changed or still fail, each with its
 * job's link and, for a new failure, the last run it passed in. Every value from an input or the
 * service is made one line, without control or invisible characters, redacted and shortened here
 * once; each format then escapes it for its own markup. Addresses are kept only when `http(s)`.
 */
import { linkAddress, MAX_NAME_LENGTH, MAX_SENTENCE_LENGTH, oneLine } from '../../reporting/one-line.ts';
import type { ClassifiedItem, HistoryClass } from '../history/classes.ts';
import type { Comparison } from '../history/comparison.ts';

/** The classes a message lists items of, in the order it lists them: every class but `passed`. */
export type ListedClass = Exclude<HistoryClass, 'passed'>;

export const LISTED_CLASSES: readonly ListedClass[] = [
  'new',
  'fixed',
  'flaky',
  'still-failing',
  'quarantined',
];

/** An address kept in a message at most this long (in characters); a longer one is dropped. */
export const MAX_URL_LENGTH = 1000;

export interface MessageItem {
  /** The name people read. */
  name: string;
  /** Its job's page. */
  url?: string;
  /** The run it last passed in, for a new failure. */
  lastPassedUrl?: string;
}

export interface MessageCounts {
  /** Items that finished in this run. */
  total: number;
  /** Of those, the ones that passed (a flaky one, passed on a retry, included). */
  passed: number;
  /** The ones that failed. */
  failed: number;
  /** The items of each class. */
  classes: Record<HistoryClass, number>;
}

export interface RunMessage {
  run: { name: string; number?: string; attempt?: string; url?: string };
  repository?: string;
  branch?: string;
  commit?: string;
  /** The report's page (a summary, a check run). */
  reportUrl?: string;
  /** The earlier runs compared with, and why none were when the comparison is off. */
  compared: { runs: number; branch?: string; off?: string };
  counts: MessageCounts;
  /** The items of each listed class, in the run's order. */
  items: Record<ListedClass, MessageItem[]>;
}

/** What the message needs besides the comparison: where and what the run was. */
export interface RunFacts {
  run: { name: string; number?: string; attempt?: string; url?: string };
  repository?: string;
  branch?: string;
  commit?: string;
  reportUrl?: string;
  /** An item's job page, when known. */
  jobUrlOf?: (item: ClassifiedItem) => string | undefined;
}

/** An `http(s)` address as a message may carry it, or undefined. */
export function messageUrl(url: string | undefined): string | undefined {
  if (url === undefined || !/^https?:\/\/[^/?#\s]/i.test(url)) return undefined;
  const address = linkAddress(url);
  return address.length <= MAX_URL_LENGTH ? address : undefined;
}

function text(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const line = oneLine(value, MAX_NAME_LENGTH);
  return line === '' ? undefined : line;
}

/** `{ [key]: value }` where the value is defined, `{}` otherwise (for optional properties). */
function given<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function messageItem(item: ClassifiedItem, facts: RunFacts): MessageItem {
  const url = messageUrl(facts.jobUrlOf?.(item));
  const lastPassedUrl = item.class === 'new' ? messageUrl(item.lastPassed?.url) : undefined;
  return {
    name: text(item.name) ?? '(unnamed)',
    ...given('url', url),
    ...given('lastPassedUrl', lastPassedUrl),
  };
}

/** The message of a run from its comparison with the earlier runs and its facts. */
export function runMessage(comparison: Comparison, facts: RunFacts): RunMessage {
  const { classification } = comparison;
  const items = Object.fromEntries(LISTED_CLASSES.map((name) => [name, [] as MessageItem[]])) as Record<
    ListedClass,
    MessageItem[]
  >;
  for (const item of classification.items) {
    if (item.class !== 'passed') items[item.class].push(messageItem(item, facts));
  }
  const failed = classification.items.filter((item) => item.outcome === 'failed').length;
  return {
    run: {
      name: text(facts.run.name) ?? 'Test run',
      ...given('number', text(facts.run.number)),
      ...given('attempt', text(facts.run.attempt)),
      ...given('url', messageUrl(facts.run.url)),
    },
    ...given('repository', text(facts.repository)),
    ...given('branch', text(facts.branch)),
    ...given('commit', text(facts.commit)),
    ...given('reportUrl', messageUrl(facts.reportUrl)),
    compared: {
      runs: comparison.compared.length,
      ...given('branch', text(comparison.series?.defaultBranch)),
      ...given(
        'off',
        comparison.off === undefined ? undefined : oneLine(comparison.off, MAX_SENTENCE_LENGTH),
      ),
    },
    counts: {
      total: classification.items.length,
      passed: classification.items.length - failed,
      failed,
      classes: { ...classification.counts },
    },
    items,
  };
}

/** The classes a chat message has a section for, in order: what changed first. */
export const SECTION_CLASSES: readonly ListedClass[] = ['new', 'fixed', 'flaky', 'still-failing'];

/** The words of each listed class, as a message's sections are titled. */
export const CLASS_TITLES: Record<ListedClass, string> = {
  new: 'New failures',
  fixed: 'Fixed',
  flaky: 'Flaky',
  'still-failing': 'Still failing',
  quarantined: 'Quarantined',
};

/** The run as a title names it: its name and number. */
export function runTitle(message: RunMessage): string {
  const { number, attempt } = message.run;
  const run =
    number === undefined
      ? ''
      : ` #${number}${attempt !== undefined && attempt !== '1' ? ` (attempt ${attempt})` : ''}`;
  return `${message.run.name}${run}`;
}

/** One line of the counts, in plain words. */
export function countsSentence(message: RunMessage): string {
  const { counts } = message;
  const { classes } = counts;
  return (
    `${counts.failed} of ${counts.total} failed: ${classes.new} new, ${classes.fixed} fixed, ` +
    `${classes.flaky} flaky, ${classes['still-failing']} still failing, ${classes.quarantined} quarantined`
  );
}

/** How the run went, in a word a title leads with. */
export function runVerdict(message: RunMessage): 'failed' | 'passed' {
  return message.counts.failed > 0 ? 'failed' : 'passed';
}

/**
 * A list's lines joined as many as fit (`size` of the text at most `max`, `maxLines` at most), the
 * rest said by the line `more(n)`; an empty text for no lines.
 */
export function cutLines(
  lines: readonly string[],
  options: { max: number; size: (text: string) => number; more: (left: number) => string; maxLines?: number },
): string {
  const joined = (kept: readonly string[], left: number): string =>
    [...kept, ...(left > 0 ? [options.more(left)] : [])].join('\n');
  const kept: string[] = [];
  for (const [at, line] of lines.entries()) {
    if (kept.length >= (options.maxLines ?? Infinity)) break;
    if (options.size(joined([...kept, line], lines.length - at - 1)) > options.max) break;
    kept.push(line);
  }
  return joined(kept, lines.length - kept.length);
}

/** An item's links, in our own words: its job, and for a new failure the run it last passed in. */
export function itemLinks(item: MessageItem): { text: string; url: string }[] {
  return [
    ...(item.url !== undefined ? [{ text: 'job', url: item.url }] : []),
    ...(item.lastPassedUrl !== undefined ? [{ text: 'last passed', url: item.lastPassedUrl }] : []),
  ];
}

/** What the run was compared with, in plain words. */
export function comparedSentence(message: RunMessage): string {
  const { compared } = message;
  if (compared.off !== undefined) return compared.off;
  if (compared.runs === 0) return 'No earlier run to compare with';
  return `Against ${compared.runs} earlier run(s)${compared.branch !== undefined ? ` on ${compared.branch}` : ''}`;
}
