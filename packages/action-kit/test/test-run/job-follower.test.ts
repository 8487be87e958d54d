import type { Job, ListJobsParams } from '@sauce-actions/api';
import { describe, expect, it } from 'vitest';
import { followJobs, START_MARGIN_MS, stopJobs, stopRunJobs } from '../../src/test-run/job-follower.ts';
import { isKnownJobStatus, reportedStatus } from '../../src/test-run/job-status.ts';
import { RequestPacer } from '../../src/step/request-pacer.ts';

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
      const all = jobs().filter(
        (j) => params.from === undefined || (j.creation_time ?? 0) >= Number(params.from),
      );
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
      pacer: new RequestPacer(0),
      onPoll: () => void (poll += 1),
      now: c.now,
      sleep: c.sleep,
    });
    expect(result.complete).toBe(true);
    expect(result.jobs.map((j) => j.id).sort()).toEqual(['j0', 'j1', 'j2', 'j3', 'j4']);
    expect(fake.calls.every((call) => call.full === true && call.limit === 3)).toBe(true);
    // First poll: 8 jobs in pages of 3 → 3 requests; then the bound moves to the oldest unfinished (1000 - 1).
    expect(fake.calls[0]?.from).toBe(Math.floor((1_000_000 - START_MARGIN_MS) / 1000));
    expect(fake.calls.at(-1)?.from).toBe(999);
    expect(result.polls).toBe(3);
    // Nothing ended between polls 1 and 2, but the gap stays within a third of the time followed.
    expect(c.sleeps).toEqual([1000, 1000]);
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
      pacer: new RequestPacer(0),
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

  it('warns once per job about a status the service does not document, naming it, and keeps following it', async () => {
    let polls = 0;
    const warnings: string[] = [];
    const c = clock();
    const result = await followJobs({
      jobs: lister(() =>
        polls < 3
          ? [
              job('a', 'paused', { name: 'Checkout\n::error::x' }),
              job('b', 'in progress'),
              job('c', 'Suspended\u0007'),
            ]
          : [job('a', 'complete'), job('b', 'complete'), job('c', 'complete')],
      ),
      builds: ['B'],
      expectedCount: 3,
      startedAtMs: 0,
      intervalMs: 10,
      pacer: new RequestPacer(0),
      onPoll: () => void (polls += 1),
      warn: (message) => warnings.push(message),
      now: c.now,
      sleep: c.sleep,
    });
    expect(result.complete).toBe(true);
    expect(result.polls).toBe(4);
    expect(warnings).toEqual([
      'Job "Checkout ::error::x" (a) reports the status "paused", which Sauce Labs does not document: it is taken as not finished, and followed until it finishes or `timeout` passes.',
      'Job "c" (c) reports the status "Suspended", which Sauce Labs does not document: it is taken as not finished, and followed until it finishes or `timeout` passes.',
    ]);
  });

  it.each([
    ['new', true],
    ['queued', true],
    ['In Progress', true],
    ['complete', true],
    ['error', true],
    ['passed', true],
    ['failed', true],
    ['paused', false],
    ['', false],
    [undefined, false],
  ])('status %j is documented: %s', (status, known) => {
    expect(isKnownJobStatus(status)).toBe(known);
  });

  it('returns what it saw, incomplete, when the signal aborts', async () => {
    const controller = new AbortController();
    const result = await followJobs({
      jobs: lister(() => [job('a', 'in progress')]),
      builds: ['B'],
      pacer: new RequestPacer(0),
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
      { pacer: new RequestPacer(0) },
    );
    expect(result.stopped.sort()).toEqual(['a', 'c']);
    expect(result.failed).toEqual([{ id: 'bad', error: 'nope' }]);
  });
});

describe('listing is bounded', () => {
  it('ends a listing at a page that repeats the one before (a service that ignores skip)', async () => {
    const page = Array.from({ length: 2 }, (_, i) => job(`j${i}`, 'complete'));
    let calls = 0;
    const result = await followJobs({
      jobs: {
        list: async () => {
          calls += 1;
          return page;
        },
      },
      builds: ['B'],
      expectedCount: 2,
      startedAtMs: 1_000_000,
      intervalMs: 10,
      pageSize: 2,
      pacer: new RequestPacer(0),
      signal: AbortSignal.timeout(2000),
    });
    expect(result.complete).toBe(true);
    expect(result.jobs.map((j) => j.id)).toEqual(['j0', 'j1']);
    // The first page, then the repeat that ends the listing.
    expect(calls).toBe(2);
  });
});

