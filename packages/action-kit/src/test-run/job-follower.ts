/**
 * Follows the automation jobs of a run until every one has finished, with a cost that does not
 * grow with jobs × polls: each poll lists whole jobs (`full=true`) created since the run started,
 * page by page, and keeps those of the run's builds, instead of one request per job per poll.
 *
 * - The lower bound `from` starts at the run's start on the service's clock (its `Date` header,
 *   `client.serviceClock`) less a margin, then moves up to the oldest job still unfinished (by
 *   the jobs' own creation times): finished jobs stop costing. The runner's clock plays no part.
 * - Requests are spaced to stay under `maxRequestsPerSecond`; the client's retry rides out 429
 *   (with Retry-After) and 5xx answers of these safe GETs, and a poll whose listing still fails
 *   is told and ridden out (`maxFailedPolls` in a row): the next poll lists again.
 * - The interval grows while nothing changes, and goes back to the start value when something does.
 *   A poll whose requests met contention for the account's rate budget (a 429, few requests left:
 *   other jobs of a matrix share the account) doubles the wait, jittered, as the client's `poll` does.
 * - Done when the expected number of jobs is seen and all are finished; when the number is not
 *   known, when at least `minimumCount` are seen, all finished, and the count has not grown for
 *   `settlePolls` polls.
 * - Bounded: the wait ends when `signal` aborts (every action passes its step's deadline), and
 *   each listing at a short page, a page repeated, or `MAX_PAGES`.
 * - A run that ended early is cleaned up by `stopRunJobs`, on a deadline of its own.
 */
import {
  sleep as abortableSleep,
  ContentionBackoff,
  monotonicNow,
  recordingContention,
  type CallOptions,
  type ContentionRecord,
  type Job,
  type ListJobsParams,
} from '@sauce-actions/api';
import { isJobFinished, isKnownJobStatus, unknownStatusWarning } from './job-status.ts';
import { FailedListings } from './listing-failures.ts';
import { stopJobs, type JobStopper } from './job-stopper.ts';
import { RequestPacer, REQUESTS_PER_SECOND } from './request-pacer.ts';

export interface JobLister {
  list(params: ListJobsParams & { full: true }, options?: CallOptions): Promise<Job[]>;
}

export { stopJobs, type JobStopper } from './job-stopper.ts';

interface FollowJobsOptions {
  jobs: JobLister;
  /** Build names whose jobs belong to the run. */
  builds: readonly string[];
  /** Job ids known to belong to the run (case runs answer them). */
  jobIds?: readonly string[];
  /** The number of jobs the run will have, when known. */
  expectedCount?: number;
  /** Without `expectedCount`: the least number of jobs before the count may be taken as final. */
  minimumCount?: number;
  /** Polls with an unchanged count, every job finished, before that count is taken as final (default 2). */
  settlePolls?: number;
  /** When the run was started, on the service's clock (ms: `client.serviceClock.fromLocal(...)`). */
  startedAtMs: number;
  /**
   * Margin subtracted from `startedAtMs`, for the service's records against its `Date` header
   * and a start whose answer came late (default 5 min).
   */
  clockSkewMs?: number;
  /** The service's time now (ms; default this machine's): no window starts after it. */
  serviceNow?: () => number;
  /** Polls in a row whose listing failed (after the client's retries) that are ridden out (default 5). */
  maxFailedPolls?: number;
  intervalMs: number;
  /** Upper bound of the interval grown while nothing changes (default 6 × interval, at most 60 s). */
  maxIntervalMs?: number;
  /** Upper bound of the wait grown while the account is contended (default 4 × interval, at most 2 min). */
  maxContendedIntervalMs?: number;
  /** Jobs per listed page (default 100, the service's default). */
  pageSize?: number;
  /** Requests started per second at most (default 5: half the documented limit, leaving room for others). */
  maxRequestsPerSecond?: number;
  signal?: AbortSignal;
  onPoll?: (poll: FollowProgress) => void;
  /** The clock intervals and the elapsed time are reckoned on: the monotonic one, unless told. */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Source of the jitter of contended waits (tests pin it). */
  random?: () => number;
  /**
   * Told once per job whose status is none the service documents (`unknownStatusWarning`), and
   * of each failed listing that is ridden out.
   */
  warn?: (message: string) => void;
}

export interface FollowProgress {
  jobs: readonly Job[];
  poll: number;
  requests: number;
  elapsedMs: number;
  /** Whether any job appeared or changed status since the last poll. */
  changed: boolean;
  /** The poll's requests met a 429, or a rate window with few requests left. */
  contended: boolean;
}

interface FollowResult {
  /** The run's jobs as last seen, in the order they were first seen (oldest first). */
  jobs: Job[];
  /** True when every expected job was seen finished; false when the signal stopped the wait. */
  complete: boolean;
  polls: number;
  requests: number;
  elapsedMs: number;
}

