/**
 * The results of a test run, one model whatever the action: each item on each platform by its
 * last run, with the runs before it as its attempts (flaky when it passed after failing), the jobs
 * as the report shows them, and their tally.
 */
import type { Batch, ItemResult, Round, Run, TestResults, TestRun } from './adapter.ts';
import { historyOutputs } from './history/history-report.ts';
import { tallyJobs, type JobAttempt, type ReportedJob } from './job-report.ts';

/** The outputs every test action sets, beside its own. */
export type TestRunOutputs = {
  total: number;
  passed: number;
  failed: number;
  /** Jobs that passed after failing on an earlier attempt (counted in `passed`). */
  flaky: number;
  /** A JSON array: every job run, earlier attempts included. */
  'job-ids': string;
  'results-file': string;
  /** The classes against the earlier runs (`history`), counted; 0 where nothing was compared (a shard). */
  'new-failures': number;
  'still-failing': number;
  fixed: number;
  quarantined: number;
};

/**
 * The results of runs, attempt by attempt: the rounds of a step, or the attempts of a workflow run
 * gathered from the service, which the same report publishes.
 */
export function testResults<R>(
  attempts: readonly (readonly Run<R>[])[],
  startedAtMs: number,
  notRetried?: string,
): TestResults<R> {
  const items = mergeAttempts(attempts);
  const jobs = items.map((item) => item.job);
  return {
    items,
    jobs,
    tally: tallyJobs(jobs),
    startedAtMs,
    ...(notRetried !== undefined ? { notRetried } : {}),
  };
}

/** The results of the rounds of a step. */
export function testRun<R, B extends Batch<R>>(
  rounds: Round<R, B>[],
  startedAtMs: number,
  notRetried: string | undefined,
): TestRun<R, B> {
  return {
    rounds,
    ...testResults(
      rounds.map((round) => round.runs),
      startedAtMs,
      notRetried,
    ),
  };
}

/**
 * Every item on every platform by its last run, in the order first run: a run again replaces its
 * item's run on the same platform, keeping its place, with the runs before it as its attempts.
 * Runs of no known item stand alone.
 */
function mergeAttempts<R>(rounds: readonly (readonly Run<R>[])[]): ItemResult<R>[] {
  const latest = new Map<string, { item?: string; result: ItemResult<R> }>();
  const keyOf = ({ item, job }: Run<R>): string =>
    item !== undefined ? `${item}\u0000${job.platform}` : `job\u0000${job.id}`;
  for (const round of rounds) {
    const again = new Set(round.flatMap(({ item }) => (item !== undefined ? [item] : [])));
    // The latest runs of the items run again in this round, by item.
    const earlier = new Map<string, [string, ItemResult<R>][]>();
    for (const [key, { item, result }] of latest) {
      if (item === undefined || !again.has(item)) continue;
      earlier.set(item, [...(earlier.get(item) ?? []), [key, result]]);
    }
    for (const run of round) {
      const key = keyOf(run);
      const before = run.item !== undefined ? earlier.get(run.item) : undefined;
      // The same platform's run before, else (targets that changed) whatever run of the item is left.
      const index = before?.findIndex(([, old]) => old.job.platform === run.job.platform) ?? -1;
      const [oldKey, previous] = before?.splice(index >= 0 ? index : 0, 1)[0] ?? [];
      if (oldKey !== undefined && oldKey !== key) latest.delete(oldKey);
      const earlierRuns = previous ? [...previous.earlier, previous.last] : [];
      const attempts = earlierRuns.map(({ job }) => attemptOf(job));
      const job = attempts.length > 0 ? { ...run.job, attempts } : run.job;
      const result = { job, last: run, earlier: earlierRuns };
      latest.set(key, { ...(run.item !== undefined ? { item: run.item } : {}), result });
    }
  }
  return [...latest.values()].map(({ result }) => result);
}

function attemptOf(job: ReportedJob): JobAttempt {
  return {
    id: job.id,
    url: job.url,
    status: job.status,
    ...(job.detail !== undefined ? { detail: job.detail } : {}),
  };
}

/** The outputs every test action sets: the tally, every job id (earlier attempts first), the results file. */
export function testRunOutputs(results: TestResults, resultsFile: string): TestRunOutputs {
  const { tally } = results;
  const jobIds = results.items.flatMap(({ earlier, last }) =>
    [...earlier, last].flatMap(({ jobId }) => jobId ?? []),
  );
  return {
    total: tally.total,
    passed: tally.passed,
    failed: tally.failed,
    flaky: tally.flaky,
    'job-ids': JSON.stringify(jobIds),
    'results-file': resultsFile,
    // The engine's comparison with the history counts them, where the step compares.
    ...historyOutputs(undefined),
  };
}
