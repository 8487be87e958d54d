/**
 * The fault matrix, end to end, on refused inputs: every action's committed bundle, run as the
 * runner runs it (post step included) against an emulator of its own, with inputs it must refuse.
 * Each case checks the exit code, the message (the input, its problem, and what to do), that no
 * output is set, that the post step finds nothing to do, and that the service received no request.
 */
import { describe, expect, it } from 'vitest';
import {
  expectIdlePost,
  JS_INPUTS,
  lastHeading,
  mobileState,
  step,
  SUITE_INPUTS,
  TUNNEL_INPUTS,
  UPLOAD_INPUTS,
  withWorkspace,
} from '../support/fault-matrix.ts';
import { errorsOf, MOBILE, openLab, type ActionName } from '../support/lab.ts';

withWorkspace();

type BadInput = { inputs: Record<string, string>; input: string; problem: RegExp };

// Refusals that several actions share: the same input, value and message.
const TIMEOUT_OVER_24H: BadInput = {
  inputs: { timeout: '2147484' },
  input: 'timeout',
  problem: /has 2147484, which is longer than 24h/,
};
const POLL_UNDER_1S: BadInput = {
  inputs: { 'poll-interval': '0' },
  input: 'poll-interval',
  problem: /has 0, which is shorter than 1s/,
};
const JUNIT_FILE_A_FOLDER: BadInput = {
  inputs: { 'junit-file': 'reports' },
  input: 'junit-file',
  problem: /names "[^"]*reports", which is a folder/,
};

describe.concurrent('bad inputs are refused before any request', () => {
  const cases: {
    action: ActionName;
    base: Record<string, string>;
    bad: BadInput[];
  }[] = [
    {
      action: 'upload-build',
      base: UPLOAD_INPUTS,
      bad: [
        TIMEOUT_OVER_24H,
        { inputs: { timeout: '-5' }, input: 'timeout', problem: /has "-5", which is not a duration/ },
        { inputs: { file: 'builds' }, input: 'file', problem: /names \S*builds, which is not a file/ },
        { inputs: { notify: 'maybe' }, input: 'notify', problem: /has "maybe", which is not a boolean/ },
        {
          inputs: { 'landing-page-mode': 'public' },
          input: 'landing-page-mode',
          problem: /has "public"\. Allowed: `open`, `closed`/,
        },
      ],
    },
    {
      action: 'invite-testers',
      base: { ...MOBILE, 'project-id': '1', 'build-id': '1', groups: 'qa' },
      bad: [
        {
          inputs: { 'project-id': 'abc' },
          input: 'project-id',
          problem: /has "abc", which is not a positive whole number/,
        },
        {
          inputs: { 'build-id': '1.5' },
          input: 'build-id',
          problem: /has "1\.5", which is not a positive whole number/,
        },
        {
          inputs: { testers: 'not-an-email', 'tester-group': 'nightly' },
          input: 'testers',
          problem: /has an invalid email: "not-an-email"/,
        },
        { inputs: { notify: 'maybe' }, input: 'notify', problem: /has "maybe", which is not a boolean/ },
      ],
    },
    {
      action: 'run-suite-and-wait',
      base: SUITE_INPUTS,
      bad: [
        TIMEOUT_OVER_24H,
        POLL_UNDER_1S,
        {
          inputs: { suite: '', 'test-cases': 'not-a-case-id' },
          input: 'test-cases',
          problem: /has item 1 "not-a-case-id", which is not 24 hexadecimal digits/,
        },
        JUNIT_FILE_A_FOLDER,
        {
          inputs: { 'stop-on-cancel': 'maybe' },
          input: 'stop-on-cancel',
          problem: /has "maybe", which is not a boolean/,
        },
      ],
    },
    {
      action: 'run-js-tests',
      base: JS_INPUTS,
      bad: [
        { inputs: { timeout: '-5' }, input: 'timeout', problem: /has "-5", which is not a duration/ },
        POLL_UNDER_1S,
        {
          inputs: { 'max-duration': '99h' },
          input: 'max-duration',
          problem: /has 99h, which is longer than 3h/,
        },
        JUNIT_FILE_A_FOLDER,
      ],
    },
    {
      action: 'manage-tunnel',
      base: TUNNEL_INPUTS,
      bad: [
        {
          inputs: { 'stop-on-exit': 'maybe' },
          input: 'stop-on-exit',
          problem: /has "maybe"\. Allowed: `started`/,
        },
        TIMEOUT_OVER_24H,
        POLL_UNDER_1S,
        {
          inputs: { operation: 'restart' },
          input: 'operation',
          problem: /has "restart"\. Allowed: `wait`, `list`, `stop`, `start`/,
        },
      ],
    },
  ];

  it.each(cases)('$action', async ({ action, base, bad }) => {
    const lab = await openLab();
    await lab.clearJournal();
    for (const { inputs, input, problem } of bad) {
      const result = await step(lab, action, { ...base, ...inputs });
      const what = `${action} with ${JSON.stringify(inputs)}`;
      expect(result.exitCode, what).toBe(1);
      const errors = errorsOf(result);
      expect(errors, what).toHaveLength(1);
      expect(errors[0], what).toMatch(new RegExp(`^Input "${input}" `));
      expect(errors[0], what).toMatch(problem);
      expect(errors[0], what).toMatch(/Fix the input and run the step again\.$/);
      expect(result.outputs, what).toEqual({});
      expect(lastHeading(result), what).toMatch(/: bad input$/);
      if (result.post) expectIdlePost(result);
      expect(await lab.journal(), what).toEqual([]);
    }
    expect(lab.jobs()).toEqual([]);
    expect(mobileState(lab).builds).toBe(0);
  });
});
