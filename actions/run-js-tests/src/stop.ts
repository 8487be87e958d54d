/**
 * Stops the jobs of JS tests that did not finish. A platform's job id shows in the status only
 * once a job is assigned (`job not ready` before), and a queued job would still run: so the
 * status is asked again, for a grace period on a deadline of its own, and each job is stopped as
 * its id shows.
 */
import type { JobStopper } from '@sauce-actions/action-kit/test-run/job-follower';
import {
  jsTestFinished,
  jsTestJobId,
  sleep as abortableSleep,
  type JsTestStatusAnswer,
} from '@sauce-actions/api';
import type { StatusSource } from './wait.ts';

interface StopJsTestsOptions {
  status: StatusSource;
  jobs: JobStopper;
  /** Test ids, one per platform. */
  ids: readonly string[];
  /** The last status answer, if any: its assigned jobs are stopped even if the status then fails. */
  last?: JsTestStatusAnswer;
  /** How long to ask and stop, from now, whatever signal has aborted. */
  graceMs: number;
  /** Time between status checks while jobs are not assigned (default 1 s). */
  intervalMs?: number;
}

export interface StopJsTestsResult {
  /** The last status answer seen. */
  answer: JsTestStatusAnswer | undefined;
  /** Job ids stopped. */
  stopped: string[];
  /** Jobs that could not be stopped, by job id. */
  failed: { jobId: string; error: string }[];
  /** Test ids whose job was not assigned within the grace period, so that nothing could be stopped. */
  unassigned: string[];
  /** The last status failure, when the status could not be read to the end. */
  error?: string;
  /** The grace period it had. */
  graceMs: number;
}

/** Whether an entry of the answer has a job id, and whether it ended (a result, or a completed answer). */
function entryState(
  entry: JsTestStatusAnswer['js tests'][number],
  completed: boolean,
): { jobId?: string; ended: boolean } {
  const jobId = jsTestJobId(entry);
  const ended = entry.result !== null || jsTestFinished(entry, completed);
  return { ...(jobId !== undefined ? { jobId } : {}), ended };
}

export async function stopJsTestJobs(options: StopJsTestsOptions): Promise<StopJsTestsResult> {
  const deadline = AbortSignal.timeout(Math.max(0, options.graceMs));
  const stopped = new Set<string>();
  const failed = new Map<string, string>();
  let answer = options.last;
  let error: string | undefined;
  let unassigned: string[] = [...options.ids];

  // Each round: the status (the last answer when it fails), then a stop for every job assigned and
  // not ended. Bounded by the deadline, which the requests and the wait between rounds obey.
  while (!deadline.aborted) {
    try {
      answer = await options.status.getStatus(options.ids, {}, { signal: deadline });
      error = undefined;
    } catch (statusError) {
      if (deadline.aborted) break;
      error = statusError instanceof Error ? statusError.message : String(statusError);
    }
    const entries = new Map((answer?.['js tests'] ?? []).map((entry) => [entry.id, entry]));
    const toStop: string[] = [];
    unassigned = [];
    for (const id of options.ids) {
      const entry = entries.get(id);
      const state = entry ? entryState(entry, answer?.completed ?? false) : { ended: false };
      if (state.ended) continue;
      if (state.jobId === undefined) unassigned.push(id);
      else if (!stopped.has(state.jobId)) toStop.push(state.jobId);
    }
    const settled = await Promise.allSettled(
      toStop.map((jobId) => options.jobs.stop(jobId, {}, { signal: deadline }).then(() => jobId)),
    );
    settled.forEach((outcome, index) => {
      const jobId = toStop[index] as string;
      if (outcome.status === 'fulfilled') {
        stopped.add(jobId);
        failed.delete(jobId);
      } else {
        failed.set(jobId, outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason));
      }
    });
    if (unassigned.length === 0 && failed.size === 0) break;
    try {
      await abortableSleep(options.intervalMs ?? 1000, deadline);
    } catch {
      break;
    }
  }
  return {
    answer,
    stopped: [...stopped],
    failed: [...failed].map(([jobId, why]) => ({ jobId, error: why })),
    unassigned,
    ...(error !== undefined ? { error } : {}),
    graceMs: options.graceMs,
  };
}
