/**
 * A run's results against its series' history: the earlier runs on the default branch read back
 * from the service, each item classed against them, the items that fail the step under `fail-on`,
 * and, for a run of the default branch, its own record kept for the runs after it.
 */
import type { Job } from '@sauce-actions/api';
import type { WorkflowRun } from '../../deps.ts';
import type { CiContext } from '../../step/ci-context.ts';
import type { RequestPacer } from '../../step/request-pacer.ts';
import type { HistoryItemOf, HistoryOptions, ItemResult, SkippedItem, TestResults } from '../adapter.ts';
import { isFailedJob, isFlakyJob } from '../job-report.ts';
import {
  classifyItems,
  failsStep,
  type Classification,
  type ClassifiedItem,
  type CurrentItem,
} from './classes.ts';
import { readHistory, recordRun, type RecordedRun } from './history-search.ts';
import { itemKey, seriesToken, type ItemOutcome, type RunRecord } from './run-record.ts';

export interface Comparison {
  /** The series' token, its default branch, and whether this run is one of it there. */
  series?: { token: string; defaultBranch: string; ofDefaultBranch: boolean };
  /** Why nothing was compared (history off, no series or default branch known): said in the summary. */
  off?: string;
  classification: Classification;
  /** The earlier runs compared with, newest first. */
  compared: RecordedRun[];
  /** Why fewer earlier runs were read than asked, when more may exist. */
  shortBy?: string;
  /** The items that fail the step, under `fail-on`. */
  failing: ClassifiedItem[];
  /** The items quarantined with `mode: skip`, which were not started. */
  skipped?: readonly SkippedItem[];
  requests: number;
}

interface CompareContext {
  workflow: WorkflowRun;
  ci: CiContext;
  pacer: RequestPacer;
  signal: AbortSignal;
}

/** An item's outcome now: undefined for one that did not finish, which is neither compared nor recorded. */
function outcomeOf(result: ItemResult<unknown>): ItemOutcome | undefined {
  if (isFailedJob(result.job)) return 'failed';
  if (result.job.status !== 'passed') return undefined;
  return isFlakyJob(result.job) ? 'flaky' : 'passed';
}

/** The finished items of a run, as the classes take them. */
export function currentItems<R>(
  results: TestResults<R>,
  itemOf: HistoryItemOf<R>,
  quarantineOf: HistoryOptions['quarantineOf'],
): CurrentItem[] {
  return results.items.flatMap((result) => {
    const outcome = outcomeOf(result);
    if (outcome === undefined) return [];
    const { item, name } = itemOf(result);
    const quarantined = quarantineOf?.({ id: result.last.item ?? item, name });
    return [
      {
        item,
        name,
        outcome,
        ...(result.job.url !== '' ? { url: result.job.url } : {}),
        ...(quarantined !== undefined ? { quarantined } : {}),
      },
    ];
  });
}

/** The run's series on the default branch, or why there is none. */
function seriesOf(
  options: HistoryOptions,
  context: CompareContext,
): NonNullable<Comparison['series']> | string {
  if (options.runs <= 0) return 'the comparison with earlier runs is off (history: 0)';
  if (context.workflow.series === undefined) {
    return 'no earlier runs were compared: the CI system does not say which repository and workflow this run is of';
  }
  const defaultBranch = options.defaultBranch ?? context.ci.defaultBranch;
  if (defaultBranch === undefined) {
    return 'no earlier runs were compared: the CI system does not say the default branch: set the input default-branch';
  }
  return {
    token: seriesToken(context.workflow.series, options.runsWhat),
    defaultBranch,
    ofDefaultBranch: context.ci.pullRequest === undefined && context.ci.branch === defaultBranch,
  };
}

