/**
 * What a poll reads: a window narrowed to the run's own jobs once all were seen, in pages as wide
 * as the service serves, or the few jobs left by id when that takes fewer requests. Against the
 * fake account of `support/account-jobs.ts`, on a clock of the test's.
 */
import { RequestPacer } from '../../src/step/request-pacer.ts';
import type { Job } from '@sauce-actions/api';
import { describe, expect, it } from 'vitest';
import { followJobs } from '../../src/test-run/job-follower.ts';
import { accountJobs, jobsOf } from './support/account-jobs.ts';

const NOW = 1_800_000_000;

function testClock() {
  let t = 0;
  return { now: () => t, sleep: async (ms: number) => void (t += ms) };
}

/** The run's jobs: `count` of build `mine`, created a second apart, ending after `endPoll` polls. */
function run(count: number, endPoll: () => number, at: number) {
  let polls = 0;
  const jobs = (): Job[] =>
    jobsOf('mine', count, at, 'in progress').map((job, index) =>
      polls >= endPoll() + index ? { ...job, status: 'complete', passed: true, end_time: NOW } : job,
    );
  return { jobs, polled: () => void (polls += 1) };
}

describe('a poll’s window', () => {
  it('once every job of the run was seen, ends at the newest of them, whatever others start later', async () => {
    const mine = run(3, () => 3, NOW - 100);
    let later: Job[] = [];
    const account = accountJobs(() => [...jobsOf('other', 10, NOW - 500), ...mine.jobs(), ...later]);
    const clock = testClock();
    const result = await followJobs({
      jobs: { list: account.list },
      builds: ['mine'],
      expectedCount: 3,
      startedAtMs: (NOW - 100) * 1000,
      serviceNow: () => NOW * 1000,
      intervalMs: 1000,
      pacer: new RequestPacer(0),
      onPoll: () => {
        mine.polled();
        // Another pipeline starts 5,000 jobs after the run's.
        later = jobsOf('later', 5000, NOW - 90);
      },
      now: clock.now,
      sleep: clock.sleep,
    });
    expect(result.complete).toBe(true);
    const windows = account.calls.map(({ from, to, limit }) => [from, to, limit]);
    // The first poll: from the run's start less a minute, open-ended, 1,000 a page.
    expect(windows[0]).toEqual([NOW - 160, undefined, 1000]);
    // Then the oldest unfinished job to the newest of the run (created at NOW - 98), one page each.
    expect(windows.slice(1).every(([, to]) => to === NOW - 97)).toBe(true);
    expect(account.calls).toHaveLength(result.polls);
  });

  it('reads the jobs left by id when there are fewer than the window takes pages', async () => {
    // Two jobs of the run among 4,500 of another pipeline created in between: five pages a poll.
    const first = jobsOf('mine', 1, NOW - 100, 'in progress')[0]!;
    const last = { ...jobsOf('mine', 1, NOW - 10, 'in progress')[0]!, id: 'mine-last' };
    let polls = 0;
    const mine = (): Job[] =>
      [first, last].map((job) => (polls >= 4 ? { ...job, status: 'complete', passed: true } : job));
    const others = jobsOf('other', 4500, NOW - 99).map((job, k) => ({
      ...job,
      creation_time: NOW - 99 + (k % 80),
    }));
    const account = accountJobs(() => [...others, ...mine()]);
    const clock = testClock();
    const result = await followJobs({
      jobs: account,
      builds: ['mine'],
      jobIds: [first.id, last.id],
      startedAtMs: (NOW - 100) * 1000,
      serviceNow: () => NOW * 1000,
      intervalMs: 1000,
      pacer: new RequestPacer(0),
      onPoll: () => void (polls += 1),
      now: clock.now,
      sleep: clock.sleep,
    });
    expect(result.complete).toBe(true);
    // One listing of five pages found both (newest first); each of the four polls after it read
    // the two by id, the last seeing both ended.
    expect(account.calls).toHaveLength(5);
    expect(account.gets).toEqual(Array(4).fill([last.id, first.id]).flat());
    expect(result.requests).toBe(5 + 8);
  });
});
