/**
 * Finds the jobs of a run that ended before they did (cancelled, timed out, failed) and stops the
 * unfinished ones, on a deadline of its own: the main step's end, and the post step after a kill.
 */
import { sleep as abortableSleep, type Job } from '@sauce-actions/api';
import { isJobFinished } from './job-status.ts';
import { stopJobs, type JobStopper } from './job-stopper.ts';
import { listRunJobs, runMatcher, START_MARGIN_MS, type JobLister } from './job-window.ts';
import type { RequestPacer } from '../step/request-pacer.ts';

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
  /** Jobs asked per listed page (tests; default the widest the service serves). */
  pageSize?: number;
  /** The step's pacer: stopping takes its turns with the step's other requests. */
  pacer: RequestPacer;
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
  const { pacer } = options;
  const knownIds = new Set(options.jobIds ?? []);
  const isOfRun = runMatcher(options.builds, options.jobIds ?? []);
  const tracked = new Map((options.seen ?? []).map((job) => [job.id, job]));
  const stopped = new Set<string>();
  const failed = new Map<string, string>();
  const from = Math.floor((options.startedAtMs - (options.clockSkewMs ?? START_MARGIN_MS)) / 1000);
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
      const pages = {
        pacer,
        signal: deadline,
        ...(options.pageSize !== undefined ? { width: options.pageSize } : {}),
      };
      const listed = await listRunJobs(options.jobs, { from }, isOfRun, pages);
      for (const job of listed.jobs) tracked.set(job.id, job);
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
          pacer,
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
