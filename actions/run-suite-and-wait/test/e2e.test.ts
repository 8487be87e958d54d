/**
 * End to end: the committed bundle of run-suite-and-wait, run through the runner-faithful harness
 * against the emulator.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runStep, type StepResult } from '@sauce-actions/action-harness';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GREEN_SUITE, seed } from './seed.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const ACCESS_KEY = 'demo-access-key';
let emulator: RunningEmulator;
const steps: StepResult[] = [];

beforeAll(async () => {
  // Jobs end before the first poll (a second after the start, the shortest poll-interval).
  emulator = await startEmulator({ port: 0, jobDurationMs: 500, seed: seed() });
});
afterAll(async () => {
  await Promise.all(steps.map((step) => step.cleanup()));
  await emulator?.close();
});

async function step(
  inputs: Record<string, string>,
  options: { cancelOn?: RegExp } = {},
): Promise<StepResult> {
  const result = await runStep({
    actionDir: path.join(ROOT, 'actions', 'run-suite-and-wait'),
    inputs: {
      'api-url': emulator.url,
      username: 'demo',
      'access-key': ACCESS_KEY,
      'poll-interval': '1s',
      ...inputs,
    },
    context: { runNumber: '7', runAttempt: '2' },
    ...(options.cancelOn !== undefined ? { cancelOn: options.cancelOn } : {}),
  });
  steps.push(result);
  expect(result.unmaskedLog).not.toContain(ACCESS_KEY);
  expect(result.summary).not.toContain(ACCESS_KEY);
  return result;
}

interface Journal {
  method: string;
  path: string;
  status: number;
  time: string;
}
async function journal(): Promise<Journal[]> {
  const answer = await fetch(`${emulator.url}/_emulator/requests`);
  const body = (await answer.json()) as Journal[] | { requests: Journal[] };
  return Array.isArray(body) ? body : body.requests;
}

/**
 * The groups run side by side, each against an emulator of its own; the steps of the first share
 * theirs, its faults and its build names, so they run in turn.
 */
const IN_TURN = { concurrent: false };

