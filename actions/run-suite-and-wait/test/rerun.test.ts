/**
 * `rerun-failed`: a later attempt of a workflow run runs only the cases that did not pass in the
 * attempts before, found among the service's jobs by the builds of those attempts. Against an
 * in-process emulator with short jobs and a real client.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InputReader, inputSource, runToken, wholeText } from '@sauce-actions/action-kit';
import type { Job } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CaseFinder } from '../src/attempts.ts';
import { readInputs, type SuiteInputs } from '../src/inputs.ts';
import { earlierBuildNames, passedCases } from '../src/rerun.ts';
import { run } from '../src/run.ts';
import {
  addFault,
  buildOf,
  casesRun,
  closeClients,
  journal,
  suiteDeps,
  suiteInputs,
  workflowRun,
} from './helpers.ts';
import { FAILING_CASE, seed, TWELVE_CASES, TWELVE_SUITE } from './seed.ts';

let emulator: RunningEmulator;
let folder: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, jobDurationMs: 300, seed: seed() });
});
afterAll(async () => {
  await closeClients();
  await emulator?.close();
});
beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'run-suite-and-wait-rerun-'));
});
afterEach(async () => {
  emulator.context.authoring.testCases.get(FAILING_CASE).expectedOutcome = 'fail';
  await fetch(`${emulator.url}/_emulator/faults`, { method: 'DELETE' });
  await rm(folder, { recursive: true, force: true });
});

/** Attempt `attempt` of workflow run `runNumber`, with the inputs given and `rerun-failed` on (the default). */
async function attemptOf(runNumber: string, attempt: number, overrides: Partial<SuiteInputs>) {
  const before = (await journal(emulator)).length;
  const deps = suiteDeps(emulator, path.join(folder, `attempt-${attempt}`), {
    workflow: workflowRun(runNumber, String(attempt), { job: 'e2e' }),
  });
  const result = await run(suiteInputs(emulator, { rerunFailed: true, ...overrides }), deps);
  const requests = (await journal(emulator)).slice(before);
  return {
    result,
    deps,
    ran: casesRun(requests),
    runs: requests.filter((r) => r.path.endsWith('/run')).length,
  };
}