export async function followJobs(options: FollowJobsOptions): Promise<FollowResult> {
  const now = options.now ?? monotonicNow;
  const sleep = options.sleep ?? abortableSleep;
  const serviceNow = options.serviceNow ?? Date.now;
  const started = now();
  const pageSize = options.pageSize ?? 100;
  const pacer = new RequestPacer(options.maxRequestsPerSecond ?? REQUESTS_PER_SECOND, now, sleep);
  const builds = new Set(options.builds);
  const knownIds = new Set(options.jobIds ?? []);
  const expected = options.expectedCount ?? (knownIds.size > 0 ? knownIds.size : undefined);
  const settlePolls = options.settlePolls ?? 2;
  const maxInterval = options.maxIntervalMs ?? Math.min(60_000, options.intervalMs * 6);
  const tracked = new Map<string, Job>();
  let fromSeconds = Math.floor((options.startedAtMs - (options.clockSkewMs ?? 300_000)) / 1000);
  const backoff = new ContentionBackoff(
    options.maxContendedIntervalMs ?? Math.min(120_000, options.intervalMs * 4),
    options.random,
  );
  let interval = options.intervalMs;
  let lastSignature = '';
  let stableCount = -1;
  let stablePolls = 0;
  let polls = 0;
  const failures = new FailedListings(options.maxFailedPolls ?? 5, options.warn);
  const warned = new Set<string>();

  const result = (complete: boolean): FollowResult => ({
    jobs: [...tracked.values()],
    complete,
    polls,
    requests: pacer.count,
    elapsedMs: now() - started,
  });

  try {
    for (;;) {
      options.signal?.throwIfAborted();
      polls += 1;
      let contention: ContentionRecord;
      try {
        ({ contention } = await recordingContention(() => listSince(fromSeconds)));
        failures.succeeded();
      } catch (error) {
        failures.rideOut(error, options.signal);
        interval = Math.min(maxInterval, Math.round(interval * 1.5));
        await sleep(interval, options.signal);
        continue;
      }
      const contended = contention.limited || contention.low;

      const jobs = [...tracked.values()];
      for (const job of jobs) {
        if (warned.has(job.id) || isKnownJobStatus(job.status)) continue;
        warned.add(job.id);
        options.warn?.(unknownStatusWarning(job));
      }
      const signature = jobs.map((job) => `${job.id}:${job.status}:${String(job.passed)}`).join(',');
      const changed = signature !== lastSignature;
      lastSignature = signature;
      options.onPoll?.({
        jobs,
        poll: polls,
        requests: pacer.count,
        elapsedMs: now() - started,
        changed,
        contended,
      });

      const allFinished = jobs.length > 0 && jobs.every(isJobFinished);
      const allKnownSeen = [...knownIds].every((id) => tracked.has(id));
      if (jobs.length === stableCount) stablePolls += 1;
      else {
        stableCount = jobs.length;
        stablePolls = 0;
      }
      const enough =
        expected !== undefined
          ? jobs.length >= expected
          : jobs.length >= (options.minimumCount ?? 1) && stablePolls >= settlePolls;
      if (allFinished && allKnownSeen && enough) return result(true);

      // Finished jobs no longer change: list only from the oldest unfinished one (the service's
      // clock). A job of unknown creation time keeps the bound; one dated ahead of the service's
      // time now cannot move it past that.
      const unfinished = jobs.filter((job) => !isJobFinished(job));
      const created = unfinished.map((job) => job.creation_time);
      if (
        unfinished.length > 0 &&
        (expected === undefined || jobs.length >= expected) &&
        allKnownSeen &&
        created.every((time) => time !== null)
      ) {
        const latest = Math.floor(serviceNow() / 1000) - 60;
        fromSeconds = Math.max(fromSeconds, Math.min(Math.min(...created) - 1, latest));
      }
      interval = changed ? options.intervalMs : Math.min(maxInterval, Math.round(interval * 1.5));
      await sleep(backoff.next(interval, contended), options.signal);
    }
  } catch (error) {
    if (options.signal?.aborted) return result(false);
    throw error;
  }

  async function listSince(from: number): Promise<void> {
    const page = {
      builds,
      knownIds,
      from,
      pageSize,
      pacer,
      ...(options.signal ? { signal: options.signal } : {}),
    };
    for (const job of await listRunJobs(options.jobs, page)) tracked.set(job.id, job);
  }
}

/** Pages listed per poll at most: 100,000 jobs at the default page size. */
const MAX_PAGES = 1000;

interface ListRunJobsOptions {
  builds: ReadonlySet<string>;
  knownIds: ReadonlySet<string>;
  /** Creation time lower bound, Unix seconds (the service's clock). */
  from: number;
  pageSize: number;
  pacer: RequestPacer;
  signal?: AbortSignal;
}

/**
 * The jobs of the run among those created since `from`, page after page. Bounded: it ends at a
 * short page, at a page that repeats the one before (a service that ignores `skip`), or after
 * `MAX_PAGES`, and checks the signal before each page.
 */
async function listRunJobs(jobs: JobLister, options: ListRunJobsOptions): Promise<Job[]> {
  const found: Job[] = [];
  let previousFirst: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    options.signal?.throwIfAborted();
    await options.pacer.take(options.signal);
    const listed = await jobs.list(
      { full: true, from: options.from, skip: page * options.pageSize, limit: options.pageSize },
      options.signal ? { signal: options.signal } : undefined,
    );
    const first = listed[0]?.id;
    if (page > 0 && first !== undefined && first === previousFirst) break;
    previousFirst = first;
    for (const job of listed) {
      if ((job.build !== null && options.builds.has(job.build)) || options.knownIds.has(job.id))
        found.push(job);
    }
    if (listed.length < options.pageSize) break;
  }
  return found;
}

