/**
 * A report of a workflow run: the runs gathered from the service ordered into attempts, the items
 * no step ran, why such a report fails, and the check run of its results.
 */
import { describe, expect, it } from 'vitest';
import type { GatheredRun } from '../../src/test-run/adapter.ts';
import {
  attemptsOfRuns,
  gatheredFailure,
  itemsNotRun,
  notRunJob,
  runInputsWarning,
} from '../../src/test-run/gather.ts';
import type { ReportedJobStatus } from '../../src/test-run/job-report.ts';
import { checkRunOf } from '../../src/test-run/publish.ts';
import { testResults } from '../../src/test-run/results.ts';

const expected = ['a', 'b', 'c', 'd'].map((item) => ({ item, name: `Case ${item}` }));

function gathered(
  item: string,
  status: ReportedJobStatus,
  createdAt: number,
  platform = 'chrome',
): GatheredRun {
  const id = `${item}-${platform}-${createdAt}`;
  return {
    item,
    job: { id, name: `Case ${item}`, platform, status, url: `https://x/${id}` },
    jobId: id,
    record: null,
    createdAt,
  };
}

describe('attemptsOfRuns', () => {
  it('orders each item’s runs on a platform by creation into attempts, items in the expected order', () => {
    // Listed newest first, shards interleaved, as the service lists them.
    const runs = [
      gathered('c', 'passed', 30),
      gathered('b', 'passed', 25),
      gathered('a', 'failed', 21),
      gathered('b', 'failed', 12),
      gathered('a', 'failed', 11),
      gathered('c', 'passed', 10, 'firefox'),
    ];
    const attempts = attemptsOfRuns(runs, expected);
    expect(attempts.map((attempt) => attempt.map(({ job }) => job.id))).toEqual([
      ['a-chrome-11', 'b-chrome-12', 'c-chrome-30', 'c-firefox-10'],
      ['a-chrome-21', 'b-chrome-25'],
    ]);
    const results = testResults(attempts, 0);
    expect(results.tally).toMatchObject({ total: 4, passed: 3, failed: 1, flaky: 1 });
    expect(results.jobs.find((job) => job.name === 'Case b')!.attempts).toEqual([
      { id: 'b-chrome-12', url: 'https://x/b-chrome-12', status: 'failed' },
    ]);
  });

  it('puts the stand-ins of items not run in the first attempt, in their place', () => {
    const runs = [gathered('a', 'passed', 1), gathered('c', 'passed', 2)];
    const missing = itemsNotRun(runs, expected);
    expect(missing.map(({ item }) => item)).toEqual(['b', 'd']);
    const standIns = missing.map((item) => ({ item: item.item, job: notRunJob(item), record: null }));
    const results = testResults(attemptsOfRuns(runs, expected, standIns), 0);
    expect(results.jobs.map((job) => `${job.name} ${job.status}`)).toEqual([
      'Case a passed',
      'Case b error',
      'Case c passed',
      'Case d error',
    ]);
    expect(results.tally).toMatchObject({ total: 4, passed: 2, failed: 2 });
  });
});

