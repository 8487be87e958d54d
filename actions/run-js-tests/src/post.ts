/**
 * The post step: the safety net for a main step killed outright (the runner's SIGKILL, a lost
 * runner). It asks the status of the tests the saved state names, for a while since a queued
 * platform gets its job id only when assigned, and stops every job that still runs; a main step
 * that ended on its own cleared the state, and then the host does not even run this.
 */
import type { ActionResult, PostDefinition, StepDeps, StepState } from '@sauce-actions/action-kit';
import {
  connectionInputs,
  stoppedJobsResult,
  warnIfElsewhere,
  type PostInputs,
} from '@sauce-actions/action-kit/test-run/post-step';
import type { AutomationJobs, AutomationJsTests, SauceClient } from '@sauce-actions/api';
import { readInputs } from './inputs.ts';
import { hasJsTestsWork, parseJsTestsState, STATE_KEY } from './state.ts';
import { stopJsTestJobs } from './stop.ts';

/** Time to wait for queued platforms to get a job, and stop them: the post step is not killed as soon. */
export const POST_GRACE_MS = 60_000;

export interface PostDeps extends Pick<StepDeps, 'logger' | 'state'> {
  client: Pick<SauceClient, 'jobUrl'> & {
    automation: { jsTests: Pick<AutomationJsTests, 'getStatus'>; jobs: Pick<AutomationJobs, 'stop'> };
  };
}

export const post = {
  title: 'Run JS tests: cleanup',
  hasWork: (state: StepState): boolean => hasJsTestsWork(parseJsTestsState(state.get(STATE_KEY))),
  readInputs: connectionInputs(readInputs),
  run: runPost,
} satisfies PostDefinition<PostInputs>;

export async function runPost(inputs: PostInputs, deps: PostDeps): Promise<ActionResult> {
  const state = parseJsTestsState(deps.state.get(STATE_KEY));
  if (!hasJsTestsWork(state)) return { outputs: {}, summary: '', annotations: [] };
  warnIfElsewhere(state, inputs.connection, deps.logger);
  deps.logger.info(`The step ended before its JS tests did: stopping their unfinished jobs.`);
  const stopping = await stopJsTestJobs({
    status: deps.client.automation.jsTests,
    jobs: deps.client.automation.jobs,
    ids: state.testIds,
    graceMs: POST_GRACE_MS,
    intervalMs: 2000,
  });
  const stopped = new Set(stopping.stopped);
  const failed = stopping.failed.map(({ jobId, error }) => ({ id: jobId, error }));
  // No status at all: the job ids the step saw are stopped by id.
  if (stopping.answer === undefined) {
    for (const jobId of state.jobIds.filter((id) => !stopped.has(id))) {
      try {
        await deps.client.automation.jobs.stop(jobId, {}, { signal: AbortSignal.timeout(10_000) });
        stopped.add(jobId);
      } catch (error) {
        failed.push({ id: jobId, error: (error as Error).message });
      }
    }
  }
  if (stopping.unassigned.length > 0) {
    deps.logger.warning(
      `${stopping.unassigned.length} platform(s) still had no job assigned after ${POST_GRACE_MS / 1000}s: ${stopping.unassigned.join(', ')}`,
    );
  }
  return stoppedJobsResult({
    title: post.title,
    ended: 'The step ended before its JS tests did',
    stopped: [...stopped],
    failed,
    notes: stopping.unassigned.map(
      (id) =>
        `JS test ${id} had no job assigned after ${POST_GRACE_MS / 1000}s, so nothing could be stopped.`,
    ),
    ...(stopping.answer === undefined && stopping.error !== undefined && stopped.size === 0
      ? {
          notFound: `Could not read the status of the JS tests the step left running: ${stopping.error}. Check the jobs on the Sauce Labs dashboard and stop what still runs.`,
        }
      : {}),
    jobUrl: (id) => deps.client.jobUrl(id),
    logger: deps.logger,
  });
}
