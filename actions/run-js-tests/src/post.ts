/**
 * The post step: the safety net for a main step killed outright (the runner's SIGKILL, a lost
 * runner). It asks the status of the tests the saved state names, for a while since a queued
 * platform gets its job id only when assigned, and stops every job that still runs; a main step
 * that ended on its own cleared the state, and then the host does not even run this.
 */
import type { StepDeps } from '@sauce-actions/action-kit';
import { sauceCleanupStep, type Recorded, type Stopping } from '@sauce-actions/action-kit/test-run/post-step';
import type { AutomationJobs, AutomationJsTests, SauceClient } from '@sauce-actions/api';
import { JS_TESTS_RECORD, type JsTestsRecord } from './state.ts';
import { stopJsTestJobs } from './stop.ts';

export interface PostDeps extends Pick<StepDeps, 'logger' | 'state' | 'pacer'> {
  client: Pick<SauceClient, 'jobUrl'> & {
    automation: { jsTests: Pick<AutomationJsTests, 'getStatus'>; jobs: Pick<AutomationJobs, 'stop'> };
  };
}

export const post = sauceCleanupStep('Run JS tests: cleanup', JS_TESTS_RECORD, stopLeftTests);

export const runPost = post.run;

/** Asks the status of the tests (their jobs, once assigned) and stops every job still running. */
async function stopLeftTests(
  state: Recorded<JsTestsRecord>,
  deps: PostDeps,
  graceMs: number,
): Promise<Stopping> {
  deps.logger.info(`The step ended before its JS tests did: stopping their unfinished jobs.`);
  const stopping = await stopJsTestJobs({
    status: deps.client.automation.jsTests,
    jobs: deps.client.automation.jobs,
    ids: state.testIds,
    graceMs,
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
  const graceSeconds = graceMs / 1000;
  if (stopping.unassigned.length > 0) {
    deps.logger.warning(
      `${stopping.unassigned.length} platform(s) still had no job assigned after ${graceSeconds}s: ${stopping.unassigned.join(', ')}`,
    );
  }
  return {
    ended: 'The step ended before its JS tests did',
    stopped: [...stopped],
    failed,
    notes: stopping.unassigned.map(
      (id) => `JS test ${id} had no job assigned after ${graceSeconds}s, so nothing could be stopped.`,
    ),
    ...(stopping.answer === undefined && stopping.error !== undefined && stopped.size === 0
      ? {
          notFound: `Could not read the status of the JS tests the step left running: ${stopping.error}. Check the jobs on the Sauce Labs dashboard and stop what still runs.`,
        }
      : {}),
  };
}
