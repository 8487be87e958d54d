/**
 * What the interface counts of an account's jobs (concurrency, live activity, activity over a
 * duration, a tunnel's jobs running when it is shut down), at clock positions before, during and
 * after the jobs, against the same figures computed from every record of the account.
 */
import { describe, expect, it } from 'vitest';
import { isFinished } from '../../src/automation/job-view.ts';
import type { JobRecord } from '../../src/automation/model.ts';
import { activityCounts, activitySummary } from '../../src/automation/usage.ts';
import { defaultSeed } from '../../src/index.ts';
import { DEMO_USER, withEmulator } from '../support/emulator.ts';
import { call } from '../support/http.ts';

const SUB = 'demo-sub';
const T0 = Date.UTC(2026, 0, 1, 12);
const DAY = 86_400_000;

const seed = defaultSeed();
seed.automation.users.push({ username: SUB, accessKey: 'sub-key', parent: DEMO_USER });

describe('counts of an account’s jobs', () => {
  let now = T0;
  // Created jobs take 10 s; the seed's took 60 s and ended an hour before T0.
  const handle = withEmulator({ seed, clock: () => now, jobDurationMs: 10_000 });

  function populate(): void {
    const { jobs } = handle.emulator.context.automation;
    const make = (
      at: number,
      extra: { os?: string; owner?: string; tunnel?: boolean; maxDurationMs?: number },
    ) => {
      now = at;
      return jobs.create({
        name: 'counted',
        build: 'counts',
        browser: 'chrome',
        os: extra.os ?? 'Linux',
        passes: true,
        ...(extra.owner ? { owner: extra.owner } : {}),
        ...(extra.tunnel ? { tunnelIdentifier: 'demo-tunnel' } : {}),
        ...(extra.maxDurationMs ? { maxDurationMs: extra.maxDurationMs } : {}),
      }).id;
    };
    make(T0, { tunnel: true });
    make(T0 + 1000, { os: 'macOS 14', tunnel: true });
    make(T0 + 2000, { os: 'Windows 11' });
    const stopped = make(T0 + 3000, { tunnel: true });
    make(T0 + 4000, { maxDurationMs: 2000 });
    make(T0 + 4000, { owner: SUB, os: 'OS X 10.15' });
    make(T0 - 40 * DAY, {});
    now = T0 + 4000;
    jobs.stop(stopped);
  }

  const ofOwner = (owner: string): JobRecord[] =>
    Object.values(handle.emulator.context.automation.data.jobs).filter((job) => job.owner === owner);
  const get = async (path: string) =>
    (await call(`${handle.url}/rest/v1${path}`)).json as Record<string, unknown>;

  const moments = [
    { label: 'while a seeded job ran', at: T0 - 3_630_000 },
    { label: 'before the jobs, after the seed', at: T0 - 60_000 },
    { label: 'at the first job', at: T0 },
    { label: 'one second in', at: T0 + 1000 },
    { label: 'five seconds in', at: T0 + 5000 },
    { label: 'nine seconds in', at: T0 + 9000 },
    { label: 'twelve seconds in', at: T0 + 12_000 },
    { label: 'a minute in', at: T0 + 60_000 },
    { label: 'two days on', at: T0 + 2 * DAY },
  ];

  it.each(moments)('counts as every record does $label', async ({ at }) => {
    populate();
    now = at;
    const concurrency = (await get(`/users/${DEMO_USER}/concurrency`)).concurrency as Record<
      string,
      { current: { overall: number; mac: number } }
    >;
    const live = (await get(`/${DEMO_USER}/activity`)).subaccounts as Record<string, unknown>;
    for (const owner of [DEMO_USER, SUB]) {
      const running = ofOwner(owner).filter((job) => !isFinished(job, at));
      expect(concurrency[owner]!.current).toMatchObject({
        overall: running.length,
        mac: running.filter((job) => /mac|os x/i.test(job.os)).length,
      });
      expect(live[owner]).toEqual(activityCounts(ofOwner(owner), at));
    }
    for (const days of [1, 30, 90]) {
      const summary = await get(`/users/${DEMO_USER}/activity?duration=${days}`);
      const expected = activitySummary(ofOwner(DEMO_USER), at, days * DAY);
      expect({ days, summary }).toMatchObject({ days, summary: expected });
    }
    const tunnel = handle.emulator.context.automation.tunnels.of(DEMO_USER)[0]!;
    const shutdown = await call(`${handle.url}/rest/v1/${DEMO_USER}/tunnels/${tunnel.id}`, {
      method: 'DELETE',
    });
    const through = ofOwner(DEMO_USER).filter((job) => job.tunnelId === tunnel.id && !isFinished(job, at));
    expect(shutdown.json).toMatchObject({ jobs_running: through.length });
  });

  it('counts a job running through the tunnel, and none once it ended', async () => {
    populate();
    const tunnel = handle.emulator.context.automation.tunnels.of(DEMO_USER)[0]!;
    const jobsRunning = async (at: number) => {
      now = at;
      const answer = await call(`${handle.url}/rest/v1/${DEMO_USER}/tunnels/${tunnel.id}`, {
        method: 'DELETE',
      });
      return (answer.json as { jobs_running: number }).jobs_running;
    };
    // At T0 + 5 s the first two through the tunnel run; the third was stopped.
    expect(await jobsRunning(T0 + 5000)).toBe(2);
    expect(await jobsRunning(T0 + 10_500)).toBe(1);
    expect(await jobsRunning(T0 + 11_000)).toBe(0);
  });
});
