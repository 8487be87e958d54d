/**
 * What the job searches make of a service in trouble and of clocks that lie: a listing that still
 * fails after the client's retries is ridden out by a run and leaves a report with what was read;
 * a wall clock set back an hour holds up neither the step's deadline nor the requests' pace; a job
 * dated in the future cannot move a run's window past the service's time now.
 */
import os from 'node:os';
import path from 'node:path';
import { ApiError, type Job, type ListJobsParams } from '@sauce-actions/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withDeadline } from '../../src/step/cancellation.ts';
import { findBuildJobs } from '../../src/test-run/build-search.ts';
import { followJobs, START_MARGIN_MS } from '../../src/test-run/job-follower.ts';
import { publishResults } from '../../src/test-run/publish.ts';
import { RequestPacer } from '../../src/step/request-pacer.ts';
import { testResults } from '../../src/test-run/results.ts';
import { recordingLogger } from '../../src/step/logger.ts';

afterEach(() => void vi.useRealTimers());

const serverError = (): ApiError =>
  new ApiError({ operation: 'listJobs', method: 'GET', url: '/jobs', status: 500, attempts: 5 });

const job = (id: string, status: string, creation: number | null = 1_700_000_000): Job =>
  ({ id, name: id, build: 'B', status, passed: status === 'complete', creation_time: creation }) as Job;

function fakeClock() {
  let t = 0;
  const sleeps: number[] = [];
  return { now: () => t, sleep: async (ms: number) => void (sleeps.push(ms), (t += ms)), sleeps };
}

describe('a run’s listing that fails after the retries', () => {
  it('is told and ridden out: the next poll lists again, and the run ends with every job', async () => {
    let calls = 0;
    const jobs = {
      list: async () => {
        calls += 1;
        if (calls === 2 || calls === 3) throw serverError();
        return [job('a', calls >= 4 ? 'complete' : 'in progress')];
      },
    };
    const warnings: string[] = [];
    const clock = fakeClock();
    const result = await followJobs({
      jobs,
      builds: ['B'],
      expectedCount: 1,
      startedAtMs: 1_700_000_000_000,
      intervalMs: 1000,
      pacer: new RequestPacer(0),
      now: clock.now,
      sleep: clock.sleep,
      warn: (message) => warnings.push(message),
    });
    expect(result.complete).toBe(true);
    expect(result.jobs.map(({ status }) => status)).toEqual(['complete']);
    expect(calls).toBe(4);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^Listing the jobs failed \(listJobs: 500 .*\); listing again at the next poll \(1 of 4 ridden out\)\.$/,
      ),
      expect.stringMatching(/\(2 of 4 ridden out\)\.$/),
    ]);
  });

  it('ends the wait after `maxFailedPolls` in a row, and at once on a refusal', async () => {
    const clock = fakeClock();
    const follow = (error: () => Error) => {
      let calls = 0;
      const jobs = {
        list: async (): Promise<Job[]> => {
          calls += 1;
          throw error();
        },
      };
      const done = followJobs({
        jobs,
        builds: ['B'],
        startedAtMs: 0,
        intervalMs: 1000,
        maxFailedPolls: 3,
        pacer: new RequestPacer(0),
        now: clock.now,
        sleep: clock.sleep,
      }).catch((caught: unknown) => caught);
      return done.then((caught) => ({ caught, calls }));
    };
    expect(await follow(serverError)).toMatchObject({ calls: 3, caught: { status: 500 } });
    const refused = () =>
      new ApiError({ operation: 'listJobs', method: 'GET', url: '/jobs', status: 401, attempts: 1 });
    expect(await follow(refused)).toMatchObject({ calls: 1, caught: { status: 401 } });
  });
});

