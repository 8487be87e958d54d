/**
 * The account's jobs in a window of creation times, page by page: what every search of the test
 * actions reads (following a run, stopping it, a re-run's earlier results, a report).
 *
 * A listing's cost is its pages, and on a shared account most of a window's jobs are other
 * pipelines', so each page is as wide as the service allows and the window as narrow as the
 * caller can make it:
 *
 * - Pages ask for `JOB_PAGE_WIDTH` jobs. The interface documents only the default (100); a
 *   service that ignores a wider `limit` answers pages of that default, so a page of exactly 100
 *   counts as full as well as one of the width asked. A page shorter than both is the last: no
 *   trailing empty page is sent. A service that refuses the width (a 400) is asked for its
 *   default from then on, for the rest of the process's listings; a 400 that the default meets
 *   as well is the listing's failure.
 * - `from` and `to` are inclusive bounds in Unix seconds on the service's clock.
 * - Bounded: a page that repeats the one before (a service that ignores `skip`) ends the listing,
 *   and so does `maxPages`; the signal is checked before each page, and each waits for the pacer.
 */
import { ApiError, type CallOptions, type Job, type ListJobsParams } from '@sauce-actions/api';
import type { RequestPacer } from '../step/request-pacer.ts';

export interface JobLister {
  list(params: ListJobsParams & { full: true }, options?: CallOptions): Promise<Job[]>;
}

/** Jobs asked for per page: the widest the emulator serves, ten pages of the documented default. */
export const JOB_PAGE_WIDTH = 1000;
/** The interface's documented default page, which a service ignoring `limit` answers. */
export const DEFAULT_PAGE = 100;

/**
 * Margin subtracted from a run's start for its first window: the service's records against its
 * own `Date` header, and a start whose answer came late. Both are the service's clock, so a
 * minute is plenty; a wider margin only lists more of other pipelines' jobs.
 */
export const START_MARGIN_MS = 60_000;

/** Widths refused by a service, so that the process asks each service once. */
const refusedWidths = new WeakMap<JobLister, number>();

export interface JobWindow {
  /** Oldest creation time, Unix seconds (inclusive). */
  from: number;
  /** Newest creation time, Unix seconds (inclusive); absent: up to now. */
  to?: number;
}

export interface PageOptions {
  pacer: RequestPacer;
  signal?: AbortSignal | undefined;
  /** Pages at most (default: 1,000, a million jobs at the full width). */
  maxPages?: number;
  /** Jobs asked per page (tests); default `JOB_PAGE_WIDTH`. */
  width?: number;
}

/** One page of a window, newest first, and whether more may follow it. */
export interface JobPage {
  jobs: Job[];
  /** Zero-based. */
  index: number;
  /** Whether the page was full, so that the window may hold older jobs. */
  full: boolean;
}

/**
 * The window's pages, newest first. The caller stops when it has what it needs; the generator
 * ends after the last page, at a repeated page, or at `maxPages`: a last page yielded `full`
 * means the window may hold more than was read.
 */
export async function* jobPages(
  jobs: JobLister,
  window: JobWindow,
  options: PageOptions,
): AsyncGenerator<JobPage, void, undefined> {
  const maxPages = options.maxPages ?? 1000;
  let skip = 0;
  let previousFirst: string | undefined;
  for (let index = 0; index < maxPages; index++) {
    options.signal?.throwIfAborted();
    const width = Math.min(options.width ?? JOB_PAGE_WIDTH, refusedWidths.get(jobs) ?? Infinity);
    await options.pacer.take(options.signal);
    const listed = await listPage(jobs, window, { skip, width, signal: options.signal });
    const first = listed.jobs[0]?.id;
    if (index > 0 && first !== undefined && first === previousFirst) return;
    previousFirst = first;
    const full = listed.jobs.length >= listed.width || listed.jobs.length === DEFAULT_PAGE;
    yield { jobs: listed.jobs, index, full };
    if (!full) return;
    skip += listed.jobs.length;
  }
}

/** One page; a width the service refuses is remembered and the page asked again at the default. */
async function listPage(
  jobs: JobLister,
  window: JobWindow,
  page: { skip: number; width: number; signal: AbortSignal | undefined },
): Promise<{ jobs: Job[]; width: number }> {
  const options = page.signal ? { signal: page.signal } : undefined;
  const params = (limit: number): ListJobsParams & { full: true } => ({
    full: true,
    from: window.from,
    ...(window.to !== undefined ? { to: window.to } : {}),
    skip: page.skip,
    limit,
  });
  try {
    return { jobs: await jobs.list(params(page.width), options), width: page.width };
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 400) || page.width <= DEFAULT_PAGE) throw error;
    // Remembered only once the default passes: a 400 for another reason is thrown again.
    const listed = await jobs.list(params(DEFAULT_PAGE), options);
    refusedWidths.set(jobs, DEFAULT_PAGE);
    return { jobs: listed, width: DEFAULT_PAGE };
  }
}

/** The jobs of a window that `isOfRun` keeps, and how many pages that took. */
export async function listRunJobs(
  jobs: JobLister,
  window: JobWindow,
  isOfRun: (job: Job) => boolean,
  options: PageOptions,
): Promise<{ jobs: Job[]; pages: number }> {
  const found: Job[] = [];
  let pages = 0;
  for await (const page of jobPages(jobs, window, options)) {
    pages += 1;
    for (const job of page.jobs) if (isOfRun(job)) found.push(job);
  }
  return { jobs: found, pages };
}

/** Whether a job is of the run: of one of its builds, or one of its known ids. */
export function runMatcher(builds: readonly string[], jobIds: readonly string[]): (job: Job) => boolean {
  const buildSet = new Set(builds);
  const idSet = new Set(jobIds);
  return (job) => (job.build !== null && buildSet.has(job.build)) || idSet.has(job.id);
}
