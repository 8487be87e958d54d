/**
 * Follows the automation jobs of a run until every one has finished, with a cost that does not
 * grow with jobs × polls: each poll lists whole jobs (`full=true`) created since the run started,
 * page by page, and keeps those of the run's builds, instead of one request per job per poll.
 *
 * - The lower bound `from` starts at the run's start less a margin for clock skew, then moves up
 *   to the oldest job still unfinished (by the service's own clock): finished jobs stop costing.
 * - Requests are spaced to stay under `maxRequestsPerSecond`; the client's retry rides out 429
 *   (with Retry-After) and 5xx answers of these safe GETs.
 * - The interval grows while nothing changes, and goes back to the start value when something does.
 * - Done when the expected number of jobs is seen and all are finished; when the number is not
 *   known, when at least `minimumCount` are seen, all finished, and the count has not grown for
 *   `settlePolls` polls.
 */
import { sleep as abortableSleep, type CallOptions, type Job, type ListJobsParams } from '@sauce-actions/api';
import type { ReportedJobStatus } from './job-report.ts';

export interface JobLister {
  list(params: ListJobsParams & { full: true }, options?: CallOptions): Promise<Job[]>;
}

export interface JobStopper {
  stop(jobId: string, params?: object, options?: CallOptions): Promise<unknown>;
}

export interface FollowJobsOptions {
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
  /** When the run was started (ms, the runner's clock). */
  startedAtMs: number;
  /** Margin subtracted from `startedAtMs` for clock skew between runner and service (default 5 min). */
  clockSkewMs?: number;
  intervalMs: number;
  /** Upper bound of the interval grown while nothing changes (default 6 × interval, at most 60 s). */
  maxIntervalMs?: number;
  /** Jobs per listed page (default 100, the service's default). */
  pageSize?: number;
  /** Requests started per second at most (default 5: half the documented limit, leaving room for others). */
  maxRequestsPerSecond?: number;
  signal?: AbortSignal;
  onPoll?: (poll: FollowProgress) => void;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface FollowProgress {
  jobs: readonly Job[];
  poll: number;
  requests: number;
  elapsedMs: number;
  /** Whether any job appeared or changed status since the last poll. */
  changed: boolean;
}

export interface FollowResult {
  /** The run's jobs as last seen, in the order they were first seen (oldest first). */
  jobs: Job[];
  /** True when every expected job was seen finished; false when the signal stopped the wait. */
  complete: boolean;
  polls: number;
  requests: number;
  elapsedMs: number;
}

const FINISHED = new Set(['complete', 'error', 'passed', 'failed']);

export function isJobFinished(job: Pick<Job, 'status'>): boolean {
  return FINISHED.has(String(job.status).toLowerCase());
}

/** The report status of a job; `stopped` for unfinished jobs this run stopped. */
export function reportedStatus(job: Job, stoppedIds: ReadonlySet<string> = new Set()): ReportedJobStatus {
  const status = String(job.status).toLowerCase();
  if (stoppedIds.has(job.id) && (status === 'error' || !FINISHED.has(status))) return 'stopped';
  if (status === 'passed') return 'passed';
  if (status === 'failed') return 'failed';
  if (status === 'error') return 'error';
  if (status === 'complete') {
    if (job.passed === true || job.consolidated_status === 'passed') return 'passed';
    // A finished virtual-device job passed only when `passed` is true.
    return 'failed';
  }
  if (status === 'in progress' || status === 'running') return 'running';
  return 'queued';
}

/** Paces request starts to a rate, shared by listing and stopping. */
export class RequestPacer {
  readonly #gapMs: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  #next = 0;
  count = 0;

  constructor(perSecond: number, now: () => number = Date.now, sleep = abortableSleep) {
    this.#gapMs = perSecond > 0 ? 1000 / perSecond : 0;
    this.#now = now;
    this.#sleep = sleep;
  }

  async take(signal?: AbortSignal): Promise<void> {
    const at = this.#now();
    const start = Math.max(at, this.#next);
    this.#next = start + this.#gapMs;
    this.count += 1;
    if (start > at) await this.#sleep(start - at, signal);
  }
}

export async function followJobs(options: FollowJobsOptions): Promise<FollowResult> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const started = now();
  const pageSize = options.pageSize ?? 100;
  const pacer = new RequestPacer(options.maxRequestsPerSecond ?? 5, now, sleep);
  const builds = new Set(options.builds);
  const knownIds = new Set(options.jobIds ?? []);
  const expected = options.expectedCount ?? (knownIds.size > 0 ? knownIds.size : undefined);
  const settlePolls = options.settlePolls ?? 2;
  const maxInterval = options.maxIntervalMs ?? Math.min(60_000, options.intervalMs * 6);
  const tracked = new Map<string, Job>();
  let fromSeconds = Math.floor((options.startedAtMs - (options.clockSkewMs ?? 300_000)) / 1000);
  let interval = options.intervalMs;
  let lastSignature = '';
  let stableCount = -1;
  let stablePolls = 0;
  let polls = 0;

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
      await listSince(fromSeconds);

      const jobs = [...tracked.values()];
      const signature = jobs.map((job) => `${job.id}:${job.status}:${String(job.passed)}`).join(',');
      const changed = signature !== lastSignature;
      lastSignature = signature;
      options.onPoll?.({ jobs, poll: polls, requests: pacer.count, elapsedMs: now() - started, changed });

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

      // Finished jobs no longer change: list only from the oldest unfinished one (the service's clock).
      const unfinished = jobs.filter((job) => !isJobFinished(job));
      if (unfinished.length > 0 && (expected === undefined || jobs.length >= expected) && allKnownSeen) {
        const oldest = Math.min(...unfinished.map((job) => job.creation_time));
        if (Number.isFinite(oldest)) fromSeconds = Math.max(fromSeconds, oldest - 1);
      }
      interval = changed ? options.intervalMs : Math.min(maxInterval, Math.round(interval * 1.5));
      await sleep(interval, options.signal);
    }
  } catch (error) {
    if (options.signal?.aborted) return result(false);
    throw error;
  }

  async function listSince(from: number): Promise<void> {
    for (let skip = 0; ; skip += pageSize) {
      await pacer.take(options.signal);
      const page = await options.jobs.list(
        { full: true, from, skip, limit: pageSize },
        options.signal ? { signal: options.signal } : undefined,
      );
      for (const job of page) {
        if ((job.build !== null && builds.has(job.build)) || knownIds.has(job.id)) tracked.set(job.id, job);
      }
      if (page.length < pageSize) return;
    }
  }
}

/** Stops jobs, a few at a time and paced; each failure is reported, none stops the others. */
export async function stopJobs(
  jobs: JobStopper,
  ids: readonly string[],
  options: { signal?: AbortSignal; concurrency?: number; maxRequestsPerSecond?: number } = {},
): Promise<{ stopped: string[]; failed: { id: string; error: string }[] }> {
  const pacer = new RequestPacer(options.maxRequestsPerSecond ?? 5);
  const stopped: string[] = [];
  const failed: { id: string; error: string }[] = [];
  const queue = [...ids];
  const worker = async (): Promise<void> => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      try {
        await pacer.take(options.signal);
        await jobs.stop(id, {}, options.signal ? { signal: options.signal } : undefined);
        stopped.push(id);
      } catch (error) {
        failed.push({ id, error: error instanceof Error ? error.message : String(error) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 4, ids.length) }, worker));
  return { stopped, failed };
}
