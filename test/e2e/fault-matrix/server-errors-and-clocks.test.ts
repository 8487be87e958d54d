/**
 * The bundles against a service that answers a read with 500, and on a runner whose clock is
 * wrong. A 500 to a listing of jobs (or to the JS tests' status, a POST that only reads) is asked
 * again like a 502 to 504, and the run or the report ends as without it; a runner clock ten
 * minutes ahead of the service still finds the run's jobs, since the windows are on the service's
 * clock (its Date header), and the step says how far off the runner's clock is.
 */
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  JOBS,
  JS_INPUTS,
  JS_STATUS,
  TUNNELS,
  SHORT_JOBS_MS,
  step,
  SUITE_GREEN,
  TUNNEL_INPUTS,
  withWorkspace,
} from '../support/fault-matrix.ts';
import { openLab, statusesOf, warningsOf, type Lab } from '../support/lab.ts';

withWorkspace();

const FIVE_HUNDRED_TWICE = [500, 500, 200];
const CONTEXT = { runNumber: '7', runAttempt: '1', job: 'e2e' };

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

/** The statuses the job listing was answered, and how many listings were asked. */
async function listings(lab: Lab): Promise<{ statuses: number[]; requests: number }> {
  const statuses = statusesOf(await lab.journal(), 'GET', JOBS);
  return { statuses, requests: statuses.length };
}

describe.concurrent('a 500 on a read that may be repeated: asked again', { timeout: 60_000 }, () => {
  it('run-suite-and-wait, listing the jobs of its run', async () => {
    const lab = await openLab({ jobDurationMs: SHORT_JOBS_MS });
    await lab.fault({ method: 'GET', path: JOBS, status: 500, times: 2 });
    const result = await step(lab, 'run-suite-and-wait', SUITE_GREEN, { context: CONTEXT });
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs).toMatchObject({ total: '3', passed: '2', failed: '1' });
    const { statuses } = await listings(lab);
    expect(statuses.slice(0, 3)).toEqual(FIVE_HUNDRED_TWICE);
    expect(result.log).toMatch(/listJobs: 500 Internal Server Error; retrying in .* \(attempt 2 of 5\)/);
    expect(lab.leftRunning()).toEqual([]);
  });

  it('run-suite-and-wait `operation: report`, listing the jobs of the shards', async () => {
    const lab = await openLab({ jobDurationMs: SHORT_JOBS_MS });
    const ran = await step(lab, 'run-suite-and-wait', SUITE_GREEN, { context: CONTEXT });
    expect(ran.exitCode, ran.log).toBe(0);
    await lab.clearJournal();
    await lab.fault({ method: 'GET', path: JOBS, status: 500, times: 2 });
    const report = await step(
      lab,
      'run-suite-and-wait',
      { ...SUITE_GREEN, operation: 'report', 'junit-file': 'junit.xml' },
      { context: { ...CONTEXT, job: 'report' } },
    );
    expect(report.exitCode, report.log).toBe(0);
    expect(report.outputs).toMatchObject({
      'build-name': ran.outputs['build-name'],
      total: '3',
      passed: '2',
    });
    expect(ran.outputs['build-name']).toMatch(/^Smoke #7\.1 · [a-z2-7]{8}$/);
    expect((await listings(lab)).statuses).toEqual(FIVE_HUNDRED_TWICE);
  });

  it('run-js-tests, asking the status (a POST marked safe to repeat)', async () => {
    const lab = await openLab({ jobDurationMs: SHORT_JOBS_MS });
    await lab.fault({ method: 'POST', path: JS_STATUS, status: 500, times: 2 });
    const result = await step(lab, 'run-js-tests', JS_INPUTS, { context: CONTEXT });
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs).toMatchObject({ total: '2', passed: '2' });
    expect(statusesOf(await lab.journal(), 'POST', JS_STATUS).slice(0, 3)).toEqual(FIVE_HUNDRED_TWICE);
    // Asked again by the client, within the poll: no poll failed.
    expect(result.log).toMatch(/500 Internal Server Error; retrying in .* \(attempt 2 of 5\)/);
    expect(result.log).not.toMatch(/Checking the status failed/);
  });

  it('run-js-tests `operation: report`, listing the jobs of the shards', async () => {
    const lab = await openLab({ jobDurationMs: SHORT_JOBS_MS });
    const inputs = { ...JS_INPUTS, build: 'js nightly 7' };
    const ran = await step(lab, 'run-js-tests', inputs, { context: CONTEXT });
    expect(ran.exitCode, ran.log).toBe(0);
    await lab.clearJournal();
    await lab.fault({ method: 'GET', path: JOBS, status: 500, times: 2 });
    const report = await step(
      lab,
      'run-js-tests',
      { ...inputs, operation: 'report' },
      { context: { ...CONTEXT, job: 'report' } },
    );
    expect(report.exitCode, report.log).toBe(0);
    expect(report.outputs).toMatchObject({ total: '2', passed: '2' });
    expect((await listings(lab)).statuses).toEqual(FIVE_HUNDRED_TWICE);
  });
});

