/**
 * How each item of a run (an AI test case, a platform of run-js-tests) stands against the earlier
 * runs of its series on the default branch, and which items fail the step.
 *
 * An item's compared runs are the earlier runs that ran it; "then" is the newest of them. A run in
 * which the item was flaky counts as a pass there: it passed on a retry. The classes, the first
 * that applies winning:
 * - quarantined: matched by a quarantine entry, whatever its outcome now.
 * - flaky: flaky now (failed, then passed on a retry), or flipping: its failures over the compared
 *   runs and now, oldest to newest, form two or more separate streaks (P F P F and F P F P are
 *   flaky; P F F P is fixed). Flaky now wins over fixed: it failed in this run too.
 * - new: failed now, and passed then or never ran in the compared runs (a first run's failures).
 * - still-failing: failed now and then.
 * - fixed: passed now, failed then.
 * - passed: passed now, and passed then or never ran.
 *
 * A flaky item is newly flaky when it was not flaky in the newest compared run that ran it, told
 * by the same rules against the runs before that one (or never ran): what a message says changed.
 *
 * A quarantined item is ready to leave its quarantine when it passed, without a retry, in each of
 * the last 5 compared runs that ran it (5 at least) and passed now.
 *
 * The step fails, with `fail-on: any`, for every item that failed now and is not quarantined (a
 * flipping item that failed now included); with `fail-on: new`, for the new items only. An item
 * flaky now passed on a retry, and a quarantined item is reported only: neither fails the step.
 */
import { itemKey, type ItemOutcome, type RunRecord } from './run-record.ts';

export type HistoryClass = 'new' | 'still-failing' | 'fixed' | 'flaky' | 'quarantined' | 'passed';

/** The classes in the order a report lists them. */
export const HISTORY_CLASSES: readonly HistoryClass[] = [
  'new',
  'still-failing',
  'fixed',
  'flaky',
  'quarantined',
  'passed',
];

/** Passing runs in a row a quarantined item needs before it may leave its quarantine. */
export const PASSES_TO_LEAVE_QUARANTINE = 5;

export interface CurrentItem {
  /** What names the item for good, that `itemKey` hashes: a case's id, a platform's name. */
  item: string;
  /** The name people read. */
  name: string;
  outcome: ItemOutcome;
  /** Its last job's page, where it has one. */
  url?: string;
  /** The quarantine entry that matched it, if one did. */
  quarantined?: { reason: string; mode: 'run' | 'skip' };
}

export interface ClassifiedItem extends CurrentItem {
  class: HistoryClass;
  /** The compared runs that ran this item. */
  comparedRuns: number;
  /** Of those, the ones it failed in (a flaky one passed on a retry: not counted). */
  failedRuns: number;
  /** It ran in none of the compared runs. */
  neverRun: boolean;
  /** The newest compared run in which it passed, for a "last passing run" link. */
  lastPassed?: RunRecord['run'] & { builds: string[] };
  /** Quarantined, and passed in each of the last 5 compared runs that ran it, and now. */
  readyToLeave: boolean;
  /** Flaky now, and not in the newest compared run that ran it (as the runs before that told it). */
  newlyFlaky: boolean;
}

export interface Classification {
  items: ClassifiedItem[];
  counts: Record<HistoryClass, number>;
  /** The earlier runs compared with. */
  comparedRuns: number;
}

/**
 * Classifies the items of this run against `history`: earlier runs, newest first, already limited
 * to the default branch's runs that were not for a pull request.
 */
export function classifyItems(
  current: readonly CurrentItem[],
  history: readonly RunRecord[],
): Classification {
  const counts = Object.fromEntries(HISTORY_CLASSES.map((name) => [name, 0])) as Record<HistoryClass, number>;
  const items = current.map((item) => classifyItem(item, history));
  for (const item of items) counts[item.class] += 1;
  return { items, counts, comparedRuns: history.length };
}

/** The items that fail the step under `fail-on`. */
export function failsStep(items: readonly ClassifiedItem[], failOn: 'any' | 'new'): ClassifiedItem[] {
  return items.filter((item) =>
    failOn === 'new' ? item.class === 'new' : item.outcome === 'failed' && item.class !== 'quarantined',
  );
}

interface Ran {
  record: RunRecord;
  outcome: ItemOutcome;
}

function classifyItem(item: CurrentItem, history: readonly RunRecord[]): ClassifiedItem {
  const key = itemKey(item.item);
  const ran: Ran[] = [];
  for (const record of history) {
    const outcome = Object.hasOwn(record.items, key) ? record.items[key] : undefined;
    if (outcome !== undefined) ran.push({ record, outcome });
  }
  const passed = ran.find((run) => run.outcome !== 'failed');
  const lastFew = ran.slice(0, PASSES_TO_LEAVE_QUARANTINE);
  const itemClass = classOf(item, ran);
  const { quarantined: _quarantined, ...unquarantined } = item;
  // Its class in the newest compared run, against the runs before it: the same rules, a run earlier.
  const [then, ...before] = ran;
  const wasFlaky =
    then !== undefined && classOf({ ...unquarantined, outcome: then.outcome }, before) === 'flaky';
  return {
    ...item,
    class: itemClass,
    comparedRuns: ran.length,
    failedRuns: ran.filter((run) => run.outcome === 'failed').length,
    neverRun: ran.length === 0,
    ...(passed !== undefined
      ? { lastPassed: { ...passed.record.run, builds: [...passed.record.builds] } }
      : {}),
    readyToLeave:
      item.quarantined !== undefined &&
      item.outcome === 'passed' &&
      lastFew.length === PASSES_TO_LEAVE_QUARANTINE &&
      lastFew.every((run) => run.outcome === 'passed'),
    newlyFlaky: itemClass === 'flaky' && !wasFlaky,
  };
}

function classOf(item: CurrentItem, ran: readonly Ran[]): HistoryClass {
  if (item.quarantined !== undefined) return 'quarantined';
  const failedNow = item.outcome === 'failed';
  if (item.outcome === 'flaky' || failureStreaks(ran, failedNow) >= 2) return 'flaky';
  const failedThen = ran[0]?.outcome === 'failed';
  if (failedNow) return failedThen ? 'still-failing' : 'new';
  return failedThen ? 'fixed' : 'passed';
}

/** The separate runs of failures, oldest to newest, over the compared runs (`ran`, newest first) and now. */
function failureStreaks(ran: readonly Ran[], failedNow: boolean): number {
  const failures = [...ran.map((run) => run.outcome === 'failed').reverse(), failedNow];
  return failures.filter((failed, at) => failed && !(failures[at - 1] ?? false)).length;
}
