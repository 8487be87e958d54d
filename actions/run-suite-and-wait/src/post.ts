/**
 * The post step: the safety net for a main step killed outright (the runner's SIGKILL, a lost
 * runner). It stops the run's jobs that the saved state names and that still run; a main step
 * that ended on its own cleared the state, and then the host does not even run this.
 */
import type { StepDeps } from '@sauce-actions/action-kit';
import {
  stopRunJobs,
  type JobLister,
  type JobStopper,
} from '@sauce-actions/action-kit/test-run/job-follower';
import { sauceCleanupStep, type Recorded, type Stopping } from '@sauce-actions/action-kit/test-run/post-step';
import { RUN_RECORD, type RunRecord } from './state.ts';

export interface PostDeps extends Pick<StepDeps, 'logger' | 'state' | 'pacer'> {
  client: { automation: { jobs: JobLister & JobStopper }; jobUrl(jobId: string): string };
}

export const post = sauceCleanupStep('Run suite and wait: cleanup', RUN_RECORD, stopLeftJobs);

export const runPost = post.run;

/** The jobs of the run's builds and ids, found (some may be listed late) and stopped. */
async function stopLeftJobs(state: Recorded<RunRecord>, deps: PostDeps, graceMs: number): Promise<Stopping> {
  const where = state.builds.length > 0 ? ` of build "${state.builds.join('", "')}"` : '';
  deps.logger.info(`The step ended before its jobs did: stopping the unfinished jobs${where}.`);
  const found = await stopRunJobs({
    jobs: deps.client.automation.jobs,
    builds: state.builds,
    jobIds: state.jobIds,
    ...(state.expectedCount !== undefined ? { expectedCount: state.expectedCount } : {}),
    ...(state.minimumCount !== undefined ? { minimumCount: state.minimumCount } : {}),
    startedAtMs: state.startedAtMs,
    stop: true,
    pacer: deps.pacer,
    graceMs,
    intervalMs: 2000,
  });
  return {
    ended: `The step ended before its jobs did${where} (${found.jobs.length} job(s) found)`,
    stopped: found.stopped,
    failed: found.failed,
    notes:
      found.missing > 0
        ? [`${found.missing} job(s) the runs queued did not show within ${graceMs / 1000}s.`]
        : [],
    ...(found.error !== undefined && found.jobs.length === 0
      ? {
          notFound: `Could not list the jobs the step left running${where}: ${found.error}. Check the build on the Sauce Labs dashboard and stop what still runs.`,
        }
      : {}),
  };
}