interface StopRunJobsOptions {
  jobs: JobLister & JobStopper;
  /** Build names whose jobs belong to the run. */
  builds: readonly string[];
  /** Job ids known to belong to the run. */
  jobIds?: readonly string[];
  /** The run's jobs as last seen, if any were. */
  seen?: readonly Job[];
  /** The number of jobs the run has, when known. */
  expectedCount?: number;
  /** Without `expectedCount`: the least number of jobs the run has. */
  minimumCount?: number;
  /** When the run was started, on the service's clock (ms); jobs are listed from then, less `clockSkewMs`. */
  startedAtMs: number;
  clockSkewMs?: number;
  /** Whether to stop the unfinished jobs found; false only finds them, for the report. */
  stop: boolean;
  /**
   * How long to look and stop, from now. It has its own deadline on purpose: the step's signal
   * has usually aborted already when this runs (a cancellation, the `timeout`).
   */
  graceMs: number;
  /** Time between listings while jobs are still missing (default 1 s). */
  intervalMs?: number;
  pageSize?: number;
  maxRequestsPerSecond?: number;
  now?: () => number;
}

interface StopRunJobsResult {
  /** Every job of the run found, as last listed, in the order first seen. */
  jobs: Job[];
  /** Ids of the jobs stopped now. */
  stopped: string[];
  /** Unfinished jobs that could not be stopped, with why. */
  failed: { id: string; error: string }[];
  /** Jobs of the run that did not show within the grace period (from `expectedCount` or `minimumCount`). */
  missing: number;
  /** Why looking ended early, when a listing failed to the end. */
  error?: string;
}

/**
 * Finds the jobs of a run that ended before they did (cancelled, timed out, failed) and stops the
 * unfinished ones. Jobs a run queues may not be listed yet: it lists again, stopping each as it
 * shows, until every expected job was seen and none it found is left unstopped, or `graceMs`
 * passes. Known ids are stopped even if no listing shows them.
 */
export async function stopRunJobs(options: StopRunJobsOptions): Promise<StopRunJobsResult> {
  const deadline = AbortSignal.timeout(Math.max(0, options.graceMs));
  const now = options.now ?? monotonicNow;
  const pacer = new RequestPacer(options.maxRequestsPerSecond ?? 8, now);
  const knownIds = new Set(options.jobIds ?? []);
  const builds = new Set(options.builds);
  const tracked = new Map((options.seen ?? []).map((job) => [job.id, job]));
  const stopped = new Set<string>();
  const failed = new Map<string, string>();
  const from = Math.floor((options.startedAtMs - (options.clockSkewMs ?? 300_000)) / 1000);
  const wanted = options.expectedCount ?? Math.max(options.minimumCount ?? 0, knownIds.size);
  let error: string | undefined;

  const done = (): boolean => {
    const all = new Set([...tracked.keys(), ...knownIds]);
    const left = [...all].filter((id) => !stopped.has(id) && !finished(id));
    return all.size >= wanted && (!options.stop || left.length === 0);
  };
  const finished = (id: string): boolean => {
    const job = tracked.get(id);
    return job !== undefined && isJobFinished(job);
  };

  // Each round lists once and stops what it found: bounded by the deadline, which every wait checks.
  while (!deadline.aborted) {
    try {
      const listOptions = {
        builds,
        knownIds,
        from,
        pageSize: options.pageSize ?? 100,
        pacer,
        signal: deadline,
      };
      for (const job of await listRunJobs(options.jobs, listOptions)) tracked.set(job.id, job);
      error = undefined;
    } catch (listError) {
      if (deadline.aborted) break;
      error = listError instanceof Error ? listError.message : String(listError);
    }
    if (options.stop) {
      const toStop = [...new Set([...tracked.keys(), ...knownIds])].filter(
        (id) => !stopped.has(id) && !finished(id),
      );
      if (toStop.length > 0) {
        const result = await stopJobs(options.jobs, toStop, {
          signal: deadline,
          concurrency: 8,
          maxRequestsPerSecond: options.maxRequestsPerSecond ?? 8,
        });
        for (const id of result.stopped) {
          stopped.add(id);
          failed.delete(id);
        }
        for (const { id, error: why } of result.failed) failed.set(id, why);
      }
    }
    if (done()) break;
    try {
      await abortableSleep(options.intervalMs ?? 1000, deadline);
    } catch {
      break;
    }
  }
  const found = new Set([...tracked.keys(), ...knownIds]).size;
  return {
    jobs: [...tracked.values()],
    stopped: [...stopped],
    failed: [...failed]
      .filter(([id]) => !stopped.has(id) && !finished(id))
      .map(([id, why]) => ({ id, error: why })),
    missing: Math.max(0, wanted - found),
    ...(error !== undefined ? { error } : {}),
  };
}
