/**
 * Follows the automation jobs of a run until every one has finished, at a cost that grows with
 * the run's own unfinished jobs, not with jobs × polls nor with what else the account runs:
 *
 * - Each poll reads a window of creation times (`job-window.ts`: pages as wide as the service
 *   serves). `from` starts at the run's start on the service's clock (its `Date` header,
 *   `client.serviceClock`) less a margin, then moves up to the oldest job still unfinished (by
 *   the jobs' own creation times): finished jobs stop costing. Once every job of the run was
 *   seen, `to` closes the window at the newest of them: other pipelines' later jobs cost nothing.
 *   The runner's clock plays no part.
 * - When the run's jobs are known by id (case runs answer them) and fewer are left unfinished
 *   than the window took pages the last time, they are read one by one instead.
 * - The gaps between polls follow `poll-schedule.ts`: growing while no job ends, back down when
 *   one is expected to, and spread over a matrix's shards. A poll whose requests met contention
 *   for the account's rate budget (a 429, few requests left) waits longer, jittered.
 * - Requests are spaced to stay under `maxRequestsPerSecond`; the client's retry rides out 429
 *   (with Retry-After) and 5xx answers of these safe GETs, and a poll whose listing still fails
 *   is told and ridden out (`maxFailedPolls` in a row): the next poll lists again.
 * - Done when the expected number of jobs is seen and all are finished; when the number is not
 *   known, when at least `minimumCount` are seen, all finished, and the count has not grown for
 *   `settlePolls` polls.
 * - Bounded: the wait ends when `signal` aborts (every action passes its step's deadline).
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
} from '@sauce-actions/api';
import { isJobFinished, isKnownJobStatus, unknownStatusWarning } from './job-status.ts';
import { listRunJobs, runMatcher, START_MARGIN_MS, type JobLister, type JobWindow } from './job-window.ts';
import { FailedListings } from './listing-failures.ts';
import { nextExpectedEndInMs, nextPollGap, type PollPace } from './poll-schedule.ts';
import type { RequestPacer } from '../step/request-pacer.ts';

export { runMatcher, START_MARGIN_MS, type JobLister } from './job-window.ts';
export { stopJobs, type JobStopper } from './job-stopper.ts';
export { stopRunJobs } from './run-stopper.ts';

/** A lister that can also read one job by id. */
export interface JobReader extends JobLister {
  get?(jobId: string, params?: object, options?: CallOptions): Promise<Job>;
}

interface FollowJobsOptions {
  jobs: JobReader;
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
  /** Margin subtracted from `startedAtMs` (default `START_MARGIN_MS`). */
  clockSkewMs?: number;
  /** The service's time now (ms; default this machine's): no window starts after it. */
  serviceNow?: () => number;
  /** Polls in a row whose listing failed (after the client's retries) that are ridden out (default 5). */
  maxFailedPolls?: number;
  intervalMs: number;
  /** Upper bound of the gap grown while no job ends (default `MAX_POLL_GAP_MS`). */
  maxIntervalMs?: number;
  /** The shards of the matrix this step is one of: they share the polling of the account. */
  shards?: number;
  /** Upper bound of the wait grown while the account is contended (default 4 × interval, at most 2 min). */
  maxContendedIntervalMs?: number;
  /** Jobs asked per listed page (tests; default the widest the service serves). */
  pageSize?: number;
  /** The step's pacer: the follower's requests take their turns with the step's others. */
  pacer: RequestPacer;
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
  const { pacer } = options;
  const firstTurn = pacer.count;
  const isOfRun = runMatcher(options.builds, options.jobIds ?? []);
  const knownIds = new Set(options.jobIds ?? []);
  const expected = options.expectedCount ?? (knownIds.size > 0 ? knownIds.size : undefined);
  const settlePolls = options.settlePolls ?? 2;
  const pace: PollPace = {
    baseMs: options.intervalMs,
    ...(options.maxIntervalMs !== undefined ? { maxMs: options.maxIntervalMs } : {}),
    ...(options.shards !== undefined ? { shards: options.shards } : {}),
  };
  const tracked = new Map<string, Job>();
  const window: JobWindow = {
    from: Math.floor((options.startedAtMs - (options.clockSkewMs ?? START_MARGIN_MS)) / 1000),
  };
  const backoff = new ContentionBackoff(
    options.maxContendedIntervalMs ?? Math.min(120_000, options.intervalMs * 4),
    options.random,
  );
  let gap: number | undefined;
  let lastSignature = '';
  let finishedBefore = 0;
  let stableCount = -1;
  let stablePolls = 0;
  let polls = 0;
  /** Pages the last listing of the window took: what reading the unfinished jobs by id is weighed against. */
  let windowPages = Infinity;
  const failures = new FailedListings(options.maxFailedPolls ?? 5, options.warn);
  const warned = new Set<string>();

