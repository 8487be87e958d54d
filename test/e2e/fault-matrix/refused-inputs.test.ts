/**
 * The fault matrix, end to end, on refused inputs: every action's committed bundle, run as the
 * runner runs it (post step included) against an emulator of its own, with inputs it must refuse.
 * Each row checks the exit code, the message (the input, its problem, and what to do), that no
 * output is set, that the post step finds nothing to do, and that the service received no request.
 */
import { expect } from 'vitest';
import { describeRows, mobileState, STEP, withWorkspace, type Row } from '../support/fault-matrix.ts';
import { errorsOf, MOBILE, type ActionName } from '../support/lab.ts';

/** Inputs refused, the first of them named in the message, and the problem the message tells. */
type BadInput = [inputs: Record<string, string>, problem: RegExp];

// Refusals that several actions share: the same input, value and message.
const TIMEOUT_OVER_24H: BadInput = [{ timeout: '2147484' }, /has 2147484, which is longer than 24h/];
const TIMEOUT_NEGATIVE: BadInput = [{ timeout: '-5' }, /has "-5", which is not a duration/];
const POLL_UNDER_1S: BadInput = [{ 'poll-interval': '0' }, /has 0, which is shorter than 1s/];
const JUNIT_FILE_A_FOLDER: BadInput = [
  { 'junit-file': 'reports' },
  /names "[^"]*reports", which is a folder/,
];
const NOT_A_BOOLEAN = (input: string): BadInput => [
  { [input]: 'maybe' },
  /has "maybe", which is not a boolean/,
];

const refusals: { action: ActionName; base: Record<string, string>; post?: 'idle'; bad: BadInput[] }[] = [
  {
    action: 'upload-build',
    base: STEP.upload.inputs,
    bad: [
      TIMEOUT_OVER_24H,
      TIMEOUT_NEGATIVE,
      [{ file: 'builds' }, /names \S*builds, which is not a file/],
      NOT_A_BOOLEAN('notify'),
      [{ 'landing-page-mode': 'public' }, /has "public"\. Allowed: `open`, `closed`/],
    ],
  },
  {
    action: 'invite-testers',
    base: { ...MOBILE, 'project-id': '1', 'build-id': '1', groups: 'qa' },
    bad: [
      [{ 'project-id': 'abc' }, /has "abc", which is not a positive whole number/],
      [{ 'build-id': '1.5' }, /has "1\.5", which is not a positive whole number/],
      [{ testers: 'not-an-email', 'tester-group': 'nightly' }, /has an invalid email: "not-an-email"/],
      NOT_A_BOOLEAN('notify'),
    ],
  },
  {
    action: 'run-suite-and-wait',
    base: STEP.suite.inputs,
    post: 'idle',
    bad: [
      TIMEOUT_OVER_24H,
      POLL_UNDER_1S,
      [
        { 'test-cases': 'not-a-case-id', suite: '' },
        /has item 1 "not-a-case-id", which is not 24 hexadecimal digits/,
      ],
      JUNIT_FILE_A_FOLDER,
      NOT_A_BOOLEAN('stop-on-cancel'),
    ],
  },
  {
    action: 'run-js-tests',
    base: STEP.js.inputs,
    post: 'idle',
    bad: [
      TIMEOUT_NEGATIVE,
      POLL_UNDER_1S,
      [{ 'max-duration': '99h' }, /has 99h, which is longer than 3h/],
      JUNIT_FILE_A_FOLDER,
    ],
  },
  {
    action: 'manage-tunnel',
    base: STEP.tunnel.inputs,
    post: 'idle',
    bad: [
      [{ 'stop-on-exit': 'maybe' }, /has "maybe"\. Allowed: `started`/],
      TIMEOUT_OVER_24H,
      POLL_UNDER_1S,
      [{ operation: 'restart' }, /has "restart"\. Allowed: `wait`, `list`, `stop`, `start`/],
    ],
  },
];

withWorkspace();
describeRows(
  'bad inputs are refused before any request',
  refusals.flatMap(({ action, base, post, bad }) =>
    bad.map(([inputs, problem]): Row => ({
      name: `${action} with ${JSON.stringify(inputs)}`,
      action,
      inputs: { ...base, ...inputs },
      exit: 1,
      // The input, its problem, and what to do: the step's one error.
      failure: new RegExp(
        `^Input "${Object.keys(inputs)[0]}" .*${problem.source}.*Fix the input and run the step again\\.$`,
        's',
      ),
      heading: /: bad input$/,
      outputs: {},
      jobs: 0,
      ...(post ? { post } : {}),
      then: (lab, result, journal) => {
        expect(errorsOf(result)).toHaveLength(1);
        expect(journal).toEqual([]);
        expect(mobileState(lab).builds).toBe(0);
      },
    })),
  ),
);
