/**
 * promote-build against the emulator when steps meet: two steps at once on the same build invite
 * its next ring once; a step killed after inviting leaves a claim that a later step takes over
 * without inviting again; a ring's group taken away from the build stops it; and `dry-run` sends
 * no write at all.
 */
import { createClient } from '@sauce-actions/action-kit';
import { testStepDeps } from '@sauce-actions/action-kit/testing';
import { describe, expect, it } from 'vitest';
import { CancelledError } from '@sauce-actions/action-kit';
import { requestArrives } from '../../../test/e2e/support/lab.ts';
import { addFault, journal } from '../../../test/support/emulators.ts';
import { claimMetadata } from '../src/ring-record.ts';
import { HOUR, invitesOf, isWrite, promoteLab } from './promote-lab.ts';

const lab = promoteLab();
const RINGS = { rings: 'qa, beta, public', soak: '1h' };

/** A build in qa for 2 hours: due for beta. */
async function dueForBeta(): Promise<{ projectId: string; buildId: string }> {
  const build = await lab.upload(['qa']);
  const entered = await lab.step({ ...RINGS, 'project-id': build.projectId, 'build-id': build.buildId });
  expect(entered.result.outputs.ring).toBe('qa');
  lab.advance(2 * HOUR);
  return build;
}

/** The client of the demo account, for what a test does by hand. */
async function byHand<T>(work: (client: ReturnType<typeof createClient>) => Promise<T>): Promise<T> {
  const client = createClient(
    {
      service: 'mobile',
      region: 'us-east-1',
      apiUrl: lab.emulator().url,
      apiKey: 'demo-api-key',
      email: 'demo@example.com',
    },
    testStepDeps().logger,
  );
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}