describe('gatheredFailure', () => {
  const where = {
    itemsName: 'cases',
    where: 'suite "Regression"',
    searched: 'build "nightly 42"',
    buildInput: 'build-name',
  };
  const tally = { total: 4, passed: 2, failed: 2, queued: 0, running: 0, stopped: 0, finished: 4, flaky: 0 };

  it.each([
    [2, /^2 cases of suite "Regression" were not run by any step: Case b, Case c\. .* 2 of 4 passed\.$/],
    [
      1,
      /^1 of the cases of suite "Regression" was not run by any step: Case b\. .* 2 of 4 passed, 1 failed\.$/,
    ],
  ])('fails a report with %i item(s) not run, naming them', (count, message) => {
    const failure = gatheredFailure(expected.slice(1, 1 + count), tally, where);
    expect(failure).toEqual({ kind: 'tests-failed', message: expect.stringMatching(message) });
  });

  it.each([
    [2, /^2 jobs had not finished when the report was made/],
    [1, /^1 job had not finished when the report was made/],
  ])('fails a report with %i unfinished job(s)', (running, message) => {
    const failure = gatheredFailure([], { ...tally, failed: 0, running, finished: 4 - running }, where);
    expect(failure?.message).toMatch(message);
  });

  it('says where it looked when no item has a job at all, as with a build-name not the shards\u2019', () => {
    const failure = gatheredFailure(expected, { ...tally, passed: 0, failed: 4 }, where);
    expect(failure).toEqual({
      kind: 'tests-failed',
      message:
        'No job of the 4 cases of suite "Regression" was found in build "nightly 42": give the report the `build-name` the shards were given (and the same cases), make its job wait for them (`needs:`), or run the failed shards again if none started.',
    });
  });

  it('leaves a report of finished jobs to the action', () => {
    expect(gatheredFailure([], tally, where)).toBeUndefined();
  });
});

describe('checkRunOf', () => {
  const results = testResults([[gathered('a', 'passed', 1), gathered('b', 'failed', 2)]], 0);

  it.each([
    ['a failed step', { kind: 'tests-failed' as const, message: 'failed' }, true, 'failure', 'failure'],
    ['a timed-out step', { kind: 'timeout' as const, message: 'late' }, true, 'timed_out', 'failure'],
    ['jobs failed, the step green', undefined, false, 'neutral', 'warning'],
  ])('%s', (_, failure, failOnFailure, conclusion, level) => {
    const check = checkRunOf({ name: 'Sauce', summary: 'body' }, results, failure, failOnFailure);
    expect(check).toMatchObject({ name: 'Sauce', conclusion, title: '1 of 2 passed, 1 failed' });
    expect(check.annotations).toEqual([expect.objectContaining({ level, title: 'Case b (chrome)' })]);
  });

  it('passes when every job passed', () => {
    const passed = testResults([[gathered('a', 'passed', 1)]], 0);
    expect(checkRunOf({ name: 'Sauce', summary: 'body' }, passed, undefined, true)).toMatchObject({
      conclusion: 'success',
      annotations: [],
    });
  });
});

describe('runInputsWarning', () => {
  it.each<[Record<string, boolean>, string | undefined]>([
    [{}, undefined],
    [{ retries: false, 'tunnel-name': false }, undefined],
    [
      { retries: true, 'tunnel-name': false },
      '`operation: report` starts nothing, so `retries` changes nothing in this step: it belongs in the steps that run the shards.',
    ],
    [
      { retries: true, 'tunnel-name': true, tags: true },
      '`operation: report` starts nothing, so `retries`, `tunnel-name`, `tags` change nothing in this step: they belong in the steps that run the shards.',
    ],
  ])('%o: %s', (given, warning) => {
    expect(runInputsWarning(given)).toBe(warning);
  });
});

describe('a report whose search could not read all it needed', () => {
  const tally = { total: 4, passed: 2, failed: 2, finished: 4, flaky: 0, queued: 0, running: 0, stopped: 0 };
  const context = {
    itemsName: 'cases',
    where: 'suite "Nightly"',
    searched: 'build "N"',
    buildInput: 'build-name',
  };
  const incomplete = "the search read the newest 1,000 pages of the account's jobs and stopped there";

  it('says the missing items were not found, never that they were not run', () => {
    const failure = gatheredFailure(expected.slice(0, 2), tally, { ...context, incomplete });
    expect(failure?.message).toBe(
      `2 cases of suite "Nightly" were not found, because ${incomplete}: they may have run. Run the report again once the service answers; 2 of 4 passed.`,
    );
    expect(failure?.message).not.toMatch(/not run/);
    expect(notRunJob(expected[0]!, '', incomplete).detail).toBe(
      `not found: ${incomplete}, so it may have run`,
    );
  });

  it('with every item found, fails no more than a complete search would', () => {
    expect(gatheredFailure([], tally, { ...context, incomplete })).toBeUndefined();
  });
});
