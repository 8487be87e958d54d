/**
 * A promotion, done so that a re-run, two schedules at once or a step killed half-way never
 * invite a group twice nor skip a ring: the step claims the build (a token in its metadata, whose
 * answer also shows the build's groups), lets a moment pass and reads the claim back, so that of
 * two steps at once only the last to claim goes on; then invites the next ring's group and keeps
 * the new ring on the build, which clears the claim. A claim of another step younger than
 * `CLAIM_TTL_MS` holds the build; an older one was left by a step that died, and is taken over.
 * A group the build has already (a step killed after inviting it) is not invited again.
 */
import { randomUUID } from 'node:crypto';
import type { StepDeps } from '@sauce-actions/action-kit';
import { ApiError, type MobileClient } from '@sauce-actions/api';
import type { Decision } from './decision.ts';
import { claimMetadata, recordChanges, standingOf, type BuildStanding, type Claim } from './ring-record.ts';

/** A claim younger than this is another step's promotion under way. */
export const CLAIM_TTL_MS = 10 * 60_000;
/** How long a claim stands before it is read back: longer than two steps' claims take apart. */
export const SETTLE_MS = 2_000;
/** The clearing of a claim after a cancel: the runner kills the step within seconds. */
const CLEAR_TIMEOUT_MS = 5_000;

export interface PromotionDeps extends Pick<StepDeps, 'logger' | 'signal' | 'clock'> {
  client: {
    mobile: { builds: Pick<MobileClient['builds'], 'get' | 'update' | 'invite'> };
    serviceClock: { now(): number };
  };
}

export interface PromotionTarget {
  projectId: string;
  buildId: string;
  standing: BuildStanding;
  notify: boolean;
  /** Who moves it: the run's address, or the step's words. */
  by: string;
  /** The invitation's comment: the evidence. */
  comment: string;
}

/** The decision as it stands after the promotion: promoted, or held by what it found. */
export async function promote(
  decision: Decision & { to: string },
  target: PromotionTarget,
  deps: PromotionDeps,
): Promise<Decision> {
  const { builds } = deps.client.mobile;
  const call = { signal: deps.signal };
  const held = (reason: string): Decision => ({ ...decision, decision: 'held', reasons: [reason] });
  const { claim } = target.standing;
  const nowMs = deps.client.serviceClock.now();
  if (claim !== undefined && nowMs - claim.atMs < CLAIM_TTL_MS) {
    return held(
      `Another step claimed this build at ${new Date(claim.atMs).toISOString()} to move it to ${claim.to}; it is held until that step is done (a claim older than ${CLAIM_TTL_MS / 60_000} minutes is taken over).`,
    );
  }
  const mine: Claim = { to: decision.to, token: randomUUID(), atMs: nowMs };
  let claimed: Claimed;
  try {
    claimed = await claimBuild(mine, target, deps);
  } catch (error) {
    // Stopped before anything changed but the claim (cancelled, a refusal): the claim goes too,
    // so that no later step waits for it; within a bound, as the runner kills the step soon.
    await clearClaim(target, builds);
    throw error;
  }
  if (claimed.outcome === 'ring-gone') {
    await builds.update(target.projectId, target.buildId, { metadata: claimMetadata(undefined) }, call);
    return held(
      `The build's group ${decision.from} was taken away from it since it entered that ring: promote-build stops here. Invite ${decision.from} to the build again to go on.`,
    );
  }
  if (claimed.outcome === 'taken') {
    return held(
      'Another step claimed this build at the same moment and promotes it: this step leaves it to that one.',
    );
  }
  const { groups, after } = claimed;
  if (groups.includes(decision.to)) {
    deps.logger.info(
      `The build has the group ${decision.to} already (an earlier step invited it): it is not invited again.`,
    );
  } else {
    try {
      await builds.invite(
        target.projectId,
        target.buildId,
        { groups: [decision.to], comment: target.comment, notify: target.notify },
        call,
      );
    } catch (error) {
      // Refused: surely not invited, so the claim goes. Unanswered (a 5xx, a cut, a timeout): it
      // stays, and the step that takes it over finds out from the build's groups.
      const status = error instanceof ApiError ? (error.status ?? 0) : 0;
      if (status >= 400 && status < 500 && status !== 429) {
        await clearClaim(target, deps.client.mobile.builds);
      }
      throw error;
    }
    deps.logger.info(
      `Invited ${decision.to} to build ${target.buildId}${target.notify ? ', with emails' : ''}.`,
    );
  }
  const record = { ring: decision.to, sinceMs: nowMs, by: target.by, at: after.counters };
  await builds.update(target.projectId, target.buildId, recordChanges(record, after.tags), call);
  return decision;
}

type Claimed =
  | { outcome: 'ours'; groups: string[]; after: BuildStanding }
  | { outcome: 'ring-gone' }
  | { outcome: 'taken' };

/**
 * Writes the claim (its answer shows the build's groups: the current ring's must still be there),
 * lets `SETTLE_MS` pass and reads the claim back: ours, unless another step claimed after us.
 */
async function claimBuild(mine: Claim, target: PromotionTarget, deps: PromotionDeps): Promise<Claimed> {
  const { builds } = deps.client.mobile;
  const call = { signal: deps.signal };
  const answer = await builds.update(
    target.projectId,
    target.buildId,
    { metadata: claimMetadata(mine) },
    call,
  );
  const groups = Array.isArray(answer.groups) ? answer.groups.map(String) : [];
  const from = target.standing.record?.ring;
  if (from !== undefined && !groups.includes(from)) return { outcome: 'ring-gone' };
  await deps.clock.sleep(SETTLE_MS, deps.signal);
  const after = standingOf((await builds.get(target.projectId, target.buildId, call)).build);
  return after.claim?.token === mine.token ? { outcome: 'ours', groups, after } : { outcome: 'taken' };
}

/** Clears the step's claim, within a bound of its own (the step may be cancelled); never throws. */
async function clearClaim(
  target: PromotionTarget,
  builds: PromotionDeps['client']['mobile']['builds'],
): Promise<void> {
  const options = { signal: AbortSignal.timeout(CLEAR_TIMEOUT_MS) };
  await builds
    .update(target.projectId, target.buildId, { metadata: claimMetadata(undefined) }, options)
    .catch(() => undefined);
}