/** No history: every failure counts as new, as on a first run, and the summary says why (`off`). */
export function offComparison<R>(
  results: TestResults<R>,
  itemOf: HistoryItemOf<R>,
  options: HistoryOptions,
  off: string,
): Comparison {
  const classification = classifyItems(currentItems(results, itemOf, options.quarantineOf), []);
  return {
    off,
    classification,
    compared: [],
    failing: failsStep(classification.items, options.failOn),
    requests: 0,
  };
}

/** The run's items classed against the earlier runs of its series on the default branch. */
export async function compareWithHistory<R>(
  results: TestResults<R>,
  itemOf: HistoryItemOf<R>,
  options: HistoryOptions,
  context: CompareContext,
): Promise<Comparison> {
  const series = seriesOf(options, context);
  if (typeof series === 'string') return offComparison(results, itemOf, options, series);
  const found = await readHistory(options.jobs, {
    series: series.token,
    defaultBranch: series.defaultBranch,
    runs: options.runs,
    beforeMs: options.serviceTime(results.startedAtMs),
    thisRun: { number: context.workflow.runNumber, branch: context.ci.branch },
    signal: context.signal,
    pacer: context.pacer,
  });
  const classification = classifyItems(currentItems(results, itemOf, options.quarantineOf), found.runs);
  return {
    series,
    classification,
    compared: found.runs,
    ...(found.shortBy !== undefined ? { shortBy: found.shortBy } : {}),
    failing: failsStep(classification.items, options.failOn),
    requests: found.requests,
  };
}

/**
 * A run of the default branch keeps its record on its first job, for the runs after it: one
 * request to read the job's own tags and custom data, one to add the record. Other runs keep none:
 * no later run compares with them.
 */
export async function keepRecord<R>(
  results: TestResults<R>,
  comparison: Comparison,
  options: Pick<HistoryOptions, 'jobs' | 'serviceTime'> & { get: (id: string) => Promise<Job> },
  context: CompareContext,
): Promise<string | undefined> {
  const { series } = comparison;
  if (series === undefined || !series.ofDefaultBranch) return undefined;
  // A job of the first round: its build is the run's own, not a retry's (` - 1`).
  const first = results.items
    .map((result) => result.earlier[0] ?? result.last)
    .find((run) => run.jobId !== undefined);
  const anchorId = first?.jobId;
  if (anchorId === undefined) return undefined;
  const items: RunRecord['items'] = {};
  for (const item of comparison.classification.items) items[itemKey(item.item)] = item.outcome;
  const { workflow, ci } = context;
  const record: RunRecord = {
    series: series.token,
    branch: series.defaultBranch,
    pullRequest: false,
    run: {
      ...(workflow.runNumber !== undefined ? { number: workflow.runNumber } : {}),
      ...(workflow.runAttempt !== undefined ? { attempt: workflow.runAttempt } : {}),
      ...(ci.runUrl !== undefined ? { url: ci.runUrl } : {}),
    },
    at: options.serviceTime(results.startedAtMs),
    builds: [],
    ...(comparison.compared[0] !== undefined ? { previous: comparison.compared[0].anchor } : {}),
    items,
  };
  const anchor = listedJob(first?.record, anchorId) ?? (await readJob(anchorId, options.get, context));
  // The anchor's build names the run where the CI system gives it no number (a later run's link).
  if (typeof anchor.build === 'string' && anchor.build !== '') record.builds.push(anchor.build);
  await recordRun(options.jobs, anchor, record, { pacer: context.pacer, signal: context.signal });
  return anchorId;
}

/**
 * The anchor as the run's own listing showed it (a suite's jobs are their records): its tags and
 * custom data are there, and reading it again would cost a request.
 */
function listedJob(record: unknown, id: string): Job | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  const job = record as Partial<Job>;
  return job.id === id && Array.isArray(job.tags) && 'custom-data' in job ? (job as Job) : undefined;
}

async function readJob(id: string, get: (id: string) => Promise<Job>, context: CompareContext): Promise<Job> {
  await context.pacer.take(context.signal);
  return get(id);
}
