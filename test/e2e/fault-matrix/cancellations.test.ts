/**
 * The fault matrix, end to end, on the runner's cancellation: the committed bundles of the actions
 * that wait (run-suite-and-wait, run-js-tests, manage-tunnel), run as the runner runs them (post
 * step included) against an emulator of its own, cancelled with SIGINT or SIGTERM at each stage.
 * Each row checks the exit code, the message, the outputs, and what the service was left with: the
 * journal of requests, no start sent after the cancel, and every job started stopped.
 */
import { expect } from 'vitest';
import {
  describeRows,
  JS_PLATFORMS,
  SMOKE_BUILD,
  STEP,
  tunnels,
  withWorkspace,
} from '../support/fault-matrix.ts';
import type { Row } from '../support/fault-matrix.ts';
import * as route from '../support/routes.ts';
import { requestsTo, type FaultSpec, type Lab, type StepExtras, type StepRun } from '../support/lab.ts';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type CancelSignal = (typeof SIGNALS)[number];

/**
 * How long a held read is answered after it reached the service, where the step drops the read on
 * the cancel: far longer than a loaded machine takes to deliver the cancel, so that the cancel
 * lands while it is pending, however slow the machine.
 */
const HOLD_MS = 60_000;
/**
 * A held read that the step must see answered once cancelled: it finds what it started with it,
 * within its own time for that (6 s). The cancel comes as the read reaches the service.
 */
const READ_HOLD_MS = 2000;
/**
 * A held start request is answered within the 2.5 s the step waits for a start's answer once
 * cancelled, and the cancel may land before or after that answer: either way the step finds and
 * stops what the start started.
 */
const startHold = (signal: CancelSignal): number => (signal === 'SIGINT' ? 700 : 400);

/**
 * Checks how a cancelled main step ended, and tells whether it reported: exit 1, its failure
 * written. With SIGINT it must. With SIGTERM the harness repeats the signal at once, while the step
 * stops listening to signals as soon as its work is done, before it publishes
 * (packages/action-kit/src/hosts/github-host.ts, runStep): a step with nothing left to do
 * (`quick`) can then be ended by the repeated signal without a report. What it did is then told by
 * the service's state alone. The harness's kill, a safety net far later, must never be needed.
 */
function expectCancelled(result: StepRun, signal: CancelSignal, quick = false): boolean {
  expect(result.cancelled, 'the cancel was triggered').toBe(true);
  expect(result.killed, result.log).toBe(false);
  if (signal === 'SIGTERM' && quick && result.exitCode === null) {
    expect(result.signal).toBe('SIGTERM');
    return false;
  }
  expect(result.signal, result.log).toBeNull();
  expect(result.exitCode, result.log).toBe(1);
  return true;
}

/** How the runner's cancellation reaches a step at one stage: faults that hold it there, and the trigger. */
interface Stage {
  name: string;
  /** The signals it is cancelled with at this stage: both unless set. */
  signals?: readonly CancelSignal[];
  faults?: (signal: CancelSignal) => FaultSpec[];
  /** What triggers the cancel: a line the step printed, or an event of the lab's (a request that arrived). */
  cancel: StepExtras | ((lab: Lab) => StepExtras);
  /** Whether the step has nothing left to do once cancelled: it ends within moments of the signal. */
  quick?: boolean;
  /** What the step said and the service was left with. */
  ends: (signal: CancelSignal) => Partial<Row>;
}

/** A start never carried out: nothing to stop, and the step cancelled during `operation`. */
const notStarted = (signal: CancelSignal, operation: string, rest: Partial<Row>): Partial<Row> => ({
  failure: `Cancelled: the run was cancelled (${signal}) during ${operation}.`,
  outputs: {},
  jobs: 0,
  ...rest,
});

