/**
 * What a report of a workflow run makes of the runs it gathered from the service: each item's
 * runs on one platform in the order they were made, as attempts (a retry of a step, a re-run of
 * the workflow), so that the same results model as a run's is published; and the items no step
 * ran, which must not pass unseen.
 */
import type { Failure } from '../step/failure.ts';
import type { ExpectedItem, GatheredRun, Run } from './adapter.ts';
import type { JobTally, ReportedJob } from './job-report.ts';
import { listSome } from './job-report.ts';

/** Why an item has no job, in words that fit a GitHub workflow and any other CI system's pipeline. */
export const NOT_RUN_DETAIL =
  'not run: no shard of this run ran it (one that failed before starting, or was cancelled)';

/**
 * The runs attempt by attempt: the first run of every item on every platform, then the second
 * of those run again, and so on. Within an attempt, items keep the order of `expected` (unknown
 * ones last), so that the report lists them as the suite or the `platforms` input does; `notRun`
 * (the runs that stand for items no step ran) take their place in the first.
 */
export function attemptsOfRuns<R>(
  runs: readonly GatheredRun<R>[],
  expected: readonly ExpectedItem[],
  notRun: readonly Run<R>[] = [],
): Run<R>[][] {
  const place = new Map(expected.map(({ item }, index) => [item, index]));
  const byItem = new Map<string, GatheredRun<R>[]>();
  for (const run of runs) {
    const key = `${run.item}\u0000${run.job.platform}`;
    byItem.set(key, [...(byItem.get(key) ?? []), run]);
  }
  const attempts: Run<R>[][] = [[...notRun]];
  for (const itemRuns of byItem.values()) {
    // Stable: runs made in the same second keep the order they were given in.
    const ordered = [...itemRuns].sort((a, b) => byServiceTime(a.createdAt, b.createdAt));
    ordered.forEach((run, index) => (attempts[index] ??= []).push(withoutGatherFields(run)));
  }
  const rank = (run: Run<R>): number =>
    (run.item !== undefined ? place.get(run.item) : undefined) ?? expected.length;
  return attempts
    .filter((attempt) => attempt.length > 0)
    .map((attempt) =>
      attempt
        .map((run, index) => ({ run, index }))
        .sort((a, b) => rank(a.run) - rank(b.run) || a.index - b.index)
        .map(({ run }) => run),
    );
}

/** Orders service times, oldest first; an unknown one (null) after every known one. */
export function byServiceTime(a: number | null, b: number | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return a - b;
}

function withoutGatherFields<R>({ item, job, jobId, record }: GatheredRun<R>): Run<R> {
  return { item, job, ...(jobId !== undefined ? { jobId } : {}), record };
}

/** The expected items that no run ran, in their order. */
export function itemsNotRun(runs: readonly GatheredRun[], expected: readonly ExpectedItem[]): ExpectedItem[] {
  const ran = new Set(runs.map(({ item }) => item));
  return expected.filter(({ item }) => !ran.has(item));
}

/**
 * What the report shows for an item no step ran: a failure, with no job to link. When the search
 * could not read all it needed (`incomplete`), the item was not found, which is not the same.
 */
export function notRunJob(item: ExpectedItem, platform = '', incomplete?: string): ReportedJob {
  return {
    id: item.item,
    name: item.name,
    platform,
    status: 'error',
    url: '',
    detail: incomplete === undefined ? NOT_RUN_DETAIL : `not found: ${incomplete}, so it may have run`,
  };
}

/** Where a report looked, for its failure: what the items are, and the builds it searched. */
export interface GatheredContext {
  itemsName: string;
  /** The items' source: `suite "Regression"`, `` `platforms` ``. */
  where: string;
  /** The builds searched: `build "nightly 42"`. */
  searched: string;
  /** The input that names the shards' build: `build-name`, `build`. */
  buildInput: string;
  /** Why the search could not read all it needed (`Gathered.incomplete`), if so. */
  incomplete?: string | undefined;
}

/**
 * Why a report fails whatever `fail-on-failure` says: items that no step ran (a shard that died
 * before starting), or jobs that had not finished when the report was made. Undefined when
 * neither: then failed jobs fail it as they would fail a run.
 */
export function gatheredFailure(
  notRun: readonly ExpectedItem[],
  tally: JobTally,
  context: GatheredContext,
): Failure | undefined {
  // Items not run count as failed (finished): what is left never finished.
  const unfinished = tally.total - tally.finished;
  if (notRun.length > 0 && notRun.length === tally.total) {
    // Not one job: more likely a report that looks in the wrong place than every shard lost.
    return {
      kind: 'tests-failed',
      message: `No job of the ${tally.total} ${context.itemsName} of ${context.where} was found in ${context.searched}: give the report the \`${context.buildInput}\` the shards were given (and the same ${context.itemsName}), make its job wait for them (\`needs:\`), or run the failed shards again if none started.`,
    };
  }
  if (notRun.length > 0 && context.incomplete !== undefined) {
    // A search that stopped short cannot tell a case that never ran from one it did not reach.
    return {
      kind: 'tests-failed',
      message: `${notRun.length === 1 ? `1 of the ${context.itemsName} of ${context.where} was` : `${notRun.length} ${context.itemsName} of ${context.where} were`} not found, because ${context.incomplete}: they may have run. Run the report again once the service answers; ${tally.passed} of ${tally.total} passed.`,
    };
  }
  const parts = [
    ...(notRun.length > 0
      ? [
          `${notRun.length === 1 ? `1 of the ${context.itemsName} of ${context.where} was` : `${notRun.length} ${context.itemsName} of ${context.where} were`} not run by any step: ${listSome(
            notRun.map(({ name }) => name),
            20,
          )}. A shard that failed before it started, or was cancelled, leaves its ${context.itemsName} unrun: run the failed shards again.`,
        ]
      : []),
    ...(unfinished > 0
      ? [
          `${unfinished === 1 ? '1 job' : `${unfinished} jobs`} had not finished when the report was made: make the report's job wait for every shard (\`needs:\`), or raise their \`timeout\`.`,
        ]
      : []),
  ];
  if (parts.length === 0) return undefined;
  const failed = tally.failed - notRun.length;
  const counts = `${tally.passed} of ${tally.total} passed${failed > 0 ? `, ${failed} failed` : ''}.`;
  return { kind: 'tests-failed', message: `${parts.join(' ')} ${counts}` };
}

/**
 * The warning for inputs of a run that a report step was given (copied from the shards' step,
 * most likely): a report starts nothing, so they change nothing, and the user should know. `given`
 * names each such input and whether the step set it; undefined when none was.
 */
export function runInputsWarning(given: Readonly<Record<string, boolean>>): string | undefined {
  const names = Object.keys(given).filter((name) => given[name]);
  if (names.length === 0) return undefined;
  const list = names.map((name) => `\`${name}\``).join(', ');
  return `\`operation: report\` starts nothing, so ${list} ${names.length === 1 ? 'changes' : 'change'} nothing in this step: ${names.length === 1 ? 'it belongs' : 'they belong'} in the steps that run the shards.`;
}