describe.concurrent('a runner clock 10 minutes ahead of the service', { timeout: 60_000 }, () => {
  const AHEAD = 10 * 60_000;

  it('run-suite-and-wait finds its jobs, counts them, and says how far off the clock is', async () => {
    const lab = await openLab({ jobDurationMs: SHORT_JOBS_MS });
    const result = await step(lab, 'run-suite-and-wait', SUITE_GREEN, {
      context: CONTEXT,
      env: shiftedClock(AHEAD),
    });
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs).toMatchObject({ total: '3', passed: '2', failed: '1' });
    expect(warningsOf(result)).toContainEqual(
      expect.stringMatching(/^This machine's clock is 10 min ahead of the service's/),
    );
    expect(lab.leftRunning()).toEqual([]);
  });

  it('run-js-tests and its report find the jobs, and say how far off the clock is', async () => {
    const lab = await openLab({ jobDurationMs: SHORT_JOBS_MS });
    const inputs = { ...JS_INPUTS, build: 'js skewed 7' };
    const ran = await step(lab, 'run-js-tests', inputs, { context: CONTEXT, env: shiftedClock(AHEAD) });
    expect(ran.exitCode, ran.log).toBe(0);
    expect(ran.outputs).toMatchObject({ total: '2', passed: '2' });
    const report = await step(
      lab,
      'run-js-tests',
      { ...inputs, operation: 'report' },
      { context: { ...CONTEXT, job: 'report' }, env: shiftedClock(AHEAD) },
    );
    expect(report.exitCode, report.log).toBe(0);
    expect(report.outputs).toMatchObject({ total: '2', passed: '2' });
    expect(warningsOf(report)).toContainEqual(
      expect.stringMatching(/clock is 10 min ahead of the service's/),
    );
  });

  it('manage-tunnel wait, its clock set an hour back during the wait, still ends at its `timeout`', async () => {
    const lab = await openLab();
    await lab.clearJournal();
    const result = await step(
      lab,
      'manage-tunnel',
      { ...TUNNEL_INPUTS, 'tunnel-name': 'never-started', timeout: '4s' },
      // The step is killed after 30 s: a wait that the step back put off an hour ends there.
      { env: shiftedClock(-3_600_000, 2000), timeoutMs: 30_000 },
    );
    expect(result.exitCode, result.log).toBe(1);
    expect(result.log).toMatch(/was not running within 4s/);
    // Polled at the interval (1 s) all along: no check was put off by the step back.
    const checks = statusesOf(await lab.journal(), 'GET', TUNNELS).length;
    expect(checks).toBeGreaterThanOrEqual(3);
    expect(checks).toBeLessThanOrEqual(6);
  });
});
