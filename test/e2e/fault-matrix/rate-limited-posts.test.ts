/**
 * The fault matrix, end to end, on rate limits: every action's committed bundle, run as the runner
 * runs it (post step included) against an emulator of its own that answers each of its POSTs 429
 * once. Each case checks that the step waited as the service asked and sent the POST again, once:
 * the exit code, the outputs, and what the service was left with (one build, group, invitation or
 * run, and no job left queued or running).
 */
import { describe, expect, it } from 'vitest';
import {
  AUDIT,
  expectIdlePost,
  expectOutputs,
  GROUPS,
  INVITE_INPUTS,
  INVITED,
  inviteLab,
  INVITES,
  jobIdsOf,
  JS_INPUTS,
  JS_START,
  mobileState,
  SHORT_JOBS_MS,
  SMOKE_BUILD,
  sortedIds,
  step,
  SUITE_GREEN,
  SUITE_RUN,
  TESTERS,
  UPLOAD,
  UPLOAD_INPUTS,
  withWorkspace,
  type ExpectedOutputs,
} from '../support/fault-matrix.ts';
import {
  openLab,
  statusesOf,
  type ActionName,
  type FaultSpec,
  type Lab,
  type StepRun,
} from '../support/lab.ts';

withWorkspace();

describe.concurrent('429 on each POST: waited out, sent again, done once', () => {
  const rows: {
    name: string;
    action: ActionName;
    lab: () => Promise<Lab>;
    inputs: Record<string, string>;
    /** The POSTs answered 429 once: each is sent again, once. */
    sentTwice: string[];
    /** The answer the second time, when it is always the same. */
    answered?: number;
    outputs: ExpectedOutputs;
    /** What the service is left with, and what the step said. */
    then: (lab: Lab, result: StepRun) => void;
  }[] = [
    {
      name: 'upload-build',
      action: 'upload-build',
      lab: () => openLab(),
      inputs: UPLOAD_INPUTS,
      sentTwice: [UPLOAD],
      answered: 200,
      outputs: {
        including: { 'build-id': '1', 'project-id': '1', 'app-name': 'Demo Shop', 'app-version': '1.4.2' },
      },
      then: (lab, result) => {
        expect(result.log).toContain(
          'uploadBuild: 429 Too Many Requests; retrying in 1.0s, as the service asked',
        );
        expect(mobileState(lab).builds).toBe(1);
      },
    },
    {
      name: 'invite-testers: creating the group, adding the tester, inviting',
      action: 'invite-testers',
      lab: inviteLab,
      inputs: INVITE_INPUTS,
      sentTwice: [GROUPS, TESTERS, INVITES],
      outputs: { exactly: INVITED },
      then: (lab) => {
        const state = mobileState(lab);
        expect(state.groups('launch')).toBe(1);
        expect(state.audits(AUDIT.added)).toBe(1);
        expect(state.audits(AUDIT.invited)).toBe(1);
      },
    },
    {
      name: 'run-suite-and-wait: the suite run',
      action: 'run-suite-and-wait',
      lab: () => openLab({ jobDurationMs: SHORT_JOBS_MS }),
      inputs: SUITE_GREEN,
      sentTwice: [SUITE_RUN],
      answered: 200,
      outputs: { including: { 'build-name': SMOKE_BUILD, total: '3', passed: '2', failed: '1' } },
      then: (lab, result) => {
        expect(lab.emulator.context.authoring.data.suiteRuns).toHaveLength(1);
        expect(lab.jobs()).toHaveLength(3);
        expect(sortedIds(result.outputs['job-ids'])).toEqual(jobIdsOf(lab));
        expect(lab.leftRunning()).toEqual([]);
        expectIdlePost(result);
      },
    },
    {
      name: 'run-js-tests: the start',
      action: 'run-js-tests',
      lab: () => openLab({ jobDurationMs: SHORT_JOBS_MS }),
      inputs: JS_INPUTS,
      sentTwice: [JS_START],
      answered: 200,
      outputs: { including: { total: '2', passed: '2', failed: '0' } },
      then: (lab, result) => {
        expect(Object.keys(lab.emulator.context.automation.data.jsTests)).toHaveLength(2);
        expect(sortedIds(result.outputs['job-ids'])).toEqual(jobIdsOf(lab));
        expect(lab.leftRunning()).toEqual([]);
        expectIdlePost(result);
      },
    },
  ];

  it.each(rows)('$name', async ({ action, lab: open, inputs, sentTwice, answered, outputs, then }) => {
    const lab = await open();
    await lab.fault(
      ...sentTwice.map((target): FaultSpec => ({ method: 'POST', path: target, status: 429, retryAfter: 1 })),
    );
    const result = await step(lab, action, inputs);
    expect(result.exitCode, result.log).toBe(0);
    expectOutputs(result, outputs);
    const journal = await lab.journal();
    for (const target of sentTwice) {
      const statuses = statusesOf(journal, 'POST', target);
      expect(statuses, target).toHaveLength(2);
      expect(statuses[0], target).toBe(429);
      if (answered !== undefined) expect(statuses[1], target).toBe(answered);
      expect(statuses[1], target).toBeGreaterThanOrEqual(200);
      expect(statuses[1], target).toBeLessThan(300);
    }
    then(lab, result);
  });
});
