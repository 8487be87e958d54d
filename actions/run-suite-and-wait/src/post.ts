/**
 * The post step: the safety net for a main step killed outright (the runner's SIGKILL, a lost
 * runner). It stops the run's jobs that the saved state names and that still run; a main step
 * that ended on its own cleared the state, and then the host does not even run this.
 */
import {
  SummaryBuilder,
  type ActionResult,
  type PostDefinition,
  type StepDeps,
  type StepState,
} from '@sauce-actions/action-kit';
import { stopRunJobs, type JobLister, type JobStopper } from '@sauce-actions/action-kit/job-follower';
import { readPostInputs, type PostInputs } from './post-inputs.ts';
import { hasRunWork, parseRunState, STATE_KEY } from './state.ts';

/** Time to find the run's jobs (some may be listed late) and stop them: the post step is not killed as soon. */
export const POST_GRACE_MS = 60_000;

export interface PostDeps extends Pick<StepDeps, 'logger' | 'state'> {
  client: { automation: { jobs: JobLister & JobStopper }; jobUrl(jobId: string): string };
}

export const post = {
  title: 'Run suite and wait: cleanup',
  hasWork: (state: StepState): boolean => hasRunWork(parseRunState(state.get(STATE_KEY))),
  readInputs: readPostInputs,
  run: runPost,
} satisfies PostDefinition<PostInputs>;

export async function runPost(inputs: PostInputs, deps: PostDeps): Promise<ActionResult> {
  const state = parseRunState(deps.state.get(STATE_KEY));
  if (!hasRunWork(state)) return { outputs: {}, summary: '', annotations: [] };
  const { connection } = inputs;
  if (state.region !== connection.region || state.apiUrl !== connection.apiUrl) {
    deps.logger.warning(
      `The step ran its jobs on ${state.apiUrl ?? state.region}, but the connection inputs now name ${connection.apiUrl ?? connection.region}: the jobs may not be found.`,
    );
  }
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
  deps.logger.info(
    `Stopped ${found.stopped.length} unfinished job(s)${found.failed.length ? `; ${found.failed.length} could not be stopped` : ''}.`,
  );
  for (const failed of found.failed) deps.logger.warning(`Could not stop job ${failed.id}: ${failed.error}`);

  const summary = new SummaryBuilder()
    .heading('Run suite and wait: cleanup', 3)
    .paragraph(
      `The step ended before its jobs did${where}: of ${found.jobs.length} job(s) found, ${found.stopped.length} unfinished were stopped.`,
    )
    .list([
      ...found.stopped.map((id) => `Stopped job ${id}: ${deps.client.jobUrl(id)}`),
      ...found.failed.map(
        ({ id, error }) => `Could not stop job ${id} (${error}): ${deps.client.jobUrl(id)}`,
      ),
      ...(found.missing > 0
        ? [`${found.missing} job(s) the runs queued did not show within ${POST_GRACE_MS / 1000}s.`]
        : []),
    ])
    .toString();
  const problem =
    found.failed.length > 0
      ? `Could not stop ${found.failed.length} job(s) the step left running (${found.failed.map((f) => f.id).join(', ')}): ${found.failed[0]?.error}. Stop them on the Sauce Labs dashboard.`
      : found.error !== undefined && found.jobs.length === 0
        ? `Could not list the jobs the step left running${where}: ${found.error}. Check the build on the Sauce Labs dashboard and stop what still runs.`
        : undefined;
  return {
    outputs: {},
    summary,
    annotations: [],
    ...(problem !== undefined ? { failure: { kind: 'service', message: problem } } : {}),
  };
}
