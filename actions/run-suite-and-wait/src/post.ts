/**
 * The post step: the safety net for a main step killed outright (the runner's SIGKILL, a lost
 * runner). It stops the run's jobs that the saved state names and that still run; a main step
 * that ended on its own cleared the state, and then the host does not even run this.
 */
import type { ActionResult, PostDefinition, StepDeps, StepState } from '@sauce-actions/action-kit';
import {
  stopRunJobs,
  type JobLister,
  type JobStopper,
} from '@sauce-actions/action-kit/test-run/job-follower';
import {
  connectionInputs,
  stoppedJobsResult,
  warnIfElsewhere,
  type PostInputs,
} from '@sauce-actions/action-kit/test-run/post-step';
import { readInputs } from './inputs.ts';
import { hasRunWork, parseRunState, STATE_KEY } from './state.ts';

/** Time to find the run's jobs (some may be listed late) and stop them: the post step is not killed as soon. */
export const POST_GRACE_MS = 60_000;

export interface PostDeps extends Pick<StepDeps, 'logger' | 'state'> {
  client: { automation: { jobs: JobLister & JobStopper }; jobUrl(jobId: string): string };
}

export const post = {
  title: 'Run suite and wait: cleanup',
  hasWork: (state: StepState): boolean => hasRunWork(parseRunState(state.get(STATE_KEY))),
  readInputs: connectionInputs(readInputs),
  run: runPost,
} satisfies PostDefinition<PostInputs>;

export async function runPost(inputs: PostInputs, deps: PostDeps): Promise<ActionResult> {
  const state = parseRunState(deps.state.get(STATE_KEY));
  if (!hasRunWork(state)) return { outputs: {}, summary: '', annotations: [] };
  warnIfElsewhere(state, inputs.connection, deps.logger);
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
    graceMs: POST_GRACE_MS,
    intervalMs: 2000,
  });
  return stoppedJobsResult({
    title: post.title,
    ended: `The step ended before its jobs did${where} (${found.jobs.length} job(s) found)`,
    stopped: found.stopped,
    failed: found.failed,
    notes:
      found.missing > 0
        ? [`${found.missing} job(s) the runs queued did not show within ${POST_GRACE_MS / 1000}s.`]
        : [],
    ...(found.error !== undefined && found.jobs.length === 0
      ? {
          notFound: `Could not list the jobs the step left running${where}: ${found.error}. Check the build on the Sauce Labs dashboard and stop what still runs.`,
        }
      : {}),
    jobUrl: (id) => deps.client.jobUrl(id),
    logger: deps.logger,
  });
}
