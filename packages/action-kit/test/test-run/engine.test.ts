/**
 * The test-run engine with an adapter of its own: items whose runs come out as a script says,
 * so that each rule of the loop (retries, fail-fast, a start cut off, a retry that cannot start,
 * a wait that ends early, the post step's record, the files) shows without a service.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionResult } from '../../src/reporting/result.ts';
import { ActionError, CancelledError, describeFailure } from '../../src/step/failure.ts';
import type { Run, TestRunOptions } from '../../src/test-run/adapter.ts';
import { runTests } from '../../src/test-run/engine.ts';
import { TOY_RECORD, toyAdapter, type Script, type Seen, type Toy } from './support/toy-adapter.ts';
import type { ReportedJobStatus } from '../../src/test-run/job-report.ts';
import { testResults, type TestRunOutputs } from '../../src/test-run/results.ts';
import { testStepDeps, type TestStepDeps } from '../../src/testing.ts';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'test-run-engine-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function runToy(
  toy: Toy,
  options: Partial<TestRunOptions> = {},
  overrides: Parameters<typeof testStepDeps>[0] = {},
): Promise<{ result: ActionResult<TestRunOutputs>; seen: Seen; deps: TestStepDeps }> {
  const seen: Seen = { started: [], stopped: [] };
  const deps = testStepDeps({
    tempDir: folder,
    workflow: { step: `s${Math.random().toString(36).slice(2)}` },
    ...overrides,
  });
  const result = await runTests(
    toyAdapter(toy, seen),
    { name: 'toys', timeoutMs: 60_000, retries: 0, failOnFailure: true, ...options },
    deps,
  );
  return { result, seen, deps };
}

describe('the test-run engine', () => {
  it.each<[string, Script, number, string[][], Partial<TestRunOutputs>]>([
    [
      'one round when nothing failed',
      { a: ['passed'], b: ['passed'] },
      2,
      [['a', 'b']],
      { passed: 2, flaky: 0 },
    ],
    ['no retry without retries', { a: ['passed'], b: ['failed', 'passed'] }, 0, [['a', 'b']], { failed: 1 }],
    [
      'a round per retry, of what failed, while retries last',
      { a: ['passed'], b: ['failed', 'passed'], c: ['failed', 'failed', 'failed'] },
      2,
      [['a', 'b', 'c'], ['b', 'c'], ['c']],
      { total: 3, passed: 2, failed: 1, flaky: 1 },
    ],
  ])('%s', async (_what, script, retries, rounds, outputs) => {
    const { result, seen } = await runToy({ script }, { retries });
    expect(seen.started).toEqual(rounds);
    expect(result.outputs).toMatchObject(outputs);
  });

  it('reports each item by its last run, in the order first run, the earlier runs as its attempts', async () => {
    const { result } = await runToy(
      { script: { a: ['failed', 'failed'], b: ['passed'], c: ['failed', 'passed'] } },
      { retries: 1 },
    );
    expect(result.outputs['job-ids']).toBe(JSON.stringify(['a-1', 'a-2', 'b-1', 'c-1', 'c-2']));
    expect(result.summary).toBe('Toys: 2 of 3 passed');
    expect(result.failure).toEqual({ kind: 'tests-failed', message: '1 failed' });
    expect(result.annotations.map((a) => [a.level, a.title])).toEqual([
      ['error', 'Failed job: a'],
      ['warning', 'Flaky job: c'],
    ]);
    const results = JSON.parse(await readFile(result.outputs['results-file'], 'utf8')) as {
      jobs: { id: string; attempts?: { id: string; status: string }[] }[];
    };
    expect(results.jobs.map((job) => [job.id, job.attempts?.map((a) => `${a.id} ${a.status}`)])).toEqual([
      ['a-2', ['a-1 failed']],
      ['b-1', undefined],
      ['c-2', ['c-1 failed']],
    ]);
  });

  it('makes the results of runs gathered attempt by attempt: by item and platform, runs of no item alone', () => {
    const run = (
      id: string,
      item: string | undefined,
      platform: string,
      status: ReportedJobStatus,
    ): Run<string> => ({
      ...(item !== undefined ? { item } : {}),
      job: { id, name: id, platform, status, url: '' },
      record: id,
    });
    const results = testResults(
      [
        [
          run('1', 'x', 'chrome', 'failed'),
          run('2', 'x', 'firefox', 'passed'),
          run('3', undefined, 'chrome', 'failed'),
        ],
        [run('4', 'x', 'chrome', 'passed')],
      ],
      0,
    );
    expect(results.items.map(({ job, earlier }) => [job.id, earlier.map((r) => r.job.id)])).toEqual([
      ['4', ['1']],
      ['2', []],
      ['3', []],
    ]);
    expect(results.tally).toMatchObject({ total: 3, passed: 2, failed: 1, flaky: 1 });
  });

  it('passes, starting nothing, when the plan has no item', async () => {
    const { result, seen } = await runToy({ script: {} });
    expect(seen.started).toEqual([]);
    expect(result.failure).toBeUndefined();
    expect(result.outputs).toMatchObject({ total: 0, 'job-ids': '[]' });
  });

  it('throws what fails the first start, and words a start the deadline cut off with no answer', async () => {
    const refused = new Error('refused');
    await expect(runToy({ script: { a: ['passed'] }, startFails: { 1: refused } })).rejects.toBe(refused);
    const cancel = new AbortController();
    cancel.abort(new CancelledError('the run was cancelled (SIGINT)'));
    const error = await runToy(
      { script: { a: ['passed'] }, startFails: { 1: new Error('aborted') }, unanswered: true },
      {},
      { signal: cancel.signal },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ActionError);
    expect(describeFailure(error)).toEqual({ kind: 'cancelled', message: 'cancelled: the toys may run' });
  });

  it('keeps the items as they were, with a warning, when a retry cannot start', async () => {
    const { result, seen, deps } = await runToy(
      {
        script: { a: ['failed', 'passed'] },
        startFails: { 2: new ActionError('refused', 'the service said no') },
      },
      { retries: 1 },
    );
    expect(seen.started).toEqual([['a']]);
    expect(result.outputs).toMatchObject({ failed: 1, 'job-ids': '["a-1"]' });
    const warning = 'The failed toys were not run again: the service said no';
    expect(deps.logger.lines('warning')).toContain(warning);
    expect(result.annotations).toContainEqual({ level: 'warning', message: warning });
  });

  it.each<[string, Toy, Partial<TestRunOptions>, string]>([
    [
      'a follow that fails',
      { script: { a: ['passed'] }, followFails: { 1: new Error('gone') } },
      {},
      'failed',
    ],
    [
      'fail-fast, on a run that failed with no attempt left',
      { script: { a: ['failed'], b: ['passed'] } },
      { failFast: true },
      'fail-fast',
    ],
  ])('stops the unfinished jobs after %s', async (_what, toy, options, why) => {
    const { result, seen } = await runToy(toy, options);
    expect(seen.stopped.map((end) => end.why)).toEqual([why]);
    const total = Object.keys(toy.script).length;
    expect(result.outputs).toMatchObject({ total, passed: 0, failed: 0 });
    const results = JSON.parse(await readFile(result.outputs['results-file'], 'utf8')) as { ended: string };
    expect(results.ended).toBe(why);
  });

  it('names the run that failed fast, and waits for one that has an attempt left', async () => {
    const failing = { script: { a: ['failed', 'passed'] as ReportedJobStatus[] } };
    const { seen } = await runToy(failing, { failFast: true, retries: 1 });
    expect(seen.stopped).toEqual([]);
    const { seen: fast } = await runToy(failing, { failFast: true });
    expect(fast.stopped[0]?.failedFast?.job.id).toBe('a-1');
  });

  it('takes a round that finished while it was being stopped as finished: its failures are run again', async () => {
    const cancel = new AbortController();
    const { result, seen } = await runToy(
      { script: { a: ['failed', 'passed'] }, cancelDuring: { 1: cancel }, finishedMeanwhile: true },
      { retries: 1 },
      { signal: cancel.signal },
    );
    expect(seen.started).toEqual([['a'], ['a']]);
    expect(seen.stopped.map((end) => end.why)).toEqual(['cancelled', 'cancelled']);
    expect(result.outputs).toMatchObject({ passed: 1, flaky: 1 });
    const results = JSON.parse(await readFile(result.outputs['results-file'], 'utf8')) as { ended: null };
    expect(results.ended).toBeNull();
  });

  it('keeps the running record for the post step as it starts, and only what is left at the end', async () => {
    const cancel = new AbortController();
    const { deps } = await runToy(
      { script: { a: ['passed'] }, cancelDuring: { 1: cancel } },
      { postStep: { format: TOY_RECORD, place: { region: 'us-west-1' } } },
      { signal: cancel.signal },
    );
    // What the batch recorded is what the post step reads.
    expect(TOY_RECORD.read(deps.state.get('toys'))).toEqual({ region: 'us-west-1', toys: ['a'] });
    const { deps: clean } = await runToy(
      { script: { a: ['passed'] } },
      { postStep: { format: TOY_RECORD, place: { region: 'us-west-1' } } },
    );
    expect(clean.state.saved.get('toys')).toBe('');
  });

  it('writes the JUnit report, and says so before the tally', async () => {
    const junitFile = path.join(folder, 'toys.xml');
    const { result, deps } = await runToy({ script: { a: ['passed'] } }, { junitFile });
    expect(await readFile(junitFile, 'utf8')).toContain('<testcase name="a" classname="toy"');
    expect(deps.logger.lines('info').slice(-2)).toEqual([
      `JUnit report written to ${junitFile}.`,
      '1 of 1 toys passed',
    ]);
    expect(result.failure).toBeUndefined();
  });

  it.each<[string, ReportedJobStatus, string, number]>([
    ['fails the step', 'passed', 'input', 0],
    ['is told as a warning beside the failed jobs', 'failed', 'tests-failed', 1],
  ])(
    'a JUnit report that cannot be written after the run %s, with the outputs and summary kept',
    async (_what, status, kind, warnings) => {
      const junitFile = path.join(folder, `taken-${status}.xml`);
      // Checked writable before the run; a folder takes its place before the report is written.
      const { result, deps } = await runToy(
        { script: { a: [status] }, beforeReport: () => mkdirSync(junitFile) },
        { junitFile },
      );
      expect(result.failure?.kind).toBe(kind);
      const cannot = /^Could not write the JUnit report to .*taken-\w+\.xml \(`junit-file`\): /;
      expect(
        [result.failure?.message, ...deps.logger.lines('warning')].filter((m) => cannot.test(m ?? '')),
      ).toHaveLength(1);
      expect(deps.logger.lines('warning')).toHaveLength(warnings);
      expect(result.outputs).toMatchObject({ total: 1 });
      expect(result.summary).toMatch(/^Toys: /);
    },
  );
});
