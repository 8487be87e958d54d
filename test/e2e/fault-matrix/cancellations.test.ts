/**
 * The fault matrix, end to end, on the runner's cancellation: the committed bundles of the actions
 * that wait (run-suite-and-wait, run-js-tests, manage-tunnel), run as the runner runs them (post
 * step included) against an emulator of its own, cancelled with SIGINT or SIGTERM at each stage.
 * Each case checks the exit code, the message, the outputs, and what the service was left with: the
 * journal of requests, no start sent after the cancel, and every job started stopped.
 */
import { describe, expect, it } from 'vitest';
import {
  CASES,
  expectIdlePost,
  failureOf,
  JOB_STOP,
  jobIdsOf,
  JOBS,
  JS_INPUTS,
  JS_PLATFORMS,
  JS_START,
  JS_STATUS,
  lastHeading,
  SMOKE_BUILD,
  sortedIds,
  step,
  SUITE_INPUTS,
  SUITE_RUN,
  TUNNEL_DELETE,
  TUNNEL_INPUTS,
  TUNNELS,
  withWorkspace,
} from '../support/fault-matrix.ts';
import {
  openLab,
  requestsTo,
  statusesOf,
  type ActionName,
  type FaultSpec,
  type Lab,
  type StepExtras,
  type StepRun,
} from '../support/lab.ts';

withWorkspace();

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type CancelSignal = (typeof SIGNALS)[number];

/** How the runner's cancellation reaches a step at one stage: faults that hold it there, and the trigger. */
interface Stage {
  name: string;
  faults: (signal: CancelSignal) => FaultSpec[];
  /** What triggers the cancel: a line the step printed, or an event of the lab's (a request that arrived). */
  cancel: Omit<StepExtras, 'cancelSignal'> | ((lab: Lab) => Omit<StepExtras, 'cancelSignal'>);
  /** Whether the start request was carried out (then its jobs exist, and must have been stopped). */
  started: boolean;
  /** Whether the step has nothing left to do once cancelled: it ends within moments of the signal. */
  quick?: boolean;
  /** A line the step must not have printed (a progress line, when the cancel came first). */
  notPrinted?: RegExp;
  printed?: RegExp;
}

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

describe.concurrent('run-suite-and-wait cancelled by the runner', () => {
  const stages: Stage[] = [
    {
      name: 'before the start request',
      faults: () => [{ method: 'GET', path: CASES, delayMs: HOLD_MS }],
      cancel: { cancelOn: /^::debug::GET \/v1\/ai-authoring\/testsuites\?\S* -> 200 /m },
      started: false,
      quick: true,
    },
    {
      // The start follows the listing of the suite's cases without a pause: the signal, sent once
      // that listing is answered, reaches the step after the start request went out.
      name: 'during the start request',
      faults: (signal) => [{ method: 'POST', path: SUITE_RUN, delayMs: startHold(signal) }],
      cancel: { cancelOn: /^::debug::GET \/v1\/ai-authoring\/testcases\?\S* -> 200 /m },
      started: true,
    },
    {
      name: 'before the first listing',
      faults: () => [{ method: 'GET', path: JOBS, delayMs: READ_HOLD_MS }],
      cancel: (lab) => ({ cancelWhen: lab.arrived('GET', JOBS) }),
      started: true,
      notPrinted: /^\d+ of 3 jobs: /m,
    },
    {
      name: 'while waiting',
      faults: () => [],
      cancel: { cancelOn: /^\d+ of 3 jobs: /m },
      started: true,
      printed: /^3 of 3 jobs: /m,
    },
  ];
  const cases = stages.flatMap((stage) => SIGNALS.map((signal) => ({ ...stage, signal })));

  it.each(cases)('$signal $name', async ({ signal, faults, cancel, started, quick, notPrinted, printed }) => {
    const lab = await openLab();
    await lab.fault(...faults(signal));
    const result = await step(lab, 'run-suite-and-wait', SUITE_INPUTS, {
      ...(typeof cancel === 'function' ? cancel(lab) : cancel),
      cancelSignal: signal,
    });
    const reported = expectCancelled(result, signal, quick);
    if (notPrinted) expect(result.stdout).not.toMatch(notPrinted);
    if (printed) expect(result.stdout).toMatch(printed);
    const journal = await lab.journal();
    if (!started) {
      if (reported) {
        expect(failureOf(result)).toMatch(
          new RegExp(`^Cancelled: the run was cancelled \\(${signal}\\) during listTestCases\\.$`),
        );
        expect(lastHeading(result)).toBe('Run suite and wait: cancelled');
        expect(result.outputs).toEqual({});
      }
      expect(requestsTo(journal, 'POST', SUITE_RUN)).toEqual([]);
      expect(lab.emulator.context.authoring.data.suiteRuns).toEqual([]);
      expect(lab.jobs()).toEqual([]);
    } else {
      expect(failureOf(result)).toMatch(
        new RegExp(
          `^Cancelled while (starting the runs of|waiting for) build "${SMOKE_BUILD}": 0 of 3 job\\(s\\) finished \\(0 passed, 0 failed\\); 3 did not finish and 3 were stopped\\.$`,
        ),
      );
      expect(lastHeading(result)).toBe('Run suite and wait: cancelled');
      expect(result.summary).toContain('3 stopped');
      expect(statusesOf(journal, 'POST', SUITE_RUN)).toEqual([200]);
      expect(lab.emulator.context.authoring.data.suiteRuns).toHaveLength(1);
      expect(result.outputs).toMatchObject({
        'build-name': SMOKE_BUILD,
        total: '3',
        passed: '0',
        failed: '0',
      });
      const jobs = lab.jobs();
      expect(jobs).toHaveLength(3);
      expect(sortedIds(result.outputs['job-ids'])).toEqual(jobIdsOf(lab));
      // Stopped by the step, not ended on their own.
      expect(jobs.map((job) => job.stoppedMs !== null)).toEqual([true, true, true]);
      const stops = requestsTo(journal, 'PUT', JOB_STOP).map((entry) => entry.path);
      expect(stops.sort()).toEqual(jobs.map((job) => `${JOBS}/${job.id}/stop`).sort());
    }
    expect(lab.leftRunning()).toEqual([]);
    expectIdlePost(result);
  });
});

