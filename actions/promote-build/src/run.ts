/**
 * One decision a step: the build chosen, the rings checked against the account's groups, where
 * the build stands and what it showed in its ring read, the decision made, and carried out unless
 * `dry-run` (which sends no write).
 */
import { ActionError, describeFailure, type ActionResult, type StepDeps } from '@sauce-actions/action-kit';
import { chosenBuild } from '@sauce-actions/action-kit/services/latest-build';
import { checkTesterGroups, unknownGroupsMessage } from '@sauce-actions/action-kit/services/tester-groups';
import { ApiError, type MobileClient } from '@sauce-actions/api';
import { decide, type Decision } from './decision.ts';
import { readEvidence, type ReadEvidence } from './evidence.ts';
import type { PromoteInputs } from './inputs.ts';
import { promote } from './promotion.ts';
import { promotionOutputs, promotionSummary, type PromoteOutputs } from './report.ts';
import { standingOf, type BuildStanding } from './ring-record.ts';

export interface PromoteDeps extends Pick<StepDeps, 'logger' | 'signal' | 'clock' | 'ci' | 'workflow'> {
  client: {
    mobile: Pick<MobileClient, 'builds' | 'feedbacks' | 'testerGroups'>;
    serviceClock: { now(): number };
  };
}

const NO_OUTPUTS: PromoteOutputs = { decision: '', ring: '', reasons: '', 'build-id': '' };

export async function run(inputs: PromoteInputs, deps: PromoteDeps): Promise<ActionResult<PromoteOutputs>> {
  let buildId = '';
  try {
    buildId = await chosenBuild(inputs, deps, 'nothing was promoted');
    await checkRings(inputs, deps);
    const standing = await buildStanding(inputs.projectId, buildId, deps);
    const evidence = await readEvidence(buildId, standing, inputs.rings, deps);
    const nowMs = deps.client.serviceClock.now();
    const decided = decide(standing, evidence, inputs, nowMs);
    const decision = await carryOut(decided, { inputs, buildId, standing, evidence }, deps);
    const report = {
      projectId: inputs.projectId,
      buildId,
      rings: inputs.rings,
      decision,
      ...(standing.record !== undefined ? { record: standing.record } : {}),
      evidence,
      dryRun: inputs.dryRun,
      nowMs,
    };
    for (const reason of decision.reasons) deps.logger.info(`${decision.decision}: ${reason}`);
    return { outputs: promotionOutputs(report), summary: promotionSummary(report), annotations: [] };
  } catch (error) {
    return {
      outputs: { ...NO_OUTPUTS, 'build-id': buildId },
      summary: '',
      annotations: [],
      failure: describeFailure(error, deps.signal),
    };
  }
}

/** Every ring is a tester group of the account: a typo must not stop a release half-way. */
async function checkRings(inputs: PromoteInputs, deps: PromoteDeps): Promise<void> {
  const check = await checkTesterGroups(deps.client.mobile.testerGroups, inputs.rings, {
    signal: deps.signal,
  });
  if (check.unknown.length > 0) {
    throw new ActionError(
      'refused',
      `rings: ${unknownGroupsMessage(check, 'Each ring is a tester group: fix `rings`, or create the group.')}`,
    );
  }
}

async function buildStanding(projectId: string, buildId: string, deps: PromoteDeps): Promise<BuildStanding> {
  try {
    const { build } = await deps.client.mobile.builds.get(projectId, buildId, { signal: deps.signal });
    return standingOf(build);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw new ActionError(
        'refused',
        `Build ${buildId} of project ${projectId} was not found, so nothing was promoted: check \`project-id\` and \`build-id\` (upload-build's outputs of the same names), and that they belong to the account of the key.`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** The decision carried out: a promotion done (or found held on the way), anything else as it is. */
async function carryOut(
  decision: Decision,
  step: { inputs: PromoteInputs; buildId: string; standing: BuildStanding; evidence: ReadEvidence },
  deps: PromoteDeps,
): Promise<Decision> {
  if (decision.decision !== 'promoted' || decision.to === undefined || step.inputs.dryRun) return decision;
  return promote(
    { ...decision, to: decision.to },
    {
      projectId: step.inputs.projectId,
      buildId: step.buildId,
      standing: step.standing,
      notify: step.inputs.notify,
      by:
        deps.ci.runUrl ??
        (deps.workflow.runNumber !== undefined ? `run ${deps.workflow.runNumber}` : 'promote-build'),
      comment: `Promoted by sauce-actions: ${decision.reasons.join(' ')}`,
    },
    deps,
  );
}