describe.concurrent('run-suite-and-wait bundle', () => {
  afterEach(async () => {
    await fetch(`${emulator.url}/_emulator/faults`, { method: 'DELETE' });
  });

  it(
    'runs a suite where every case passes, by id, with a JUnit report and a results file',
    IN_TURN,
    async () => {
      const result = await step({ suite: GREEN_SUITE, 'junit-file': 'reports/junit.xml' });
      expect(result.success, result.log).toBe(true);
      expect(result.outputs).toMatchObject({ total: '3', passed: '3', failed: '0' });
      expect(JSON.parse(result.outputs['job-ids'] ?? '[]')).toHaveLength(3);
      expect(result.outputs['build-name']).toMatch(/^Green /);
      expect(result.log).toMatch(/3 of 3 jobs: .* 3 passed, 0 failed/);
      const results = JSON.parse(await readFile(result.outputs['results-file'] ?? '', 'utf8')) as {
        jobs: { status: string }[];
      };
      expect(results.jobs.map((job) => job.status)).toEqual(['passed', 'passed', 'passed']);
      const junit = await readFile(path.join(result.workspace, 'reports', 'junit.xml'), 'utf8');
      expect(junit).toContain('tests="3" failures="0" errors="0"');
      expect(result.summary).toContain('3 jobs, 3 passed, 0 failed');
      expect(result.summary).not.toContain('Run suite and wait:');
    },
  );

  it(
    'runs Smoke by name: the failing case fails the step, with an annotation and its link',
    IN_TURN,
    async () => {
      const result = await step({ suite: 'Smoke', 'build-name': 'Smoke e2e' });
      expect(result.success).toBe(false);
      expect(result.outputs).toMatchObject({
        total: '3',
        passed: '2',
        failed: '1',
        'build-name': 'Smoke e2e',
      });
      const failed = result.annotations.filter((a) => a.level === 'error');
      // The step's failure first, then the failed job with its link.
      expect(failed.map((a) => a.message)).toEqual([
        expect.stringMatching(/^1 of 3 job\(s\) failed in build "Smoke e2e"/),
        expect.stringMatching(/^Job "Checkout fails" .*\/tests\/[0-9a-f]{32}$/),
      ]);
      expect(result.summary).toContain('Checkout fails');
      expect(result.summary.indexOf('Checkout fails')).toBeLessThan(result.summary.indexOf('Login works'));
      // The jobs first, then a section saying why the step failed.
      expect(result.summary).toMatch(
        /<h2>Run suite and wait: failed<\/h2>\n<p>1 of 3 job\(s\) failed in build &quot;Smoke e2e&quot;.*<\/p>\n$/,
      );
    },
  );

  it('keeps the step green with fail-on-failure false', IN_TURN, async () => {
    const result = await step({ suite: 'Smoke', 'fail-on-failure': 'false' });
    expect(result.success).toBe(true);
    expect(result.outputs).toMatchObject({ failed: '1' });
    // A green step shows no error: the failed job is a warning.
    expect(result.annotations.filter((a) => a.level === 'error')).toEqual([]);
    expect(result.annotations.filter((a) => a.level === 'warning').map((a) => a.properties.title)).toEqual([
      'Failed job: Checkout fails',
    ]);
  });

  it('fails naming the input when no suite has that name', IN_TURN, async () => {
    const result = await step({ suite: 'No such suite' });
    expect(result.success).toBe(false);
    expect(result.annotations[0]?.message).toContain('Input "suite"');
    expect(result.annotations[0]?.message).toContain('No such suite');
    // Found by the service after requests were sent: refused, worded as the input's mistake.
    expect(result.summary).toMatch(
      /^<h2>Run suite and wait: refused by Sauce Labs<\/h2>\n<p>Input &quot;suite&quot;/,
    );
  });

  it('rides out 503s and 429s while polling', IN_TURN, async () => {
    for (const fault of [
      { method: 'GET', path: '/^\\/rest\\/v1\\/demo\\/jobs/', status: 503, times: 2 },
      { method: 'GET', path: '/^\\/rest\\/v1\\/demo\\/jobs/', status: 429, retryAfter: 1, times: 1 },
    ]) {
      await fetch(`${emulator.url}/_emulator/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(fault),
      });
    }
    const result = await step({ suite: GREEN_SUITE });
    expect(result.success, result.log).toBe(true);
    expect(result.outputs).toMatchObject({ total: '3', passed: '3' });
    const faults = (await journal()).filter(
      (entry) => entry.path.startsWith('/rest/v1/demo/jobs') && entry.status >= 429,
    );
    expect(faults.length).toBeGreaterThanOrEqual(3);
  });

  it('runs chosen test cases on given targets', IN_TURN, async () => {
    const result = await step({
      'test-cases': '- id: aaaaaaaaaaaaaaaaaaaaaa02\n- aaaaaaaaaaaaaaaaaaaaaa01',
      targets:
        '[{ browserName: chrome, platformName: Windows 11 }, { browserName: safari, platformName: macOS 14 }]',
    });
    expect(result.success, result.log).toBe(true);
    expect(result.outputs).toMatchObject({ total: '4', passed: '4' });
  });
});

describe.concurrent('run-suite-and-wait bundle with long jobs', () => {
  let slow: RunningEmulator;
  beforeAll(async () => {
    slow = await startEmulator({ port: 0, jobDurationMs: 600_000 });
  });
  afterAll(async () => {
    await slow?.close();
  });

  it('on timeout stops the running jobs and says what did not finish', async () => {
    const result = await step({ 'api-url': slow.url, suite: 'Smoke', timeout: '3s' });
    expect(result.success).toBe(false);
    expect(result.annotations.at(-1)?.message).toMatch(
      /Timed out while waiting for build .*: 0 of 3 job\(s\) finished .*3 did not finish and 3 were stopped/,
    );
    expect(result.summary).toContain('3 stopped');
    expect(result.summary).toMatch(
      /<h2>Run suite and wait: timed out<\/h2>\n<p>Timed out .*Raise `timeout` \(now 3s\).*<\/p>\n$/,
    );
    const stops = slow.context.automation.jobs.all().filter((job) => job.stoppedMs !== null);
    expect(stops).toHaveLength(3);
  });
});

describe.concurrent('run-suite-and-wait bundle on a large run under a rate limit', () => {
  const LARGE = '0b1e0000-0000-4000-8000-000000000002';
  let limited: RunningEmulator;
  beforeAll(async () => {
    const base = seed();
    const target = (i: number) => ({
      capabilities: { browserName: 'chrome', browserVersion: String(100 + i), platformName: 'Linux' },
    });
    base.authoring.testSuites = [{ id: LARGE, name: 'Large' }];
    base.authoring.testCases = Array.from({ length: 30 }, (_, c) => ({
      id: `c${String(c).padStart(23, '0')}`,
      name: `Case ${c}`,
      testSuiteId: LARGE,
      runSettings: {
        primaryTarget: target(0),
        additionalTargets: Array.from({ length: 9 }, (_, t) => target(t + 1)),
      },
    }));
    limited = await startEmulator({ port: 0, seed: base, jobDurationMs: 3000, rateLimit: 10 });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('follows 300 jobs within 10 requests a second, without one request per job', async () => {
    const result = await step({ 'api-url': limited.url, suite: 'Large' });
    expect(result.success, result.log).toBe(true);
    expect(result.outputs).toMatchObject({ total: '300', passed: '300' });
    const { requests } = (await (await fetch(`${limited.url}/_emulator/requests`)).json()) as {
      requests: Journal[];
    };
    expect(requests.filter((entry) => entry.status === 429)).toEqual([]);
    const perSecond = new Map<number, number>();
    for (const entry of requests) {
      const second = Math.floor(Date.parse(entry.time) / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(10);
    const listings = requests.filter(
      (entry) => entry.method === 'GET' && entry.path === '/rest/v1/demo/jobs',
    );
    // 4 pages a poll for 300 jobs, a few polls: far below one request per job.
    expect(listings.length).toBeLessThan(60);
    expect(requests.some((entry) => /\/jobs\/[0-9a-f]{32}$/.test(entry.path))).toBe(false);
  });
});

describe.concurrent('run-suite-and-wait bundle cancelled by the runner', () => {
  let slow: RunningEmulator;
  beforeAll(async () => {
    slow = await startEmulator({ port: 0, jobDurationMs: 600_000 });
  });
  afterAll(async () => {
    await slow?.close();
  });

  it('on SIGINT stops the running jobs and fails saying what did not finish', async () => {
    // SIGINT as the runner sends it, once the first poll has seen the jobs; the step ends on its own.
    const result = await step(
      { 'api-url': slow.url, suite: 'Smoke', 'stop-on-cancel': 'true' },
      { cancelOn: /^3 of 3 jobs: /m },
    );
    expect(result.cancelled).toBe(true);
    expect(result.signal, result.log).toBeNull();
    expect(result.exitCode).toBe(1);
    expect(result.log, 'the jobs were seen before the cancellation').toMatch(
      /3 of 3 jobs:[\s\S]*Cancelled: stopping the wait\./,
    );
    expect(result.annotations.at(-1)?.message).toMatch(
      /^Cancelled while waiting for build .*: 0 of 3 job\(s\) finished .*3 were stopped/,
    );
    expect(result.summary).toContain('3 stopped');
    expect(result.summary).toMatch(
      /<h2>Run suite and wait: cancelled<\/h2>\n<p>Cancelled while waiting .*<\/p>\n$/,
    );
    expect(result.outputs).toMatchObject({ total: '3', passed: '0' });
    expect(slow.context.automation.jobs.all().filter((job) => job.stoppedMs !== null)).toHaveLength(3);
  });
});