describe('run-suite-and-wait rerun-failed', () => {
  it('attempt 2 of Smoke runs only the case that failed in attempt 1', async () => {
    const first = await attemptOf('41', 1, { suite: 'Smoke' });
    expect(first.result.outputs).toMatchObject({ total: 3, failed: 1 });
    const failedId = JSON.parse(first.result.outputs['job-ids']) as string[];

    const second = await attemptOf('41', 2, { suite: 'Smoke' });
    // One case run, of `Checkout fails`, in the build of attempt 2; no suite run.
    expect(second.runs).toBe(1);
    expect(second.ran).toHaveLength(1);
    expect(second.result.outputs).toMatchObject({
      'build-name': buildOf('Smoke', '41', '2'),
      total: 1,
      passed: 0,
      failed: 1,
    });
    expect(second.result.failure?.message).toContain('"Checkout fails"');
    expect(wholeText(second.result.summary)).toContain(
      `Attempt 2 of the workflow run (\`rerun-failed\`): 2 case(s) passed in an earlier attempt (build &quot;${buildOf('Smoke', '41', '1')}&quot;) and were not run again; only the 1 that failed or did not finish there ran.`,
    );
    expect(wholeText(second.result.summary)).toContain(
      '<h3>Passed in an earlier attempt, not run again (2)</h3>',
    );
    // Links to the earlier passing jobs.
    const linked = failedId.filter((id) =>
      wholeText(second.result.summary).includes(`href="${emulator.url}/tests/${id}"`),
    );
    expect(linked).toHaveLength(2);
    expect(second.deps.logger.lines('info')[0]).toBe(
      `Attempt 2: 3 job(s) of earlier attempts found in build(s) "${buildOf('Smoke', '41', '1')}"; 2 of 3 case(s) passed there and are not run again.`,
    );
  });

  it('attempts 2, 3 and 4 of the 12-case suite: the failed case alone, until it passes; then nothing', async () => {
    const first = await attemptOf('42', 1, { suite: 'Twelve' });
    expect(first.result.outputs).toMatchObject({ total: 12, passed: 11, failed: 1 });

    const second = await attemptOf('42', 2, { suite: 'Twelve' });
    expect(second.ran).toEqual([FAILING_CASE]);
    expect(second.result.outputs).toMatchObject({ total: 1, failed: 1 });
    expect(wholeText(second.result.summary)).toContain('11 case(s) passed in an earlier attempt');

    // Fixed: attempt 3 runs it again (it failed in attempt 2), and it passes.
    emulator.context.authoring.testCases.get(FAILING_CASE).expectedOutcome = 'pass';
    const third = await attemptOf('42', 3, { suite: 'Twelve' });
    expect(third.ran).toEqual([FAILING_CASE]);
    expect(third.result.failure).toBeUndefined();
    expect(third.result.outputs).toMatchObject({ total: 1, passed: 1 });
    expect(wholeText(third.result.summary)).toContain(
      `(builds &quot;${buildOf('Twelve', '42', '1')}&quot;, &quot;${buildOf('Twelve', '42', '2')}&quot;)`,
    );

    // Every case has passed in some attempt: nothing runs, and the step passes.
    const fourth = await attemptOf('42', 4, { suite: 'Twelve' });
    expect(fourth.runs).toBe(0);
    expect(fourth.result.failure).toBeUndefined();
    expect(fourth.result.outputs).toMatchObject({ 'build-name': '', total: 0, passed: 0, failed: 0 });
    expect(wholeText(fourth.result.summary)).toContain('<h2>Suite Twelve: nothing to run</h2>');
    expect(wholeText(fourth.result.summary)).toContain('12 case(s) passed in an earlier attempt');
    expect(wholeText(fourth.result.summary)).toContain('nothing had to run again.');
  });

  it('each shard of attempt 2 runs only its own cases that failed in attempt 1', async () => {
    const shards = [1, 2, 3].map((index) => ({ index, total: 3 }));
    await Promise.all(
      shards.map((shard) => attemptOf('43', 1, { suite: 'Twelve', shard, failOnFailure: false })),
    );
    const second = [];
    for (const shard of shards) second.push(await attemptOf('43', 2, { suite: 'Twelve', shard }));
    expect(second.map(({ ran }) => ran)).toEqual(
      shards.map((shard) =>
        TWELVE_CASES.filter((_, rank) => rank % 3 === shard.index - 1).includes(FAILING_CASE)
          ? [FAILING_CASE]
          : [],
      ),
    );
    expect(second.filter(({ result }) => result.failure === undefined)).toHaveLength(2);
    for (const { result, ran } of second)
      if (ran.length === 0) expect(wholeText(result.summary)).toContain(', shard ');
    // Each reports the passed cases of its own share only: four a shard, less the one that failed.
    expect(
      second.map(
        ({ result }) =>
          /Passed in an earlier attempt, not run again \((\d+)\)/.exec(wholeText(result.summary))?.[1],
      ),
    ).toEqual(
      shards.map((shard) =>
        String(
          4 - (TWELVE_CASES.filter((_, rank) => rank % 3 === shard.index - 1).includes(FAILING_CASE) ? 1 : 0),
        ),
      ),
    );
  });

  it('with a build-name of its own, looks in that build; with rerun-failed false, runs everything', async () => {
    await attemptOf('44', 1, { suite: 'Smoke', buildName: 'Release 44' });
    const second = await attemptOf('44', 2, { suite: 'Smoke', buildName: 'Release 44' });
    expect(second.ran).toHaveLength(1);
    expect(wholeText(second.result.summary)).toContain('(build &quot;Release 44&quot;)');

    const again = await attemptOf('44', 3, { suite: 'Smoke', buildName: 'Release 44', rerunFailed: false });
    expect(again.runs).toBe(1);
    expect(again.ran).toEqual([]);
    expect(again.result.outputs.total).toBe(3);
    expect(wholeText(again.result.summary)).not.toContain('earlier attempt');
  });

  it('runs everything, and says so, when no earlier attempt left jobs; warns when they cannot be read', async () => {
    const lone = await attemptOf('45', 2, { suite: 'Smoke' });
    expect(lone.result.outputs.total).toBe(3);
    expect(wholeText(lone.result.summary)).toContain(
      `Attempt 2 of the workflow run: no job of an earlier attempt was found in build &quot;${buildOf('Smoke', '45', '1')}&quot;`,
    );

    // Twice: a 400 to a wide page is asked again at the documented default.
    await addFault(emulator, { method: 'GET', path: '/rest/v1/demo/jobs', status: 400, times: 2 });
    const unread = await attemptOf('45', 3, { suite: 'Smoke' });
    expect(unread.result.outputs.total).toBe(3);
    expect(unread.deps.logger.lines('warning')[0]).toMatch(
      /^Could not read the results of the earlier attempts \(.*\): every case runs\.$/,
    );
  });

  it('reads rerun-failed as a boolean, default true', async () => {
    const read = (values: Record<string, string>) =>
      readInputs(
        new InputReader(inputSource({ username: 'demo', 'access-key': 'k', suite: TWELVE_SUITE, ...values })),
      );
    expect((await read({})).rerunFailed).toBe(true);
    expect((await read({ 'rerun-failed': 'false' })).rerunFailed).toBe(false);
  });
});

