/**
 * The job follower against the emulator, when other jobs of a matrix spend the account's rate
 * budget: a poll whose listing met a 429 doubles the next wait, and polls that meet none bring it
 * back down, as the client's own `poll` does.
 */
import { RequestPacer } from '../../src/step/request-pacer.ts';
import { SauceClient } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { followJobs } from '../../src/test-run/job-follower.ts';

let emulator: RunningEmulator | undefined;
let client: SauceClient | undefined;
afterEach(async () => {
  await client?.close();
  await emulator?.close();
});

async function addFault(url: string, rule: object): Promise<void> {
  const response = await fetch(`${url}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  });
  expect(response.status).toBe(201);
}

describe('followJobs on a contended account', () => {
  it('waits longer after polls that met a 429, and comes back to its interval after', async () => {
    emulator = await startEmulator({ port: 0, jobDurationMs: 60_000 });
    client = new SauceClient({ username: 'demo', accessKey: 'demo-access-key', apiUrl: emulator.url });
    const { id } = emulator.context.automation.jobs.create({
      owner: 'demo',
      name: 'case',
      build: 'nightly',
      browser: 'chrome',
      os: 'Windows 11',
      passes: true,
    });
    // The listings of the first two polls are refused once each (and then answered).
    const refuseOnce = { method: 'GET', path: '/rest/v1/demo/jobs', status: 429, retryAfter: 0 };
    await addFault(emulator.url, refuseOnce);

    const { url } = emulator;
    const waits: number[] = [];
    const contended: boolean[] = [];
    const stop = new AbortController();
    let t = 0;
    const result = await followJobs({
      jobs: client.automation.jobs,
      builds: ['nightly'],
      jobIds: [id],
      startedAtMs: Date.now(),
      intervalMs: 1000,
      pacer: new RequestPacer(0),
      signal: stop.signal,
      random: () => 0.5,
      onPoll: (progress) => void contended.push(progress.contended),
      now: () => t,
      sleep: async (ms) => {
        waits.push(ms);
        t += ms;
        if (waits.length === 1) await addFault(url, refuseOnce);
        if (waits.length === 5) stop.abort(new Error('enough polls'));
      },
    });

    expect(result.complete).toBe(false);
    expect(result.jobs.map((job) => job.id)).toEqual([id]);
    expect(contended).toEqual([true, true, false, false, false]);
    // Nothing ends, so the gap grows 1.5× a poll within a third of the time followed (1000, 1000,
    // 1500, 2250, 3375); contention doubles the wait, up to 4 × 1 s, and a poll without it halves
    // that back, never under the gap.
    expect(waits).toEqual([2000, 4000, 3000, 2250, 3375]);
  });
});