describe.concurrent('run-js-tests cancelled by the runner', () => {
  const stages: Stage[] = [
    {
      // The start is the step's first request: it is held by a 429 whose Retry-After outlasts the
      // start's grace, so the cancel comes before the service carried anything out.
      name: 'before the start request',
      faults: () => [{ method: 'POST', path: JS_START, status: 429, retryAfter: 5 }],
      cancel: { cancelOn: /^::debug::POST \/rest\/v1\/demo\/js-tests -> 429 /m },
      started: false,
      quick: true,
    },
    {
      // Cancelled as the step announces the start, which it sends whatever comes after that line
      // (the request outlives a cancellation by a grace period): the answer comes after the signal.
      name: 'during the start request',
      faults: (signal) => [{ method: 'POST', path: JS_START, delayMs: startHold(signal) }],
      cancel: { cancelOn: /^Starting custom tests of /m },
      started: true,
    },
    {
      name: 'before the first status',
      faults: () => [{ method: 'POST', path: JS_STATUS, delayMs: READ_HOLD_MS }],
      cancel: (lab) => ({ cancelWhen: lab.arrived('POST', JS_STATUS) }),
      started: true,
      notPrinted: /platforms finished: /,
    },
    {
      name: 'while waiting',
      faults: () => [],
      cancel: { cancelOn: /^\d+ of 2 platforms finished: /m },
      started: true,
      printed: /^0 of 2 platforms finished: /m,
    },
  ];
  const cases = stages.flatMap((stage) => SIGNALS.map((signal) => ({ ...stage, signal })));

  it.each(cases)('$signal $name', async ({ signal, faults, cancel, started, quick, notPrinted, printed }) => {
    // A job is queued for a fifth of its duration (2 s) and gets its id only then: well within the
    // step's stopping time once cancelled (6 s), and long before it would end on its own.
    const lab = await openLab({ jobDurationMs: 10_000 });
    await lab.fault(...faults(signal));
    const result = await step(lab, 'run-js-tests', JS_INPUTS, {
      ...(typeof cancel === 'function' ? cancel(lab) : cancel),
      cancelSignal: signal,
    });
    const reported = expectCancelled(result, signal, quick);
    if (notPrinted) expect(result.stdout).not.toMatch(notPrinted);
    if (printed) expect(result.stdout).toMatch(printed);
    const journal = await lab.journal();
    if (!started) {
      if (reported) {
        expect(failureOf(result)).toBe(`Cancelled: the run was cancelled (${signal}) during startJsTests.`);
        expect(lastHeading(result)).toBe('Run JS tests: cancelled');
        expect(result.outputs).toEqual({});
      }
      // Refused once, never sent again.
      expect(statusesOf(journal, 'POST', JS_START)).toEqual([429]);
      expect(lab.emulator.context.automation.data.jsTests).toEqual({});
      expect(lab.jobs()).toEqual([]);
    } else {
      expect(failureOf(result)).toBe(
        `The run was cancelled before the JS tests finished. No platform finished. Did not finish: ${JS_PLATFORMS.map((p) => `${p} (stopped before it finished)`).join('; ')}.`,
      );
      expect(lastHeading(result)).toBe('Run JS tests: cancelled');
      expect(statusesOf(journal, 'POST', JS_START)).toEqual([200]);
      expect(Object.keys(lab.emulator.context.automation.data.jsTests)).toHaveLength(2);
      expect(result.outputs).toMatchObject({ total: '2', passed: '0', failed: '0' });
      const jobs = lab.jobs();
      expect(jobs).toHaveLength(2);
      expect(sortedIds(result.outputs['job-ids'])).toEqual(jobIdsOf(lab));
      expect(jobs.map((job) => job.stoppedMs !== null)).toEqual([true, true]);
      const stops = requestsTo(journal, 'PUT', JOB_STOP).map((entry) => entry.path);
      expect(stops.sort()).toEqual(jobs.map((job) => `${JOBS}/${job.id}/stop`).sort());
    }
    expect(lab.leftRunning()).toEqual([]);
    expectIdlePost(result);
  });
});