describe('stopJobs when time runs out', () => {
  it('tries nothing once the signal has aborted, and reports what was left', async () => {
    const tried: string[] = [];
    const controller = new AbortController();
    controller.abort();
    const result = await stopJobs({ stop: async (id: string) => void tried.push(id) }, ['a', 'b'], {
      signal: controller.signal,
      pacer: new RequestPacer(0),
    });
    expect(tried).toEqual([]);
    expect(result.stopped).toEqual([]);
    expect(result.failed.map((f) => f.id).sort()).toEqual(['a', 'b']);
    expect(result.failed[0]?.error).toBe('not tried: the time to stop jobs ran out');
  });
});

describe('stopRunJobs', () => {
  /** Jobs that show in the list only from the given listing on, and stop as the service does. */
  function service(shows: { job: Job; fromListing: number }[]) {
    let listings = 0;
    const stopped: string[] = [];
    const visible = () =>
      shows
        .filter((s) => s.fromListing <= listings)
        .map((s) => (stopped.includes(s.job.id) ? { ...s.job, status: 'error' } : s.job));
    return {
      stopped,
      get listings() {
        return listings;
      },
      list: async (params: ListJobsParams) => {
        listings += 1;
        return visible().slice(params.skip ?? 0, (params.skip ?? 0) + (params.limit ?? 100));
      },
      stop: async (id: string) => {
        stopped.push(id);
        return {};
      },
    };
  }

  it('keeps listing until the jobs that show late are found, and stops each unfinished one', async () => {
    const fake = service([
      { job: job('a', 'queued'), fromListing: 1 },
      { job: job('done', 'complete'), fromListing: 1 },
      { job: job('late', 'queued'), fromListing: 3 },
      { job: job('other', 'queued', { build: 'someone else' }), fromListing: 1 },
    ]);
    const result = await stopRunJobs({
      jobs: fake,
      builds: ['B'],
      expectedCount: 3,
      startedAtMs: 1_000_000,
      stop: true,
      graceMs: 5000,
      intervalMs: 10,
      pacer: new RequestPacer(0),
    });
    expect(fake.stopped.sort()).toEqual(['a', 'late']);
    expect(result.stopped.sort()).toEqual(['a', 'late']);
    expect(result.failed).toEqual([]);
    expect(result.missing).toBe(0);
    expect(result.jobs.map((j) => j.id).sort()).toEqual(['a', 'done', 'late']);
    expect(fake.listings).toBe(3);
  });

  it('stops known ids even when no listing shows them, and gives up at its own deadline', async () => {
    const fake = service([]);
    const started = Date.now();
    const result = await stopRunJobs({
      jobs: fake,
      builds: ['B'],
      jobIds: ['known'],
      expectedCount: 2,
      startedAtMs: 1_000_000,
      stop: true,
      graceMs: 300,
      intervalMs: 20,
      pacer: new RequestPacer(0),
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result.stopped).toEqual(['known']);
    expect(result.missing).toBe(1);
  });

  it('only finds the jobs when told not to stop them', async () => {
    const fake = service([{ job: job('a', 'in progress'), fromListing: 1 }]);
    const result = await stopRunJobs({
      jobs: fake,
      builds: ['B'],
      minimumCount: 1,
      startedAtMs: 1_000_000,
      stop: false,
      graceMs: 1000,
      pacer: new RequestPacer(0),
    });
    expect(fake.stopped).toEqual([]);
    expect(result.jobs.map((j) => j.id)).toEqual(['a']);
    expect(fake.listings).toBe(1);
  });

  it('reports the stops that failed, and the listing error', async () => {
    const result = await stopRunJobs({
      jobs: {
        list: async () => {
          throw new Error('listing down');
        },
        stop: async () => {
          throw new Error('stop refused');
        },
      },
      builds: ['B'],
      jobIds: ['x'],
      startedAtMs: 1_000_000,
      stop: true,
      graceMs: 200,
      intervalMs: 20,
      pacer: new RequestPacer(0),
    });
    expect(result.stopped).toEqual([]);
    expect(result.failed).toEqual([{ id: 'x', error: expect.stringMatching(/stop refused|ran out|abort/i) }]);
    expect(result.error).toBe('listing down');
  });
});
