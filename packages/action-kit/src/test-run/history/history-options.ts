/**
 * What a test action gives the engine of its history inputs: the comparison's options (none for a
 * shard: the report step compares, once per workflow run), the quarantine as a matcher, the
 * expired entries warned about once, and the check, once the items are planned and before any
 * starts, that every entry matches one of them.
 */
import type { HistoryInputs } from '../../inputs/history-inputs.ts';
import {
  DEFAULT_QUARANTINE_FILE,
  expiredWarning,
  unmatchedError,
  type QuarantineEntry,
} from '../../inputs/quarantine-entry.ts';
import type { QuarantineItem, QuarantineMatcher } from '../../inputs/quarantine-match.ts';
import type { Logger } from '../../step/logger.ts';
import type { HistoryOptions, SkippedItem } from '../adapter.ts';

export interface HistoryContext {
  /** What the step runs (a suite, chosen cases, a page on platforms): its series' token. */
  runsWhat: string;
  /** The run's name as its message and issues give it: the suite's, `JS tests (qunit)`. */
  title: string;
  client: { automation: { jobs: HistoryOptions['jobs'] }; serviceClock: { fromLocal(ms: number): number } };
  /** A shard compares nothing: its report step does. */
  shard?: unknown;
  logger: Logger;
}

/** The quarantine's matcher; the glob library loads only for a step that has entries. */
async function matcherOf(entries: readonly QuarantineEntry[]): Promise<QuarantineMatcher> {
  if (entries.length === 0) return () => undefined;
  return (await import('../../inputs/quarantine-match.ts')).quarantineMatcher(entries);
}

export async function historyOptions(
  history: HistoryInputs,
  context: HistoryContext,
): Promise<HistoryOptions | undefined> {
  const file = history.quarantine.file ?? DEFAULT_QUARANTINE_FILE;
  for (const entry of history.quarantine.expired) context.logger.warning(expiredWarning(entry, file));
  if (context.shard !== undefined) {
    const given = [
      ...(history.notify.url !== undefined ? ['notify-url'] : []),
      ...(history.notify.issues !== 'none' ? ['issues'] : []),
    ];
    if (given.length > 0) {
      context.logger.warning(
        `${given.join(' and ')} ${given.length > 1 ? 'are' : 'is'} ignored by a step with shard: the message and the issues are one per workflow run, sent by the step that has the whole run. Give ${given.length > 1 ? 'them' : 'it'} to the report step (operation: report) instead.`,
      );
    }
    return undefined;
  }
  const matcher = await matcherOf(history.quarantine.entries);
  const { client } = context;
  return {
    runs: history.runs,
    failOn: history.failOn,
    defaultBranch: history.defaultBranch,
    runsWhat: context.runsWhat,
    title: context.title,
    quarantineOf: (item) => {
      const entry = matcher(item);
      return entry !== undefined ? { reason: entry.reason, mode: entry.mode } : undefined;
    },
    jobs: client.automation.jobs,
    serviceTime: (ms) => client.serviceClock.fromLocal(ms),
    notify: history.notify,
  };
}

/**
 * The planned items less those quarantined with `mode: skip` (`skipped`, and `reported` with the
 * entries' reasons, for the report); throws when an entry matches none of the items, naming the
 * entries, unless `all` is false (a shard that knows only its share).
 */
export async function quarantinePlan<T>(
  history: HistoryInputs,
  items: readonly T[],
  itemOf: (item: T) => QuarantineItem,
  all = true,
): Promise<{ run: T[]; skipped: T[]; reported: SkippedItem[] }> {
  const { entries, file } = history.quarantine;
  if (entries.length === 0) return { run: [...items], skipped: [], reported: [] };
  const { quarantineMatcher, unmatchedEntries } = await import('../../inputs/quarantine-match.ts');
  const unmatched = all ? unmatchedEntries(entries, items.map(itemOf)) : [];
  if (unmatched.length > 0) throw unmatchedError(unmatched, file ?? DEFAULT_QUARANTINE_FILE);
  const matcher = quarantineMatcher(entries);
  const run: T[] = [];
  const skipped: T[] = [];
  const reported: SkippedItem[] = [];
  for (const item of items) {
    const entry = matcher(itemOf(item));
    if (entry?.mode !== 'skip') {
      run.push(item);
      continue;
    }
    skipped.push(item);
    reported.push({ name: itemOf(item).name, reason: entry.reason });
  }
  return { run, skipped, reported };
}

/** What a report step (`operation: report`) tells of itself besides its adapter. */
export interface ReportStep {
  /** Names its results file: the action's name. */
  name: string;
  inputs: {
    timeoutMs: number;
    failOnFailure: boolean;
    junitFile?: string | undefined;
    history: HistoryInputs;
  };
  runsWhat: string;
  /** As `HistoryContext.title`. */
  title: string;
  /** The inputs only a run uses, and whether the step was given each: a warning names them. */
  runInputsGiven: Readonly<Record<string, boolean>>;
}

/**
 * The items a report expects of the shards: all the step's, less those quarantined with
 * `mode: skip`, which no shard started and which are not missed (`skipped`, with their reasons,
 * for the report); an entry that matches none of them is refused, as in a run.
 */
export async function notSkipped<T extends { item: string; name: string }>(
  inputs: { history: HistoryInputs },
  expected: readonly T[],
): Promise<{ expected: T[]; skipped: SkippedItem[] }> {
  const { run, reported } = await quarantinePlan(inputs.history, expected, (item) => ({
    id: item.item,
    name: item.name,
  }));
  return { expected: run, skipped: reported };
}