describe.concurrent('a start held by a 429 is not sent after a cancel', () => {
  // The start request outlives a cancellation by a grace period, so that an answer on its way is
  // not lost; the cancellation still ends the client's wait for the Retry-After of a 429, and the
  // start is not sent again (the client's `sendUntil`).
  const rows: {
    action: ActionName;
    jobDurationMs?: number;
    inputs: Record<string, string>;
    start: string;
    cancelOn: RegExp;
    failure: RegExp;
    nothingStarted: (lab: Lab) => void;
  }[] = [
    {
      action: 'run-suite-and-wait',
      inputs: SUITE_INPUTS,
      start: SUITE_RUN,
      cancelOn: /^::debug::POST \S+\/run -> 429 /m,
      failure: /^Cancelled: the run was cancelled \(SIGINT\) during runSuite\./,
      nothingStarted: (lab) => expect(lab.emulator.context.authoring.data.suiteRuns).toEqual([]),
    },
    {
      action: 'run-js-tests',
      jobDurationMs: 20_000,
      inputs: JS_INPUTS,
      start: JS_START,
      cancelOn: /^::debug::POST \/rest\/v1\/demo\/js-tests -> 429 /m,
      failure: /^Cancelled: the run was cancelled \(SIGINT\) during startJsTests\.$/,
      nothingStarted: () => {},
    },
  ];

  it.each(rows)(
    '$action',
    async ({ action, jobDurationMs, inputs, start, cancelOn, failure, nothingStarted }) => {
      const lab = await openLab(jobDurationMs !== undefined ? { jobDurationMs } : {});
      await lab.fault({ method: 'POST', path: start, status: 429, retryAfter: 2 });
      const result = await step(lab, action, inputs, { cancelOn });
      expect(expectCancelled(result, 'SIGINT')).toBe(true);
      expect(statusesOf(await lab.journal(), 'POST', start)).toEqual([429]);
      nothingStarted(lab);
      expect(lab.jobs()).toEqual([]);
      expect(failureOf(result)).toMatch(failure);
    },
  );
});

describe.concurrent('manage-tunnel wait cancelled by the runner', () => {
  const stages = [
    {
      // Cancelled as the inputs are read (the key is masked at once): the first listing, if it went
      // out before the signal, is held unanswered.
      name: 'before the first listing is answered',
      tunnel: 'demo-tunnel',
      faults: [{ method: 'GET', path: TUNNELS, delayMs: HOLD_MS }],
      cancel: { cancelOn: /^::add-mask::/m },
      listings: [0, 1],
    },
    {
      name: 'while waiting',
      tunnel: 'ci-tunnel',
      faults: [],
      cancel: { cancelOn: /^Waiting for the tunnel named "ci-tunnel": \w+ booting$/m },
      listings: [1, Infinity],
    },
  ];
  const cases = stages.flatMap((stage) => SIGNALS.map((signal) => ({ ...stage, signal })));

  it.each(cases)('$signal $name', async ({ signal, tunnel, faults, cancel, listings }) => {
    const lab = await openLab();
    const booting = lab.emulator.context.automation.tunnels.create({
      owner: 'demo',
      tunnel_identifier: 'ci-tunnel',
      status: 'booting',
    });
    await lab.fault(...faults);
    const result = await step(
      lab,
      'manage-tunnel',
      // With `true` even a tunnel it only waited for is stopped after the job: here it found none.
      { ...TUNNEL_INPUTS, 'tunnel-name': tunnel, 'stop-on-exit': 'true' },
      { ...cancel, cancelSignal: signal },
    );
    if (expectCancelled(result, signal, true)) {
      expect(failureOf(result)).toBe(
        'The run was cancelled during `wait`; the post step stops whatever this step had started.',
      );
      expect(result.outputs).toEqual({ 'tunnel-id': '', tunnels: '[]', 'log-file': '' });
    }
    const journal = await lab.journal();
    const listed = requestsTo(journal, 'GET', TUNNELS).length;
    expect(listed).toBeGreaterThanOrEqual(listings[0]!);
    expect(listed).toBeLessThanOrEqual(listings[1]!);
    expect(requestsTo(journal, 'DELETE', TUNNEL_DELETE)).toEqual([]);
    const tunnels = lab.emulator.context.automation.tunnels.all();
    expect(tunnels.find((t) => t.tunnel_identifier === 'demo-tunnel')?.status).toBe('running');
    expect(tunnels.find((t) => t.id === booting.id)?.status).toBe('booting');
    expectIdlePost(result);
  });
});
