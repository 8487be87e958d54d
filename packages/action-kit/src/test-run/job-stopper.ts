/** Stopping jobs: a few at a time, paced, each failure told and none stopping the others. */
import type { CallOptions } from '@sauce-actions/api';
import type { RequestPacer } from '../step/request-pacer.ts';

export interface JobStopper {
  stop(jobId: string, params?: object, options?: CallOptions): Promise<unknown>;
}

/** Stops jobs, a few at a time and paced; each failure is reported, none stops the others. */
export async function stopJobs(
  jobs: JobStopper,
  ids: readonly string[],
  options: { pacer: RequestPacer; signal?: AbortSignal; concurrency?: number },
): Promise<{ stopped: string[]; failed: { id: string; error: string }[] }> {
  const stopped: string[] = [];
  const failed: { id: string; error: string }[] = [];
  const queue = [...ids];
  const worker = async (): Promise<void> => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      if (options.signal?.aborted) {
        // No time left: what is still queued is reported, not tried.
        failed.push({ id, error: 'not tried: the time to stop jobs ran out' });
        continue;
      }
      try {
        await options.pacer.take(options.signal);
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
