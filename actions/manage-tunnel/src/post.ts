/** The post step: runs after the job's steps, whatever their outcome, to stop what the step left. */
import {
  type ActionResult,
  type PostDefinition,
  type StepDeps,
  type StepState,
} from '@sauce-actions/action-kit';
import { cleanUp } from './cleanup.ts';
import { readPostInputs, type PostInputs } from './inputs.ts';
import { cleanupSummary } from './report.ts';
import { hasCleanup, parseCleanup, STATE_KEY } from './state.ts';
import type { TunnelApi } from './tunnels.ts';

/** Time Sauce Connect has to shut its tunnel down after SIGINT before it is killed. */
const STOP_GRACE_MS = 20_000;

interface PostDeps extends Pick<
  StepDeps,
  'logger' | 'signal' | 'clock' | 'state' | 'artifacts' | 'workflow'
> {
  client: { automation: { tunnels: Pick<TunnelApi, 'get' | 'delete'> } };
}

export const post = {
  title: 'Manage tunnel: cleanup',
  hasLeftRunning: (state: StepState): boolean => hasCleanup(parseCleanup(state.get(STATE_KEY))),
  readInputs: readPostInputs,
  run: runPost,
} satisfies PostDefinition<PostInputs>;

export async function runPost(inputs: PostInputs, deps: PostDeps): Promise<ActionResult> {
  const state = parseCleanup(deps.state.get(STATE_KEY));
  const report = await cleanUp(
    state,
    { ...deps, tunnels: deps.client.automation.tunnels },
    STOP_GRACE_MS,
    inputs.retentionDays,
  );
  const [first] = report.failed;
  return {
    outputs: {},
    summary: cleanupSummary(report),
    annotations: [],
    ...(first
      ? {
          failure: {
            kind: first.failure.kind,
            message: `Could not delete ${report.failed.length} tunnel(s) the step had started or waited for (${report.failed.map((f) => f.id).join(', ')}): ${first.failure.message}`,
          },
        }
      : {}),
  };
}
