/**
 * The fault matrix, end to end, on reads: every action's committed bundle, run as the runner runs
 * it (post step included) against an emulator of its own that answers a read with 503 twice, or
 * cuts its connection. Each case checks that the read was asked again until answered, and the step
 * ended as without the fault: the exit code, the outputs, the journal of requests, no duplicate
 * build or run, and no job left queued or running.
 */
import { describe, expect, it } from 'vitest';
import {
  AUDIT,
  CASES,
  expectIdlePost,
  GROUPS,
  INVITE_INPUTS,
  INVITED,
  inviteLab,
  INVITES,
  JOBS,
  JS_INPUTS,
  JS_START,
  JS_STATUS,
  mobileState,
  SHORT_JOBS_MS,
  SMOKE_BUILD,
  step,
  SUITE_GREEN,
  SUITE_RUN,
  SUITES,
  TESTERS,
  TUNNEL_DELETE,
  TUNNEL_INPUTS,
  TUNNELS,
  UPLOAD,
  UPLOAD_INPUTS,
  withWorkspace,
} from '../support/fault-matrix.ts';
import { MOBILE, openLab, requestsTo, SAUCE, statusesOf, type FaultSpec } from '../support/lab.ts';

withWorkspace();

describe.concurrent('503 bursts and cut connections on reads: retried', () => {
  const faults = {
    '503 twice': (method: string, faultPath: string | RegExp): FaultSpec => ({
      method,
      path: faultPath,
      status: 503,
      times: 2,
    }),
    'a cut connection': (method: string, faultPath: string | RegExp): FaultSpec => ({
      method,
      path: faultPath,
      drop: true,
    }),
  };
  const expected = { '503 twice': [503, 503, 200], 'a cut connection': [0, 200] };
  const kinds = Object.keys(faults) as (keyof typeof faults)[];

  it.each(kinds)('upload-build, listing the tester groups: %s', async (kind) => {
    const lab = await openLab();
    await lab.fault(faults[kind]('GET', GROUPS));
    const result = await step(lab, 'upload-build', { ...UPLOAD_INPUTS, email: MOBILE.email, groups: 'qa' });
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs).toMatchObject({ 'build-id': '1', 'project-id': '1' });
    // The groups were checked, not skipped with a warning.
    expect(result.annotations.filter((a) => a.level === 'warning').map((a) => a.message)).not.toContainEqual(
      expect.stringContaining('Could not check the tester groups'),
    );
    const journal = await lab.journal();
    expect(statusesOf(journal, 'GET', GROUPS)).toEqual(expected[kind]);
    expect(statusesOf(journal, 'POST', UPLOAD)).toEqual([200]);
    expect(mobileState(lab).builds).toBe(1);
  });

  it.each(kinds)('invite-testers, listing the tester groups: %s', async (kind) => {
    const lab = await inviteLab();
    await lab.fault(faults[kind]('GET', GROUPS));
    const result = await step(lab, 'invite-testers', INVITE_INPUTS);
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs).toEqual(INVITED);
    const journal = await lab.journal();
    // Listed twice: before creating the group, and after adding the tester.
    expect(statusesOf(journal, 'GET', GROUPS)).toEqual([...expected[kind], 200]);
    for (const target of [GROUPS, TESTERS, INVITES])
      expect(requestsTo(journal, 'POST', target)).toHaveLength(1);
    expect(mobileState(lab).audits(AUDIT.invited)).toBe(1);
  });

  it.each(kinds)(
    'run-suite-and-wait, finding the suite, its cases and listing the jobs: %s',
    async (kind) => {
      const lab = await openLab({ jobDurationMs: SHORT_JOBS_MS });
      await lab.fault(faults[kind]('GET', SUITES), faults[kind]('GET', CASES), faults[kind]('GET', JOBS));
      const result = await step(lab, 'run-suite-and-wait', SUITE_GREEN);
      expect(result.exitCode, result.log).toBe(0);
      expect(result.outputs).toMatchObject({
        'build-name': SMOKE_BUILD,
        total: '3',
        passed: '2',
        failed: '1',
      });
      const journal = await lab.journal();
      for (const target of [SUITES, CASES])
        expect(statusesOf(journal, 'GET', target), target).toEqual(expected[kind]);
      expect(statusesOf(journal, 'GET', JOBS).slice(0, expected[kind].length)).toEqual(expected[kind]);
      expect(statusesOf(journal, 'POST', SUITE_RUN)).toEqual([200]);
      expect(lab.emulator.context.authoring.data.suiteRuns).toHaveLength(1);
      expect(lab.jobs()).toHaveLength(3);
      expect(lab.leftRunning()).toEqual([]);
    },
  );

  it.each(kinds)('run-js-tests, asking the status (a POST that only reads): %s', async (kind) => {
    const lab = await openLab({ jobDurationMs: SHORT_JOBS_MS });
    await lab.fault(faults[kind]('POST', JS_STATUS));
    const result = await step(lab, 'run-js-tests', JS_INPUTS);
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs).toMatchObject({ total: '2', passed: '2', failed: '0' });
    const journal = await lab.journal();
    expect(statusesOf(journal, 'POST', JS_STATUS).slice(0, expected[kind].length)).toEqual(expected[kind]);
    expect(statusesOf(journal, 'POST', JS_START)).toEqual([200]);
    expect(lab.jobs()).toHaveLength(2);
    expect(lab.leftRunning()).toEqual([]);
  });

  it.each(kinds)('manage-tunnel wait, listing the tunnels: %s', async (kind) => {
    const lab = await openLab();
    await lab.fault(faults[kind]('GET', TUNNELS));
    const demo = lab.emulator.context.automation.tunnels
      .all()
      .find((t) => t.tunnel_identifier === 'demo-tunnel');
    const result = await step(lab, 'manage-tunnel', TUNNEL_INPUTS);
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs['tunnel-id']).toBe(demo?.id);
    expect(statusesOf(await lab.journal(), 'GET', TUNNELS)).toEqual(expected[kind]);
    expectIdlePost(result);
  });

  it.each(kinds)('manage-tunnel stop, deleting the tunnel (idempotent): %s', async (kind) => {
    const lab = await openLab();
    const tunnel = lab.emulator.context.automation.tunnels.create({
      owner: 'demo',
      tunnel_identifier: 'ci-tunnel',
    });
    await lab.fault(faults[kind]('DELETE', TUNNEL_DELETE));
    const result = await step(lab, 'manage-tunnel', {
      ...SAUCE,
      operation: 'stop',
      'tunnel-name': 'ci-tunnel',
    });
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs['tunnel-id']).toBe(tunnel.id);
    expect(statusesOf(await lab.journal(), 'DELETE', TUNNEL_DELETE)).toEqual(expected[kind]);
    expect(lab.emulator.context.automation.tunnels.get(tunnel.id)?.status).toBe('terminated');
    expect(
      lab.emulator.context.automation.tunnels.of('demo').filter((t) => t.status === 'terminated'),
    ).toHaveLength(1);
  });
});