describe('the earlier attempts', () => {
  it('are the builds of the default name for attempts 1 to N-1, or the build name given, from attempt 2 on', () => {
    const run = { key: 'github:https://github.com/acme/app/runs/8801', runNumber: '7' };
    const token = runToken(run.key);
    expect(earlierBuildNames('Smoke', undefined, { ...run, runAttempt: '3' })).toEqual({
      attempt: 3,
      builds: [`Smoke #7.1 · ${token}`, `Smoke #7.2 · ${token}`],
    });
    expect(earlierBuildNames('Smoke', 'Nightly', { ...run, runAttempt: '2' })).toEqual({
      attempt: 2,
      builds: ['Nightly'],
    });
    expect(earlierBuildNames('Smoke', undefined, { ...run, runAttempt: '1' })).toBeUndefined();
    expect(earlierBuildNames('Smoke', undefined, run)).toBeUndefined();
    // Without the run's identity the default name has the time in it: not derivable.
    expect(earlierBuildNames('Smoke', undefined, { runNumber: '7', runAttempt: '2' })).toBeUndefined();
  });

  it('count a case as passed only when its newest job on every platform passed', () => {
    const job = (
      id: string,
      caseId: string,
      browser: string,
      status: string,
      passed: boolean | null = null,
    ): Job =>
      ({
        id,
        name: null,
        build: 'Smoke #7.1',
        status,
        passed,
        browser,
        os: 'Linux',
        'custom-data': { testCaseId: caseId },
      }) as unknown as Job;
    const cases = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, name: `case ${id}` }));
    // Newest first: a passed on its retry; b passed on chrome but its firefox job was stopped (error);
    // c is still running; d failed after an earlier pass; e never ran.
    const jobs = [
      job('a2', 'a', 'chrome', 'passed'),
      job('b2', 'b', 'firefox', 'error'),
      job('c1', 'c', 'chrome', 'in progress'),
      job('d2', 'd', 'chrome', 'failed'),
      job('a1', 'a', 'chrome', 'failed'),
      job('b1', 'b', 'chrome', 'complete', true),
      job('d1', 'd', 'chrome', 'passed'),
    ];
    const passed = passedCases(cases, new CaseFinder(cases), jobs);
    expect(passed.map(({ testCase }) => testCase.id)).toEqual(['a']);
    expect(passed[0]?.jobs).toEqual([{ id: 'a2', platform: 'chrome, Linux', build: 'Smoke #7.1' }]);
  });
});