describe('a run’s window', () => {
  it('starts at the run’s start on the service’s clock, and a job dated ahead cannot move it past the service’s now', async () => {
    const serviceNowMs = 1_700_000_600_000;
    const calls: ListJobsParams[] = [];
    let polls = 0;
    const jobs = {
      list: async (params: ListJobsParams) => {
        calls.push(params);
        polls += 1;
        // One job dated a year ahead, one of unknown time: neither may blind the next listing.
        return [
          job('a', polls < 3 ? 'in progress' : 'complete', 1_731_536_000),
          job('b', polls < 3 ? 'in progress' : 'complete', null),
        ];
      },
    };
    const clock = fakeClock();
    const result = await followJobs({
      jobs,
      builds: ['B'],
      expectedCount: 2,
      startedAtMs: serviceNowMs - 60_000,
      serviceNow: () => serviceNowMs,
      intervalMs: 1000,
      pacer: new RequestPacer(0),
      now: clock.now,
      sleep: clock.sleep,
    });
    expect(result.complete).toBe(true);
    expect(calls[0]?.from).toBe((serviceNowMs - 60_000 - START_MARGIN_MS) / 1000);
    // The job of unknown time keeps the bound where it was.
    expect(calls.map(({ from }) => from)).toEqual([calls[0]?.from, calls[0]?.from, calls[0]?.from]);
  });

  it('moves up to the oldest unfinished job, but never past the service’s time now less a minute', async () => {
    const serviceNowMs = 1_700_000_600_000;
    const calls: ListJobsParams[] = [];
    const jobs = {
      list: async (params: ListJobsParams) => {
        calls.push(params);
        return [job('a', calls.length < 3 ? 'in progress' : 'complete', 1_731_536_000)];
      },
    };
    const clock = fakeClock();
    await followJobs({
      jobs,
      builds: ['B'],
      expectedCount: 1,
      startedAtMs: serviceNowMs - 60_000,
      serviceNow: () => serviceNowMs,
      intervalMs: 1000,
      pacer: new RequestPacer(0),
      now: clock.now,
      sleep: clock.sleep,
    });
    expect(calls.at(-1)?.from).toBe(serviceNowMs / 1000 - 60);
  });
});

describe('a report’s search whose page fails after the retries', () => {
  const search = {
    builds: ['B'],
    itemOf: (found: Job) => found.id,
    items: 300,
    nowMs: 1_700_000_000_000,
    signal: new AbortController().signal,
    pacer: new RequestPacer(0),
  };

  it('keeps what was read, and names the page that failed', async () => {
    const jobs = {
      list: async ({ skip = 0 }: ListJobsParams) => {
        if (skip > 0) throw serverError();
        return Array.from({ length: 1000 }, (_, index) => job(`j${index}`, 'complete'));
      },
    };
    const found = await findBuildJobs(jobs, search);
    expect(found.jobs).toHaveLength(1000);
    expect(found.incomplete).toMatch(/^page 2 of the job listing failed: listJobs: 500/);
  });

  it('fails when not one page could be read: there is nothing to publish', async () => {
    const jobs = { list: async (): Promise<Job[]> => Promise.reject(serverError()) };
    await expect(findBuildJobs(jobs, search)).rejects.toMatchObject({ status: 500 });
  });

  it('publishes what was read with a warning and a line in the summary', async () => {
    const results = { ...testResults([], 0), incomplete: 'page 2 of the job listing failed: 500' };
    const logger = recordingLogger();
    const published = await publishResults(
      {
        outputs: () => ({ total: '0' }),
        summary: { format: 'html', blocks: ['<h2>Report</h2>\n', 'the jobs\n'] },
        resultsData: {},
        junitSuites: () => [],
      },
      results,
      {
        resultsFile: path.join(os.tmpdir(), `clocks-results-${process.pid}.json`),
        failOnFailure: true,
        logger,
      },
    );
    const notice =
      /The jobs shown may not be all: page 2 of the job listing failed: 500\. What was read is published\./;
    expect(published.annotations).toEqual([{ level: 'warning', message: expect.stringMatching(notice) }]);
    expect(published.summary).toMatchObject({
      blocks: ['<h2>Report</h2>\n', expect.stringMatching(notice), 'the jobs\n'],
    });
    expect(published.outputs).toEqual({ total: '0' });
  });
});

describe('a wall clock set back an hour', () => {
  it('leaves the step’s deadline where it was', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const started = performance.now();
    const deadline = withDeadline(new AbortController().signal, 300);
    vi.setSystemTime(Date.now() - 3_600_000);
    try {
      await new Promise((resolve) => deadline.signal.addEventListener('abort', resolve, { once: true }));
      expect(performance.now() - started).toBeLessThan(60_000);
      expect(deadline.signal.reason).toMatchObject({ name: 'TimeoutError', timeoutMs: 300 });
    } finally {
      deadline.dispose();
    }
  });

  it('does not hold the next request up for the hour', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const sleeps: number[] = [];
    const pacer = new RequestPacer(5, undefined, async (ms) => void sleeps.push(ms));
    await pacer.take();
    vi.setSystemTime(Date.now() - 3_600_000);
    await pacer.take();
    expect(sleeps.every((ms) => ms <= 200)).toBe(true);
  });
});
