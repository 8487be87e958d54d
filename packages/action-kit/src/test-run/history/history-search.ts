/**
 * The history of a series read back from the service: its newest earlier run on the default
 * branch found by one search of the account's jobs (newest first, in pages of 1,000, back a
 * bounded window), then each run before it read by the anchor its record names, one request each.
 * A busy account costs the search a page per 1,000 jobs since the last run, never a page per
 * earlier run; the search's bounds say when it stopped short, so that the summary says so.
 */
import { ApiError, type CallOptions, type Job } from '@sauce-actions/api';
import type { RequestPacer } from '../../step/request-pacer.ts';
import { jobPages, type JobLister } from '../job-window.ts';
import { recordOf, seriesTag, withRecord, type RunRecord } from './run-record.ts';

/** How far back the search for the newest earlier run reads, at most: a nightly's month. */
export const HISTORY_WINDOW_MS = 30 * 24 * 3600_000;
/** Pages of the account's jobs the search reads at most: 10,000 jobs since the last run. */
export const HISTORY_MAX_PAGES = 10;

export interface HistoryJobs extends JobLister {
  get(jobId: string, params?: object, options?: CallOptions): Promise<Job>;
}

export interface HistorySearch {
  series: string;
  /** Only its runs count: a pull request's run compares with the default branch, never with itself. */
  defaultBranch: string;
  /** Earlier runs wanted (`history`). */
  runs: number;
  /** This run's start on the service's clock (ms): only runs recorded before it are earlier. */
  beforeMs: number;
  /**
   * This run's number and branch, where known: a record of the same run (kept by an earlier
   * attempt of it, or by a job of its pipeline that was retried) is no earlier run, so that a
   * failure new in this run is still new when the run is tried again.
   */
  thisRun?: { number?: string | undefined; branch?: string | undefined };
  signal: AbortSignal;
  pacer: RequestPacer;
  windowMs?: number;
  maxPages?: number;
  /** Jobs asked per page (tests). */
  pageWidth?: number;
}

/** An earlier run's record, with the job that holds it. */
export interface RecordedRun extends RunRecord {
  anchor: string;
}

export interface HistoryFound {
  /** Newest first, at most `runs`. */
  runs: RecordedRun[];
  requests: number;
  /** Why fewer runs were read than asked, when more may exist: said in the summary. */
  shortBy?: string;
}

/** Whether a job's record is an earlier run of the series on the default branch. */
function earlierRun(job: Job, search: HistorySearch): RecordedRun | undefined {
  const record = recordOf(job['custom-data']);
  if (record === undefined || record.series !== search.series) return undefined;
  if (record.pullRequest || record.branch !== search.defaultBranch || record.at >= search.beforeMs) {
    return undefined;
  }
  if (isThisRun(record, search.thisRun)) return undefined;
  return { ...record, anchor: job.id };
}

/**
 * Whether a record is of this run: the same number on the same branch. A run number is unique
 * within a series and branch (GitHub's per workflow, GitLab's per project, Jenkins' per branch's
 * job), and its attempts and retried jobs share it; without a number or a branch, no record is.
 */
function isThisRun(record: RunRecord, run: HistorySearch['thisRun']): boolean {
  const number = run?.number;
  const branch = run?.branch;
  return (
    number !== undefined && branch !== undefined && record.run.number === number && record.branch === branch
  );
}

export async function readHistory(jobs: HistoryJobs, search: HistorySearch): Promise<HistoryFound> {
  const firstTurn = search.pacer.count;
  const requests = (): number => search.pacer.count - firstTurn;
  if (search.runs <= 0) return { runs: [], requests: 0 };
  const newest = await findNewest(jobs, search);
  if (newest.run === undefined) {
    return { runs: [], requests: requests(), ...(newest.shortBy ? { shortBy: newest.shortBy } : {}) };
  }
  const runs = [newest.run];
  let shortBy: string | undefined;
  for (let run = newest.run; runs.length < search.runs && run.previous !== undefined;) {
    const before = await readAnchor(jobs, run.previous, search);
    // Each record is older than the one that names it: a chain that loops ends.
    if (before.run === undefined || before.run.at >= run.at) {
      shortBy = before.shortBy ?? `the record of the run before run ${describeRun(run)} could not be read`;
      break;
    }
    runs.push(before.run);
    run = before.run;
  }
  return { runs, requests: requests(), ...(shortBy !== undefined ? { shortBy } : {}) };
}

/** The newest earlier run, by its tag among the account's jobs, newest first. */
async function findNewest(
  jobs: HistoryJobs,
  search: HistorySearch,
): Promise<{ run?: RecordedRun; shortBy?: string }> {
  const tag = seriesTag(search.series);
  const windowMs = search.windowMs ?? HISTORY_WINDOW_MS;
  const window = {
    from: Math.max(0, Math.floor((search.beforeMs - windowMs) / 1000)),
    to: Math.ceil(search.beforeMs / 1000),
  };
  const maxPages = search.maxPages ?? HISTORY_MAX_PAGES;
  let last = { index: -1, full: false };
  for await (const page of jobPages(jobs, window, {
    pacer: search.pacer,
    signal: search.signal,
    maxPages,
    ...(search.pageWidth !== undefined ? { width: search.pageWidth } : {}),
  })) {
    for (const job of page.jobs) {
      const run = Array.isArray(job.tags) && job.tags.includes(tag) ? earlierRun(job, search) : undefined;
      if (run !== undefined) return { run };
    }
    last = page;
  }
  if (last.full && last.index + 1 >= maxPages) {
    return {
      shortBy: `no earlier run on ${search.defaultBranch} was among the account's newest ${((last.index + 1) * (search.pageWidth ?? 1000)).toLocaleString('en-US')} jobs, as far back as the search reads`,
    };
  }
  // The whole window was read: there is no earlier run (a first run), which is nothing to warn of.
  return {};
}

/** An earlier run by its anchor job; a job gone, or holding no record of the series, ends the chain. */
async function readAnchor(
  jobs: HistoryJobs,
  anchor: string,
  search: HistorySearch,
): Promise<{ run?: RecordedRun; shortBy?: string }> {
  await search.pacer.take(search.signal);
  try {
    const run = earlierRun(await jobs.get(anchor, {}, { signal: search.signal }), search);
    return run !== undefined ? { run } : {};
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      return { shortBy: `job ${anchor}, which held the record of an earlier run, is gone` };
    }
    throw error;
  }
}

function describeRun(run: RecordedRun): string {
  return run.run.number !== undefined ? `#${run.run.number}` : (run.builds[0] ?? run.anchor);
}

export interface RecordWriter {
  update(
    jobId: string,
    changes: { tags?: string[]; customData?: Record<string, unknown> },
    params?: object,
    options?: CallOptions,
  ): Promise<unknown>;
}

/**
 * Keeps a run's record on one of its jobs (its anchor): the series' tag added to the job's own
 * tags, the record beside the job's own custom data. One request, repeatable as it is.
 */
export async function recordRun(
  jobs: RecordWriter,
  anchor: Pick<Job, 'id' | 'tags' | 'custom-data'>,
  record: RunRecord,
  options: { pacer: RequestPacer; signal?: AbortSignal },
): Promise<void> {
  const tag = seriesTag(record.series);
  const own = Array.isArray(anchor.tags) ? anchor.tags.filter((t) => typeof t === 'string') : [];
  await options.pacer.take(options.signal);
  await jobs.update(
    anchor.id,
    { tags: own.includes(tag) ? own : [...own, tag], customData: withRecord(anchor['custom-data'], record) },
    {},
    options.signal ? { signal: options.signal } : undefined,
  );
}