/** A start carried out: its jobs found and stopped by the step, not ended on their own. */
const SUITE_STARTED: Partial<Row> = {
  failure: new RegExp(
    `^Cancelled while (starting the runs of|waiting for) build "${SMOKE_BUILD}": 0 of 3 job\\(s\\) finished \\(0 passed, 0 failed\\); 3 did not finish and 3 were stopped\\.$`,
  ),
  outputsIncluding: { 'build-name': SMOKE_BUILD, total: '3', passed: '0', failed: '0' },
  sent: [['POST', route.SUITE_RUN, [200]]],
  jobs: 3,
  stopped: true,
  then: (lab, result) => {
    expect(result.summary).toContain('3 stopped');
    expect(lab.emulator.context.authoring.data.suiteRuns).toHaveLength(1);
  },
};
const suiteNotStarted = (signal: CancelSignal, operation: string): Partial<Row> =>
  notStarted(signal, operation, {
    sent: [['POST', route.SUITE_RUN, []]],
    then: (lab) => expect(lab.emulator.context.authoring.data.suiteRuns).toEqual([]),
  });

const JS_STARTED: Partial<Row> = {
  failure: `The run was cancelled before the JS tests finished. No platform finished. Did not finish: ${JS_PLATFORMS.map((p) => `${p} (stopped before it finished)`).join('; ')}.`,
  outputsIncluding: { total: '2', passed: '0', failed: '0' },
  sent: [['POST', route.JS_START, [200]]],
  jobs: 2,
  stopped: true,
  then: (lab) => expect(Object.keys(lab.emulator.context.automation.data.jsTests)).toHaveLength(2),
};
// Refused once with a 429, never sent again.
const jsNotStarted = (signal: CancelSignal): Partial<Row> =>
  notStarted(signal, 'startJsTests', {
    sent: [['POST', route.JS_START, [429]]],
    then: (lab) => expect(lab.emulator.context.automation.data.jsTests).toEqual({}),
  });

/** The tunnel wait found nothing and stopped nothing: the shared tunnel runs, the other still boots. */
const tunnelUntouched = ([least, most]: [number, number]): Partial<Row> => ({
  failure: 'The run was cancelled during `wait`; the post step stops whatever this step had started.',
  outputs: { 'tunnel-id': '', tunnels: '[]', 'log-file': '' },
  sent: [['DELETE', route.TUNNEL_DELETE, []]],
  then: (lab, _result, journal) => {
    const listed = requestsTo(journal, 'GET', route.TUNNELS).length;
    expect(listed).toBeGreaterThanOrEqual(least);
    expect(listed).toBeLessThanOrEqual(most);
    expect(tunnels.named(lab, 'demo-tunnel')?.status).toBe('running');
    expect(tunnels.named(lab, 'ci-tunnel')?.status).toBe('booting');
  },
});

