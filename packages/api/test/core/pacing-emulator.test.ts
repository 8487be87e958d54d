/**
 * Pacing against the emulator's `--rate-limit`: one client alone keeps under the limit without a
 * single 429, and six jobs of a matrix, each its own process, share an account of four requests
 * a second with no more 429s than there are jobs: a job's first request cannot be paced, having
 * seen no rate header yet, and on a loaded machine the jobs' first requests land in any window,
 * so one 429 a job is what pacing can promise; every later request is paced.
 */
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { runMatrix } from '../../../../bench/support/matrix.ts';
import { startEmulatorProcess, type ListeningProcess } from '../../../../bench/support/processes.ts';
import { SauceClient } from '../../src/index.ts';

interface JournalEntry {
  status: number;
}

async function statuses(url: string): Promise<number[]> {
  const response = await fetch(`${url}/_emulator/requests`);
  return ((await response.json()) as { requests: JournalEntry[] }).requests.map((entry) => entry.status);
}

// The two groups run side by side, each against an emulator of its own.
describe.concurrent('one client against the emulator’s rate limit', () => {
  let emulator: RunningEmulator | undefined;
  afterEach(async () => {
    await emulator?.close();
  });

  async function burst(pacing: boolean): Promise<{ statuses: number[]; ms: number }> {
    emulator = await startEmulator({ port: 0, rateLimit: 4 });
    const client = new SauceClient({
      username: 'demo',
      accessKey: 'demo-access-key',
      apiUrl: emulator.url,
      retry: { pacing },
    });
    const started = performance.now();
    try {
      // Both interfaces of one account, on one address: one budget.
      for (let index = 0; index < 4; index++) {
        await client.automation.jobs.list({ limit: 5 });
        await client.authoring.testSuites.list();
      }
    } finally {
      await client.close();
    }
    const ms = performance.now() - started;
    const seen = await statuses(emulator.url);
    await emulator.close();
    emulator = undefined;
    return { statuses: seen, ms };
  }

  it('spreads its requests before the limit refuses any, where without pacing it meets 429s', async () => {
    const paced = await burst(true);
    expect(paced.statuses.filter((status) => status === 429)).toEqual([]);
    expect(paced.statuses).toHaveLength(8);
    // One request in the first window (others may start with it), then three a window.
    expect(paced.ms).toBeGreaterThan(2000);

    const unpaced = await burst(false);
    expect(unpaced.statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(unpaced.statuses.filter((status) => status === 200)).toHaveLength(8);
  });
});

describe.concurrent('six matrix jobs on one account', () => {
  let emulator: ListeningProcess | undefined;
  afterEach(async () => {
    await emulator?.stop();
  });

  it('all finish, with no more 429s than jobs, the emulator allowing four requests a second', async () => {
    emulator = await startEmulatorProcess(['--rate-limit', '4', '--job-duration-ms', '2000']);
    const result = await runMatrix({ url: emulator.url, jobs: 6, pacing: true, timeoutMs: 40_000 });
    expect(result.jobs.map((job) => job.error ?? 'finished')).toEqual(Array(6).fill('finished'));
    // Each ran Smoke: three jobs, "Checkout fails" failing.
    expect(result.jobs.map((job) => [job.jobs, job.passed, job.failed])).toEqual(Array(6).fill([3, 2, 1]));
    expect(result.rateLimited).toBeLessThanOrEqual(result.jobs.length);
  });
});