describe('steps that meet on one build', () => {
  it('two steps at once: beta is invited once; one step promotes, the other is held and says why', async () => {
    const build = await dueForBeta();
    const before = (await journal(lab.emulator())).length;
    const inputs = { ...RINGS, 'project-id': build.projectId, 'build-id': build.buildId };
    const both = await Promise.all([lab.step(inputs), lab.step(inputs)]);
    const requests = (await journal(lab.emulator())).slice(before);
    expect(invitesOf(requests, build.buildId)).toHaveLength(1);
    expect(both.map((step) => step.result.outputs.decision).sort()).toEqual(['held', 'promoted']);
    const held = both.find((step) => step.result.outputs.decision === 'held')!;
    expect(held.result.outputs.reasons).toMatch(/^Another step claimed this build/);
    expect(held.result.outputs.ring).toBe('qa');
    // Both read the same build afterwards: in beta.
    const after = await lab.step({ ...inputs, 'dry-run': 'true' });
    expect(after.result.outputs.ring).toBe('beta');
  });

  it('a step killed after inviting beta: a later step takes its old claim over and records beta without inviting again', async () => {
    const build = await dueForBeta();
    await byHand(async (client) => {
      // What the killed step did: its claim, then the invitation, and nothing after.
      const claim = { to: 'beta', token: 'killed-step', atMs: lab.now() };
      await client.mobile.builds.update(build.projectId, build.buildId, { metadata: claimMetadata(claim) });
      await client.mobile.builds.invite(build.projectId, build.buildId, { groups: ['beta'] });
    });
    const inputs = { ...RINGS, 'project-id': build.projectId, 'build-id': build.buildId };
    const soon = await lab.step(inputs);
    expect(soon.result.outputs.decision).toBe('held');
    expect(soon.result.outputs.reasons).toMatch(/^Another step claimed this build at .* to move it to beta/);
    lab.advance(11 * 60_000);
    const later = await lab.step(inputs);
    expect(later.result.outputs).toMatchObject({ decision: 'promoted', ring: 'beta' });
    expect(invitesOf(later.requests, build.buildId)).toEqual([]);
    expect(later.deps.logger.lines()).toContain(
      'The build has the group beta already (an earlier step invited it): it is not invited again.',
    );
  });

  it("a ring's group taken away from the build stops it there, until the group is back", async () => {
    const build = await dueForBeta();
    await byHand((client) => client.mobile.builds.update(build.projectId, build.buildId, { groups: [] }));
    const inputs = { ...RINGS, 'project-id': build.projectId, 'build-id': build.buildId };
    const stopped = await lab.step(inputs);
    expect(stopped.result.outputs).toMatchObject({ decision: 'held', ring: 'qa' });
    expect(stopped.result.outputs.reasons).toBe(
      "The build's group qa was taken away from it since it entered that ring: promote-build stops here. Invite qa to the build again to go on.",
    );
    expect(invitesOf(stopped.requests, build.buildId)).toEqual([]);
    await byHand((client) => client.mobile.builds.update(build.projectId, build.buildId, { groups: ['qa'] }));
    expect((await lab.step(inputs)).result.outputs.ring).toBe('beta');
  });

  it('cancelled once it claimed the build: the claim is cleared, nothing invited, and the next step promotes', async () => {
    const build = await dueForBeta();
    const inputs = { ...RINGS, 'project-id': build.projectId, 'build-id': build.buildId };
    const since = (await journal(lab.emulator())).length;
    const cancel = new AbortController();
    const running = lab.step(inputs, cancel.signal);
    await requestArrives(lab.emulator().url, 'PATCH', new RegExp(`/builds/${build.buildId}/?$`), since);
    cancel.abort(new CancelledError());
    const cancelled = await running;
    expect(cancelled.result.failure?.kind).toBe('cancelled');
    expect(invitesOf(cancelled.requests, build.buildId)).toEqual([]);
    const metadata = await byHand(
      async (client) => (await client.mobile.builds.get(build.projectId, build.buildId)).build.metadata,
    );
    expect(metadata).toMatchObject({ sauce_ring: 'qa', sauce_ring_claim: '' });
    expect((await lab.step(inputs)).result.outputs).toMatchObject({ decision: 'promoted', ring: 'beta' });
  });

  it('a ring written on the build by hand with a newline and a command: one line wherever it shows', async () => {
    const build = await lab.upload([]);
    await byHand((client) =>
      client.mobile.builds.update(build.projectId, build.buildId, {
        metadata: { sauce_ring: 'qa\n::error::forged', sauce_ring_since: new Date(lab.now()).toISOString() },
      }),
    );
    const step = await lab.step({ ...RINGS, 'project-id': build.projectId, 'build-id': build.buildId });
    expect(step.result.outputs.decision).toBe('held');
    expect(step.result.outputs.reasons).not.toContain('\n');
    for (const line of step.deps.logger.lines()) expect(line).not.toMatch(/^::/m);
    expect(step.summary).not.toMatch(/^::/m);
  });

  it.each([
    [500, 'kept: a later step finds out from the groups', 'held'],
    [403, 'cleared: the invitation surely was not made', 'promoted'],
  ])('an invitation answered %i: the step fails with its outputs, the claim %s', async (status, _, next) => {
    const build = await dueForBeta();
    const inputs = { ...RINGS, 'project-id': build.projectId, 'build-id': build.buildId };
    await addFault(lab.emulator(), {
      method: 'POST',
      path: `/\\/builds\\/${build.buildId}\\/invites\\/?$/`,
      status,
      times: 1,
    });
    const failed = await lab.step(inputs);
    expect(failed.result.failure?.kind).toBe(status >= 500 ? 'service' : 'refused');
    expect(failed.result.outputs['build-id']).toBe(build.buildId);
    // Right after: held by the claim left, or promoted at once where it was cleared.
    const again = await lab.step(inputs);
    expect(again.result.outputs.decision).toBe(next);
    if (next === 'held') {
      lab.advance(11 * 60_000);
      const later = await lab.step(inputs);
      expect(later.result.outputs).toMatchObject({ decision: 'promoted', ring: 'beta' });
      expect(invitesOf(later.requests, build.buildId)).toHaveLength(1);
    } else {
      expect(again.result.outputs.ring).toBe('beta');
      expect(invitesOf(again.requests, build.buildId)).toHaveLength(1);
    }
  });

  it('dry-run decides and reports, and sends no write', async () => {
    const build = await lab.upload([]);
    const inputs = { ...RINGS, 'project-id': build.projectId, 'build-id': build.buildId, 'dry-run': 'true' };
    const step = await lab.step(inputs);
    expect(step.result.outputs).toMatchObject({ decision: 'promoted', ring: 'qa' });
    expect(step.summary).toContain(
      `Build ${build.buildId}: would be promoted to qa (dry run: nothing changed)`,
    );
    expect(step.requests.filter(isWrite)).toEqual([]);
    expect(step.requests.length).toBeGreaterThan(0);
  });
});
