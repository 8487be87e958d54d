/**
 * promote-build's `run()` against the emulator, over a build's life: uploaded to qa, it enters
 * qa; it is held before its soak; once soaked with enough sessions and no crash it moves to
 * beta; a crash holds it there, naming max-crashes with the figures; it moves to public once the
 * gate allows; and it is done there. Every step's decision, ring and reasons are in its outputs
 * and summary, a re-run of each step invites no group again, and the journal shows each group
 * invited exactly once.
 */
import { createClient, InputReader, inputSource } from '@sauce-actions/action-kit';
import { testStepDeps } from '@sauce-actions/action-kit/testing';
import { describe, expect, it } from 'vitest';
import { readInputs } from '../src/inputs.ts';
import { run } from '../src/run.ts';
import { HOUR, invitesOf, promoteLab, route, type PromoteStep } from './promote-lab.ts';

const lab = promoteLab();
const RINGS = {
  rings: 'qa, beta, public',
  soak: '24h',
  'min-sessions': '20',
  'max-crashes': '0',
  notify: 'true',
};

describe("a build's life through qa, beta and public", () => {
  let build = { projectId: '', buildId: '' };
  const steps: PromoteStep[] = [];
  const promote = async (extra: Record<string, string> = {}) => {
    const step = await lab.step({
      ...RINGS,
      'project-id': build.projectId,
      'build-id': build.buildId,
      ...extra,
    });
    expect(step.result.failure, step.result.failure?.message).toBeUndefined();
    steps.push(step);
    return step;
  };
  const outputs = (step: PromoteStep) => ({
    decision: step.result.outputs.decision,
    ring: step.result.outputs.ring,
  });

  it('uploaded to qa, it enters qa, which it has already: recorded, not invited again', async () => {
    build = await lab.upload(['qa'], ['release']);
    const step = await promote();
    expect(outputs(step)).toEqual({ decision: 'promoted', ring: 'qa' });
    expect(step.result.outputs.reasons).toBe('The build is in no ring yet: it enters the first, qa.');
    expect(invitesOf(step.requests, build.buildId)).toEqual([]);
    expect(step.summary).toContain(`Build ${build.buildId}: promoted to qa`);
  });

  it('held before its soak, saying until when; a re-run the same', async () => {
    lab.advance(2 * HOUR);
    for (let run = 0; run < 2; run += 1) {
      const step = await promote();
      expect(outputs(step)).toEqual({ decision: 'held', ring: 'qa' });
      const [soak, sessions] = step.result.outputs.reasons.split('\n');
      expect(soak).toMatch(/^soak: in qa for 2h of 24h, until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\.$/);
      expect(sessions).toBe('min-sessions: 0 sessions in qa; beta needs at least 20.');
      // Three reads: the groups, the build, the feedbacks.
      expect(step.requests.map(route)).toEqual([
        'GET /api/1/testers/groups',
        'GET /api/1/projects/N/builds/N',
        'GET /api/1/feedbacks/',
      ]);
      expect(step.summary).toContain('Soak left');
    }
  });

  it('soaked with enough sessions and no crash: promoted to beta, invited once; a re-run is held', async () => {
    lab.advance(23 * HOUR);
    await lab.counters(build.buildId, { sessions: 25 });
    const step = await promote();
    expect(outputs(step)).toEqual({ decision: 'promoted', ring: 'beta' });
    expect(step.result.outputs.reasons).toMatch(
      /sessions 25 \(min-sessions at least 20\), crashes 0 \(max-crashes at most 0\): it moves to beta\.$/,
    );
    const invites = invitesOf(step.requests, build.buildId);
    expect(invites).toHaveLength(1);
    // The three reads, then the claim, its reading back, the invitation and the record.
    expect(step.requests.map(route)).toEqual([
      'GET /api/1/testers/groups',
      'GET /api/1/projects/N/builds/N',
      'GET /api/1/feedbacks/',
      'PATCH /api/1/projects/N/builds/N/',
      'GET /api/1/projects/N/builds/N',
      'POST /api/1/projects/N/builds/N/invites/',
      'PATCH /api/1/projects/N/builds/N/',
    ]);
    expect(step.summary).toMatch(
      /<td>min-sessions<\/td><td>at least 20<\/td><td>25<\/td><td>✅ passes<\/td>/,
    );
    const again = await promote();
    expect(outputs(again)).toEqual({ decision: 'held', ring: 'beta' });
    expect(invitesOf(again.requests, build.buildId)).toEqual([]);
  });

  it('a crash in beta holds it, naming max-crashes and the figures', async () => {
    lab.advance(25 * HOUR);
    // Sessions count from beta's start: 25 were before it.
    await lab.counters(build.buildId, { sessions: 60, crashes: 1 });
    const step = await promote();
    expect(outputs(step)).toEqual({ decision: 'held', ring: 'beta' });
    expect(step.result.outputs.reasons).toBe('max-crashes: 1 crashes in beta; public needs at most 0.');
    expect(step.summary).toMatch(/<td>max-crashes<\/td><td>at most 0<\/td><td>1<\/td><td>❌ holds<\/td>/);
    expect(step.summary).toMatch(/<td>min-sessions<\/td><td>at least 20<\/td><td>35<\/td>/);
  });

  it('promoted to public once the gate allows its crash, then done there', async () => {
    const step = await promote({ 'max-crashes': '1' });
    expect(outputs(step)).toEqual({ decision: 'promoted', ring: 'public' });
    lab.advance(48 * HOUR);
    const done = await promote({ 'max-crashes': '1' });
    expect(outputs(done)).toEqual({ decision: 'done', ring: 'public' });
    expect(done.result.outputs.reasons).toMatch(/^The build is in the last ring, public, since /);
    expect(done.requests.filter((entry) => entry.method !== 'GET')).toEqual([]);
  });

  it('invited beta and public exactly once each over the whole life, with emails and the evidence', () => {
    const invites = steps.flatMap((step) => invitesOf(step.requests, build.buildId));
    expect(invites).toHaveLength(2);
    // What the invitations said, from the emulator's audit trail.
    const invited = lab
      .emulator()
      .context.mobile.data.audits.filter(
        (entry) => entry.actionType === 1200 && String(entry.actionData.buildId) === build.buildId,
      )
      .map((entry) => entry.actionData as { groups: string[]; notify: boolean; comment: string });
    expect(invited.map((entry) => entry.groups)).toEqual([['beta'], ['public']]);
    for (const entry of invited) {
      expect(entry.notify).toBe(true);
      expect(entry.comment).toMatch(/^Promoted by sauce-actions: In (qa|beta) since /);
    }
  });
});

describe('a build that is not there', () => {
  it('is refused, pointing at the ids, with its build id in the outputs', async () => {
    const { projectId } = await lab.upload(['qa']);
    const inputs = readInputs(
      new InputReader(
        inputSource(
          {
            'api-url': lab.emulator().url,
            'api-key': 'demo-api-key',
            email: 'demo@example.com',
            'project-id': projectId,
            'build-id': '999999',
            rings: 'qa',
          },
          { env: {} },
        ),
      ),
    );
    const deps = testStepDeps();
    const client = createClient(inputs.connection, deps.logger);
    try {
      const result = await run(inputs, { ...deps, client });
      expect(result.failure?.kind).toBe('refused');
      expect(result.failure?.message).toMatch(
        /^Build 999999 of project \d+ was not found, so nothing was promoted: check `project-id` and `build-id`/,
      );
      expect(result.outputs).toEqual({ decision: '', ring: '', reasons: '', 'build-id': '999999' });
    } finally {
      await client.close();
    }
  });
});
