/**
 * The fault matrix, end to end, on rate limits: every action's committed bundle, run as the runner
 * runs it (post step included) against an emulator of its own that answers each of its POSTs 429
 * once. Each row checks that the step waited as the service asked and sent the POST again, once:
 * the exit code, the outputs, and what the service was left with (one build, group, invitation or
 * run, and no job left queued or running).
 */
import { expect } from 'vitest';
import {
  describeRows,
  INVITED,
  mobileState,
  SMOKE_BUILD,
  STEP,
  withWorkspace,
} from '../support/fault-matrix.ts';
import * as route from '../support/routes.ts';
import type { FaultSpec } from '../support/lab.ts';

/** Each POST answered 429 once, with a Retry-After of a second. */
const limited = (...targets: string[]): FaultSpec[] =>
  targets.map((target) => ({ method: 'POST', path: target, status: 429, retryAfter: 1 }));

withWorkspace();
describeRows('429 on each POST: waited out, sent again, done once', [
  {
    name: 'upload-build',
    ...STEP.upload,
    faults: limited(route.UPLOAD),
    outputsIncluding: {
      'build-id': '1',
      'project-id': '1',
      'app-name': 'Demo Shop',
      'app-version': '1.4.2',
    },
    logged: [/uploadBuild: 429 Too Many Requests; retrying in 1\.0s, as the service asked/],
    sent: [['POST', route.UPLOAD, [429, 200]]],
    then: (lab) => expect(mobileState(lab).builds).toBe(1),
  },
  {
    name: 'invite-testers: creating the group, adding the tester, inviting',
    ...STEP.invite,
    faults: limited(route.GROUPS, route.TESTERS, route.INVITES),
    outputs: INVITED,
    sent: [
      ['POST', route.GROUPS, [429, 200]],
      ['POST', route.TESTERS, [429, 200]],
      ['POST', route.INVITES, [429, 200]],
    ],
    then: (lab) => {
      const state = mobileState(lab);
      expect([state.groups('launch'), state.audits('added testers'), state.audits('invited')]).toEqual([
        1, 1, 1,
      ]);
    },
  },
  {
    name: 'run-suite-and-wait: the suite run',
    ...STEP.suiteGreen,
    faults: limited(route.SUITE_RUN),
    outputsIncluding: { 'build-name': SMOKE_BUILD, total: '3', passed: '2', failed: '1' },
    sent: [['POST', route.SUITE_RUN, [429, 200]]],
    jobs: 3,
    post: 'idle',
    then: (lab) => expect(lab.emulator.context.authoring.data.suiteRuns).toHaveLength(1),
  },
  {
    name: 'run-js-tests: the start',
    ...STEP.jsGreen,
    faults: limited(route.JS_START),
    outputsIncluding: { total: '2', passed: '2', failed: '0' },
    sent: [['POST', route.JS_START, [429, 200]]],
    jobs: 2,
    post: 'idle',
    then: (lab) => expect(Object.keys(lab.emulator.context.automation.data.jsTests)).toHaveLength(2),
  },
]);