  const result = (complete: boolean): FollowResult => ({
    jobs: [...tracked.values()],
    complete,
    polls,
    requests: pacer.count - firstTurn,
    elapsedMs: now() - started,
  });

  try {
    for (;;) {
      options.signal?.throwIfAborted();
      polls += 1;
      let contention: ContentionRecord;
      try {
        ({ contention } = await recordingContention(() => readRunJobs()));
        failures.succeeded();
      } catch (error) {
        failures.rideOut(error, options.signal);
        gap = nextPollGap(pace, { ...(gap !== undefined ? { lastGapMs: gap } : {}), ended: false });
        await sleep(gap, options.signal);
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
        requests: pacer.count - firstTurn,
        elapsedMs: now() - started,
        changed,
        contended,
      });

      const finished = jobs.filter(isJobFinished).length;
      const allFinished = jobs.length > 0 && finished === jobs.length;
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

      narrowWindow(jobs, allKnownSeen && expected !== undefined && jobs.length >= expected);
      const nowSeconds = Math.floor(serviceNow() / 1000);
      gap = nextPollGap(pace, {
        ...(gap !== undefined ? { lastGapMs: gap } : {}),
        ended: finished > finishedBefore,
        nextEndInMs: nextExpectedEndInMs(jobs, nowSeconds),
        elapsedMs: now() - started,
      });
      finishedBefore = finished;
      await sleep(backoff.next(gap, contended), options.signal);
    }
  } catch (error) {
    if (options.signal?.aborted) return result(false);
    throw error;
  }

  /**
   * Finished jobs no longer change: the window starts at the oldest unfinished one (the service's
   * clock). A job of unknown creation time keeps the bounds; one dated ahead of the service's time
   * now cannot move `from` past that. With every job of the run seen, it ends at the newest.
   */
  function narrowWindow(jobs: readonly Job[], allSeen: boolean): void {
    const unfinished = jobs.filter((job) => !isJobFinished(job));
    if (!allSeen || unfinished.length === 0) return;
    const created = jobs.map((job) => job.creation_time);
    if (created.some((time) => time === null)) return;
    const latest = Math.floor(serviceNow() / 1000) - 60;
    const oldestUnfinished = Math.min(...unfinished.map((job) => job.creation_time as number));
    window.from = Math.max(window.from, Math.min(oldestUnfinished - 1, latest));
    window.to = Math.max(...(created as number[])) + 1;
  }

  /** One poll's reading: the window, or the unfinished jobs by id where that takes fewer requests. */
  async function readRunJobs(): Promise<void> {
    const signalOption = options.signal ? { signal: options.signal } : undefined;
    const unfinished = [...tracked.values()].filter((job) => !isJobFinished(job)).map((job) => job.id);
    const allKnownSeen = knownIds.size > 0 && [...knownIds].every((id) => tracked.has(id));
    const get = options.jobs.get?.bind(options.jobs);
    if (get && allKnownSeen && unfinished.length < windowPages) {
      try {
        for (const id of unfinished) {
          await pacer.take(options.signal);
          tracked.set(id, await get(id, {}, signalOption));
        }
        return;
      } catch (error) {
        // A job that cannot be read alone (gone, refused) is read in the window again.
        if (options.signal?.aborted) throw error;
        windowPages = Infinity;
      }
    }
    const listed = await listRunJobs(options.jobs, window, isOfRun, {
      pacer,
      signal: options.signal,
      ...(options.pageSize !== undefined ? { width: options.pageSize } : {}),
    });
    windowPages = listed.pages;
    for (const job of listed.jobs) tracked.set(job.id, job);
  }
}
