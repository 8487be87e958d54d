/**
 * The bundles against a service that answers a read with 500, and on a runner whose clock is
 * wrong. A 500 to a listing of jobs (or to the JS tests' status, a POST that only reads) is asked
 * again like a 502 to 504, and the run or the report ends as without it; a runner clock ten
 * minutes ahead of the service still finds the run's jobs, since the windows are on the service's
 * clock (its Date header), and the step says how far off the runner's clock is.
 */
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { expect } from 'vitest';
import { describeRows, smokeBuild, step, STEP, withWorkspace } from '../support/fault-matrix.ts';
import type { Row } from '../support/fault-matrix.ts';
import * as route from '../support/routes.ts';
import { openLab, statusesOf, warningsOf, type StepExtras } from '../support/lab.ts';

const CONTEXT = { runNumber: '7', runAttempt: '1', job: 'e2e' };
/** A read answered 500 twice, then as without the fault: all of a report's, the first of a run's polls. */
const fiveHundredTwice = (method: string, target: string, polls?: 'first'): Pick<Row, 'faults' | 'sent'> => ({
  faults: [{ method, path: target, status: 500, times: 2 }],
  sent: [[method, target, [500, 500, 200], polls]],
});
const AHEAD = /^This machine's clock is 10 min ahead of the service's/;

/**
 * The step's process with its wall clock `shiftMs` off (`support/shifted-clock.mjs`); with
 * `fromMs`, right until the process has run that long, then stepped by `shiftMs`.
 */
function shiftedClock(shiftMs: number, fromMs = 0): Record<string, string> {
  const preload = pathToFileURL(path.join(import.meta.dirname, '..', 'support', 'shifted-clock.mjs'));
  return {
    NODE_OPTIONS: `--import=${preload.href}`,
    SHIFTED_CLOCK_MS: String(shiftMs),
    SHIFTED_CLOCK_FROM_MS: String(fromMs),
  };
}

/**
 * The report of a run of `run` that ended with the outputs `ran` (the journal then cleared): the
 * same step with `operation: report`, in the workflow's report job, reading the run's shards.
 */
function reportOf(
  run: Pick<Row, 'action' | 'inputs'> & { lab: { jobDurationMs: number } },
  ran: Record<string, string>,
  { inputs = {}, env }: { inputs?: Record<string, string>; env?: Record<string, string> } = {},
): Pick<Row, 'action' | 'lab' | 'inputs' | 'extras'> {
  const extras: StepExtras = env ? { env } : {};
  return {
    action: run.action,
    lab: async () => {
      const lab = await openLab(run.lab);
      const result = await step(lab, run.action, run.inputs, { context: CONTEXT, ...extras });
      expect(result.exitCode, result.log).toBe(0);
      expect(result.outputs).toMatchObject(ran);
      await lab.clearJournal();
      return lab;
    },
    inputs: { ...run.inputs, ...inputs, operation: 'report' },
    extras: { context: { ...CONTEXT, job: 'report' }, ...extras },
  };
}

withWorkspace();
describeRows(
  'a 500 on a read that may be repeated: asked again',
  [
    {
      name: 'run-suite-and-wait, listing the jobs of its run',
      ...STEP.suiteGreen,
      extras: { context: CONTEXT },
      ...fiveHundredTwice('GET', route.JOBS, 'first'),
      outputsIncluding: { total: '3', passed: '2', failed: '1' },
      logged: [/listJobs: 500 Internal Server Error; retrying in .* \(attempt 2 of 5\)/],
      jobs: 3,
    },
    {
      name: 'run-suite-and-wait `operation: report`, listing the jobs of the shards',
      ...reportOf(
        STEP.suiteGreen,
        { 'build-name': smokeBuild(7) },
        { inputs: { 'junit-file': 'junit.xml' } },
      ),
      ...fiveHundredTwice('GET', route.JOBS),
      outputsIncluding: { 'build-name': smokeBuild(7), total: '3', passed: '2' },
    },
    {
      name: 'run-js-tests, asking the status (a POST marked safe to repeat)',
      ...STEP.jsGreen,
      extras: { context: CONTEXT },
      ...fiveHundredTwice('POST', route.JS_STATUS, 'first'),
      outputsIncluding: { total: '2', passed: '2' },
      // Asked again by the client, within the poll: no poll failed.
      logged: [/500 Internal Server Error; retrying in .* \(attempt 2 of 5\)/],
      notLogged: [/Checking the status failed/],
    },
    {
      name: 'run-js-tests `operation: report`, listing the jobs of the shards',
      ...reportOf({ ...STEP.jsGreen, inputs: { ...STEP.jsGreen.inputs, build: 'js nightly 7' } }, {}),
      ...fiveHundredTwice('GET', route.JOBS),
      outputsIncluding: { total: '2', passed: '2' },
    },
  ],
  { timeout: 60_000 },
);

const AHEAD_10_MIN = shiftedClock(10 * 60_000);
describeRows(
  'a runner clock 10 minutes ahead of the service',
  [
    {
      name: 'run-suite-and-wait finds its jobs, counts them, and says how far off the clock is',
      ...STEP.suiteGreen,
      extras: { context: CONTEXT, env: AHEAD_10_MIN },
      outputsIncluding: { total: '3', passed: '2', failed: '1' },
      jobs: 3,
      then: (_lab, result) => expect(warningsOf(result)).toContainEqual(expect.stringMatching(AHEAD)),
    },
    {
      name: 'run-js-tests and its report find the jobs, and say how far off the clock is',
      ...reportOf(
        { ...STEP.jsGreen, inputs: { ...STEP.jsGreen.inputs, build: 'js skewed 7' } },
        { total: '2', passed: '2' },
        { env: AHEAD_10_MIN },
      ),
      outputsIncluding: { total: '2', passed: '2' },
      then: (_lab, result) => expect(warningsOf(result)).toContainEqual(expect.stringMatching(AHEAD)),
    },
    {
      name: 'manage-tunnel wait, its clock set an hour back during the wait, still ends at its `timeout`',
      ...STEP.tunnel,
      inputs: { ...STEP.tunnel.inputs, 'tunnel-name': 'never-started', timeout: '4s' },
      // The step is killed after 30 s: a wait that the step back put off an hour ends there.
      extras: { env: shiftedClock(-3_600_000, 2000), timeoutMs: 30_000 },
      exit: 1,
      logged: [/was not running within 4s/],
      then: (_lab, _result, journal) => {
        // Polled at the interval (1 s) all along: no check was put off by the step back.
        const checks = statusesOf(journal, 'GET', route.TUNNELS).length;
        expect(checks).toBeGreaterThanOrEqual(3);
        expect(checks).toBeLessThanOrEqual(6);
      },
    },
  ],
  { timeout: 60_000 },
);
