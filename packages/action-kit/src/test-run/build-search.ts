/**
 * The jobs of a workflow run's builds, searched in the account's job list newest first: what a
 * report gathers and a re-run reads of the attempts before it. The account's other jobs (other
 * pipelines, other teams) are most of what a search reads, so it reads as little as it can and
 * says plainly when it could not read all it needed.
 *
 * - Pages are as wide as the service serves (`job-window.ts`), so 20,000 jobs are 20 requests.
 * - It starts at the time now and ends, in this order of preference:
 *   1. when every awaited item and every attempt's build has shown, at the first page after that
 *      with no job of the builds (an item's runs on its platforms, and its retries, are listed
 *      near each other; the attempts of a run are the builds asked for, one each);
 *   2. with items still missing but every attempt's build shown, `SHARD_SPREAD_MS` before the
 *      oldest job of the builds found: the shards of an attempt start within that of each other,
 *      so an item not found by then was not run (an attempt not shown yet may be a re-run of
 *      weeks later, and is looked for further);
 *   3. at `from`, when the CI system said when the run was created;
 *   4. otherwise at `SEARCH_WINDOW_MS` back (a workflow run can be re-run for 30 days), or after
 *      `SEARCH_MAX_PAGES`: then the search is `incomplete`, and what it did not find is reported
 *      as not found, never as not run.
 * - A page that fails after the client's retries, once one was read, ends it with what was read
 *   and why (`incomplete` too): a report publishes that, saying so, rather than nothing.
 */
import type { Job } from '@sauce-actions/api';
import { buildMatcher } from './build-names.ts';
import { jobPages, START_MARGIN_MS, type JobLister } from './job-window.ts';
import type { RequestPacer } from '../step/request-pacer.ts';

/** A workflow run can be re-run for 30 days after it ran: older jobs cannot be of it. */
const SEARCH_WINDOW_MS = 31 * 24 * 3600_000;
/** Pages read at most: a million jobs at the widest page. */
const SEARCH_MAX_PAGES = 1000;
/**
 * How long before the oldest job of the run found the search still looks for missing items: the
 * longest a matrix's shards (six-hour jobs queued one after another by `max-parallel`) and a
 * run's attempts spread, short of a re-run days later, whose attempt shows on its own.
 */
export const SHARD_SPREAD_MS = 6 * 3600_000;

export interface BuildJobsSearch {
  /**
   * The build names of this run, one per attempt: only jobs of these builds (with the service's
   * ` - N` suffixes) are kept, whatever else the account ran.
   */
  builds: readonly string[];
  /** The awaited item a job of the builds ran, if any (a case, a platform). */
  itemOf: (job: Job) => string | undefined;
  /** How many items are awaited. */
  items: number;
  /** The time now, on the service's clock (`client.serviceClock.now()`): the window ends there. */
  nowMs: number;
  /** When the run was created, on the service's clock, where the CI system tells. */
  runCreatedAtMs?: number | undefined;
  signal: AbortSignal;
  /** The step's pacer; `requests` counts the turns the search took. */
  pacer: RequestPacer;
  /** Jobs asked per page (tests). */
  pageWidth?: number;
}

export interface BuildJobsFound {
  /** Newest first. */
  jobs: Job[];
  /** Why jobs of the run may be missing: the search stopped before it could tell. */
  incomplete?: string;
  /** Requests sent. */
  requests: number;
}

export async function findBuildJobs(jobs: JobLister, search: BuildJobsSearch): Promise<BuildJobsFound> {
  const { pacer } = search;
  const firstTurn = pacer.count;
  const floorMs = Math.max(
    search.nowMs - SEARCH_WINDOW_MS,
    (search.runCreatedAtMs ?? -Infinity) - START_MARGIN_MS,
  );
  const window = { from: Math.floor(floorMs / 1000), to: Math.ceil(search.nowMs / 1000) };
  const attempts = search.builds.map((build) => buildMatcher([build]));
  const isOfBuilds = buildMatcher(search.builds);
  const found: Job[] = [];
  const shownItems = new Set<string>();
  const shownAttempts = new Set<number>();
  let oldestFound = Infinity;
  let lastFull = false;
  let pages = 0;
  try {
    for await (const page of jobPages(jobs, window, {
      pacer,
      signal: search.signal,
      maxPages: SEARCH_MAX_PAGES,
      ...(search.pageWidth !== undefined ? { width: search.pageWidth } : {}),
    })) {
      pages += 1;
      lastFull = page.full;
      const allShownBefore = shownItems.size >= search.items && shownAttempts.size >= attempts.length;
      const matched = page.jobs.filter((job) => isOfBuilds(job.build));
      for (const job of matched) {
        const item = search.itemOf(job);
        if (item !== undefined) shownItems.add(item);
        attempts.forEach((isOf, attempt) => isOf(job.build) && shownAttempts.add(attempt));
        if (job.creation_time !== null) oldestFound = Math.min(oldestFound, job.creation_time);
      }
      found.push(...matched);
      if (allShownBefore && matched.length === 0) return { jobs: found, requests: pacer.count - firstTurn };
      // Newest first: the page's last job is its oldest, and every later page older still.
      const oldestListed = page.jobs.at(-1)?.creation_time ?? null;
      const everyAttempt = shownAttempts.size >= attempts.length;
      if (
        everyAttempt &&
        oldestListed !== null &&
        oldestListed * 1000 < oldestFound * 1000 - SHARD_SPREAD_MS
      ) {
        return { jobs: found, requests: pacer.count - firstTurn };
      }
    }
  } catch (error) {
    if (pages === 0 || search.signal.aborted) throw error;
    const why = error instanceof Error ? error.message : String(error);
    return {
      jobs: found,
      incomplete: `page ${pages + 1} of the job listing failed: ${why}`,
      requests: pacer.count - firstTurn,
    };
  }
  if (lastFull && pages >= SEARCH_MAX_PAGES) {
    return {
      jobs: found,
      incomplete: `the search read the newest ${pages.toLocaleString('en-US')} pages of the account's jobs and stopped there`,
      requests: pacer.count - firstTurn,
    };
  }
  return { jobs: found, requests: pacer.count - firstTurn };
}
