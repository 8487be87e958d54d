/**
 * End to end: the committed bundle of run-suite-and-wait, run through the runner-faithful harness
 * against the emulator, on a run large enough for its pace to show: 300 jobs followed within the
 * service's rate limit. The bundles' cancellations, timeouts, faults and post steps are the fault
 * matrix's (`test/e2e/fault-matrix/`); what the engine does, `test/engine-scenarios/`.
 */
import path from 'node:path';
import { runStep, type StepResult } from '@sauce-actions/action-harness';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from './seed.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const ACCESS_KEY = 'demo-access-key';
const steps: StepResult[] = [];

afterAll(async () => {
  await Promise.all(steps.map((step) => step.cleanup()));
});

async function step(inputs: Record<string, string>): Promise<StepResult> {
  const result = await runStep({
    actionDir: path.join(ROOT, 'actions', 'run-suite-and-wait'),
    inputs: { username: 'demo', 'access-key': ACCESS_KEY, 'poll-interval': '1s', ...inputs },
    context: { runNumber: '7', runAttempt: '2' },
  });
  steps.push(result);
  expect(result.unmaskedLog).not.toContain(ACCESS_KEY);
  return result;
}

describe('run-suite-and-wait bundle on a large run under a rate limit', () => {
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
      requests: { path: string; method: string; status: number; time: string }[];
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