const waits: (Pick<Row, 'action' | 'inputs' | 'lab'> & { heading?: string; stages: Stage[] })[] = [
  {
    ...STEP.suite,
    heading: 'Run suite and wait: cancelled',
    stages: [
      {
        name: 'before the start request',
        faults: () => [{ method: 'GET', path: route.CASES, delayMs: HOLD_MS }],
        cancel: { cancelOn: /^::debug::GET \/v1\/ai-authoring\/testsuites\?\S* -> 200 /m },
        quick: true,
        ends: (signal) => suiteNotStarted(signal, 'listTestCases'),
      },
      {
        // The start follows the listing of the suite's cases without a pause: the signal, sent once
        // that listing is answered, reaches the step after the start request went out.
        name: 'during the start request',
        faults: (signal) => [{ method: 'POST', path: route.SUITE_RUN, delayMs: startHold(signal) }],
        cancel: { cancelOn: /^::debug::GET \/v1\/ai-authoring\/testcases\?\S* -> 200 /m },
        ends: () => SUITE_STARTED,
      },
      {
        // The start request outlives a cancellation by a grace period, so that an answer on its way
        // is not lost; the cancellation still ends the client's wait for the Retry-After of a 429,
        // and the start is not sent again (the client's `sendUntil`).
        name: 'while a 429 holds the start request',
        signals: ['SIGINT'],
        faults: () => [{ method: 'POST', path: route.SUITE_RUN, status: 429, retryAfter: 2 }],
        cancel: { cancelOn: /^::debug::POST \S+\/run -> 429 /m },
        ends: (signal) => ({
          ...suiteNotStarted(signal, 'runSuite'),
          sent: [['POST', route.SUITE_RUN, [429]]],
        }),
      },
      {
        name: 'before the first listing',
        faults: () => [{ method: 'GET', path: route.JOBS, delayMs: READ_HOLD_MS }],
        cancel: (lab) => ({ cancelWhen: lab.arrived('GET', route.JOBS) }),
        ends: () => ({ ...SUITE_STARTED, notLogged: [/^\d+ of 3 jobs: /m] }),
      },
      {
        name: 'while waiting',
        cancel: { cancelOn: /^\d+ of 3 jobs: /m },
        ends: () => ({ ...SUITE_STARTED, logged: [/^3 of 3 jobs: /m] }),
      },
    ],
  },
  {
    ...STEP.js,
    // A job is queued for a fifth of its duration (2 s) and gets its id only then: well within the
    // step's stopping time once cancelled (6 s), and long before it would end on its own.
    lab: { jobDurationMs: 10_000 },
    heading: 'Run JS tests: cancelled',
    stages: [
      {
        // The start is the step's first request: it is held by a 429 whose Retry-After outlasts the
        // start's grace, so the cancel comes before the service carried anything out.
        name: 'before the start request',
        faults: () => [{ method: 'POST', path: route.JS_START, status: 429, retryAfter: 5 }],
        cancel: { cancelOn: /^::debug::POST \/rest\/v1\/demo\/js-tests -> 429 /m },
        quick: true,
        ends: jsNotStarted,
      },
      {
        // Cancelled as the step announces the start, which it sends whatever comes after that line
        // (the request outlives a cancellation by a grace period): the answer comes after the signal.
        name: 'during the start request',
        faults: (signal) => [{ method: 'POST', path: route.JS_START, delayMs: startHold(signal) }],
        cancel: { cancelOn: /^Starting custom tests of /m },
        ends: () => JS_STARTED,
      },
      {
        // A Retry-After within the start's grace: the wait ends with the cancel all the same.
        name: 'while a 429 holds the start request',
        signals: ['SIGINT'],
        faults: () => [{ method: 'POST', path: route.JS_START, status: 429, retryAfter: 2 }],
        cancel: { cancelOn: /^::debug::POST \/rest\/v1\/demo\/js-tests -> 429 /m },
        ends: jsNotStarted,
      },
      {
        name: 'before the first status',
        faults: () => [{ method: 'POST', path: route.JS_STATUS, delayMs: READ_HOLD_MS }],
        cancel: (lab) => ({ cancelWhen: lab.arrived('POST', route.JS_STATUS) }),
        ends: () => ({ ...JS_STARTED, notLogged: [/platforms finished: /] }),
      },
      {
        name: 'while waiting',
        cancel: { cancelOn: /^\d+ of 2 platforms finished: /m },
        ends: () => ({ ...JS_STARTED, logged: [/^0 of 2 platforms finished: /m] }),
      },
    ],
  },
  {
    action: 'manage-tunnel',
    lab: tunnels.labWithCi('booting'),
    // With `true` even a tunnel it only waited for is stopped after the job: here it found none.
    inputs: { ...STEP.tunnel.inputs, 'stop-on-exit': 'true' },
    stages: [
      {
        // Cancelled as the inputs are read (the key is masked at once): the first listing, if it
        // went out before the signal, is held unanswered.
        name: 'before the first listing is answered',
        faults: () => [{ method: 'GET', path: route.TUNNELS, delayMs: HOLD_MS }],
        cancel: { cancelOn: /^::add-mask::/m },
        quick: true,
        ends: () => tunnelUntouched([0, 1]),
      },
      {
        name: 'while waiting',
        cancel: { cancelOn: /^Waiting for the tunnel named "ci-tunnel": \w+ booting$/m },
        quick: true,
        ends: () => ({
          ...tunnelUntouched([1, Infinity]),
          inputs: { ...STEP.tunnel.inputs, 'tunnel-name': 'ci-tunnel', 'stop-on-exit': 'true' },
        }),
      },
    ],
  },
];

withWorkspace();
describeRows(
  'cancelled by the runner',
  waits.flatMap(({ stages, ...wait }) =>
    stages.flatMap(({ name, signals = SIGNALS, faults, cancel, quick, ends }) =>
      signals.map((signal): Row => ({
        ...wait,
        name: `${wait.action}, ${signal} ${name}`,
        faults: faults?.(signal) ?? [],
        extras: (lab) => ({ ...(typeof cancel === 'function' ? cancel(lab) : cancel), cancelSignal: signal }),
        exit: (result) => expectCancelled(result, signal, quick),
        post: 'idle',
        ...ends(signal),
      })),
    ),
  ),
);
