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
import type { MobileClient } from '@sauce-actions/api';
import type { Decision } from './decision.ts';
import { claimMetadata, recordChanges, standingOf, type BuildStanding, type Claim } from './ring-record.ts';

/** A claim younger than this is another step's promotion under way. */
export const CLAIM_TTL_MS = 10 * 60_000;
/** How long a claim stands before it is read back: longer than two steps' claims take apart. */
export const SETTLE_MS = 2_000;

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
  const claimed = await builds.update(
    target.projectId,
    target.buildId,
    { metadata: claimMetadata(mine) },
    call,
  );
  const groups = Array.isArray(claimed.groups) ? claimed.groups.map(String) : [];
  if (decision.from !== undefined && !groups.includes(decision.from)) {
    await builds.update(target.projectId, target.buildId, { metadata: claimMetadata(undefined) }, call);
    return held(
      `The build's group ${decision.from} was taken away from it since it entered that ring: promote-build stops here. Invite ${decision.from} to the build again to go on.`,
    );
  }
  await deps.clock.sleep(SETTLE_MS, deps.signal);
  const after = standingOf((await builds.get(target.projectId, target.buildId, call)).build);
  if (after.claim?.token !== mine.token) {
    return held(
      'Another step claimed this build at the same moment and promotes it: this step leaves it to that one.',
    );
  }
  if (groups.includes(decision.to)) {
    deps.logger.info(
      `The build has the group ${decision.to} already (an earlier step invited it): it is not invited again.`,
    );
  } else {
    await builds.invite(
      target.projectId,
      target.buildId,
      { groups: [decision.to], comment: target.comment, notify: target.notify },
      call,
    );
    deps.logger.info(
      `Invited ${decision.to} to build ${target.buildId}${target.notify ? ', with emails' : ''}.`,
    );
  }
  const record = { ring: decision.to, sinceMs: nowMs, by: target.by, at: after.counters };
  await builds.update(target.projectId, target.buildId, recordChanges(record, after.tags), call);
  return decision;
}
