import type { Job, ListJobsParams } from '@sauce-actions/api';
import { describe, expect, it } from 'vitest';
import { followJobs, reportedStatus, RequestPacer, stopJobs } from '../src/job-follower.ts';

const job = (id: string, status: string, extra: Partial<Job> = {}): Job =>
  ({
    id,
    name: id,
    build: 'B',
    status,
    passed: status === 'complete' ? true : null,
    creation_time: 1000,
    ...extra,
  }) as Job;

/** A fake list answering from a mutable set of jobs, newest first, recording every call. */
function lister(jobs: () => Job[]) {
  const calls: ListJobsParams[] = [];
  return {
    calls,
    list: async (params: ListJobsParams) => {
      calls.push(params);
      const all = jobs().filter((j) => params.from === undefined || j.creation_time >= Number(params.from));
      return all.slice(params.skip ?? 0, (params.skip ?? 0) + (params.limit ?? 100));
    },
  };
}

const clock = () => {
  let t = 1_000_000;
  const sleeps: number[] = [];
  return { now: () => t, sleep: async (ms: number) => void (sleeps.push(ms), (t += ms)), sleeps };
};

describe('followJobs', () => {
  it('pages through whole jobs of the build, ignores others, and stops when all expected are finished', async () => {
    let poll = 0;
    const others = Array.from({ length: 3 }, (_, i) => job(`x${i}`, 'in progress', { build: 'other' }));
    const fake = lister(() => {
      const done = poll >= 2;
      return [
        ...others,
        ...Array.from({ length: 5 }, (_, i) =>
          job(`j${i}`, done ? 'complete' : 'in progress', { creation_time: 1000 + i }),
        ),
      ];
    });
    const c = clock();
    const result = await followJobs({
      jobs: fake,
      builds: ['B'],
      expectedCount: 5,
      startedAtMs: 1_000_000,
      intervalMs: 1000,
      pageSize: 3,
      maxRequestsPerSecond: 0,
      onPoll: () => void (poll += 1),
      now: c.now,
      sleep: c.sleep,
    });
    expect(result.complete).toBe(true);
    expect(result.jobs.map((j) => j.id).sort()).toEqual(['j0', 'j1', 'j2', 'j3', 'j4']);
    expect(fake.calls.every((call) => call.full === true && call.limit === 3)).toBe(true);
    // First poll: 8 jobs in pages of 3 → 3 requests; then the bound moves to the oldest unfinished (1000 - 1).
    expect(fake.calls[0]?.from).toBe(Math.floor((1_000_000 - 300_000) / 1000));
    expect(fake.calls.at(-1)?.from).toBe(999);
    expect(result.polls).toBe(3);
    // Nothing changed between polls 1 and 2: the interval grew.
    expect(c.sleeps).toEqual([1000, 1500]);
  });

  it('without an expected count, waits until the count stops growing', async () => {
    let jobs = [job('a', 'complete')];
    let polls = 0;
    const c = clock();
    const result = await followJobs({
      jobs: lister(() => jobs),
      builds: ['B'],
      minimumCount: 1,
      settlePolls: 2,
      startedAtMs: 0,
      intervalMs: 10,
      maxRequestsPerSecond: 0,
      onPoll: () => {
        polls += 1;
        if (polls === 1) jobs = [...jobs, job('b', 'complete')];
      },
      now: c.now,
      sleep: c.sleep,
    });
    expect(result.jobs).toHaveLength(2);
    expect(result.polls).toBe(4);
  });

  it('returns what it saw, incomplete, when the signal aborts', async () => {
    const controller = new AbortController();
    const result = await followJobs({
      jobs: lister(() => [job('a', 'in progress')]),
      builds: ['B'],
      expectedCount: 1,
      startedAtMs: 0,
      intervalMs: 5,
      signal: controller.signal,
      onPoll: () => controller.abort(new Error('cancelled')),
    });
    expect(result.complete).toBe(false);
    expect(result.jobs.map((j) => j.id)).toEqual(['a']);
  });
});

describe('reportedStatus', () => {
  it('maps the service states', () => {
    expect(reportedStatus(job('a', 'queued'))).toBe('queued');
    expect(reportedStatus(job('a', 'in progress'))).toBe('running');
    expect(reportedStatus(job('a', 'complete'))).toBe('passed');
    expect(reportedStatus(job('a', 'complete', { passed: false }))).toBe('failed');
    expect(reportedStatus(job('a', 'complete', { passed: null }))).toBe('failed');
    expect(reportedStatus(job('a', 'error'))).toBe('error');
    expect(reportedStatus(job('a', 'error'), new Set(['a']))).toBe('stopped');
    expect(reportedStatus(job('a', 'failed'))).toBe('failed');
  });
});

describe('RequestPacer and stopJobs', () => {
  it('spaces requests to the rate', async () => {
    const c = clock();
    const pacer = new RequestPacer(5, c.now, c.sleep);
    for (let i = 0; i < 3; i++) await pacer.take();
    expect(c.sleeps).toEqual([200, 200]);
    expect(pacer.count).toBe(3);
  });

  it('stops every job, reporting the ones that could not be stopped', async () => {
    const result = await stopJobs(
      {
        stop: async (id: string) => {
          if (id === 'bad') throw new Error('nope');
        },
      },
      ['a', 'bad', 'c'],
      { maxRequestsPerSecond: 0 },
    );
    expect(result.stopped.sort()).toEqual(['a', 'c']);
    expect(result.failed).toEqual([{ id: 'bad', error: 'nope' }]);
  });
});
