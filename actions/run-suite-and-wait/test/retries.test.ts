/**
 * Failed cases of run-suite-and-wait run again (`retries`) as the suite runs them: the failed case
 * alone, case by case, in the build of its failed run, in a shard too; then the default seed's
 * `Regression` suite, whose `Case 07` is flaky. Against in-process emulators with short jobs and a
 * real client. What retries are to the engine (flaky, failing every attempt, a retry refused) are
 * rows of `test/engine-scenarios/`.
 */
import path from 'node:path';
import { shareOf, wholeText } from '@sauce-actions/action-kit';
import { defaultSeed, startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/run.ts';
import {
  buildsOf,
  casesRun,
  hooked,
  journal,
  suiteDeps,
  suiteInputs,
  withEmulators,
  buildOf,
  workflowRun,
} from './helpers.ts';
import { FAILING_CASE, TWELVE_CASES, TWELVE_SUITE } from './seed.ts';

let emulator: RunningEmulator, folder: string;
withEmulators(
  [300],
  { started: (emulators) => ([emulator] = emulators), folder: (made) => (folder = made) },
  'run-suite-and-wait-retries-',
);

/**
 * The deps with `Case 07` of the twelve flaky: it fails on its first run, as the seed has it, and
 * passes on later ones (the seed's outcome is put back after the test).
 */
function flakyCase(deps: ReturnType<typeof suiteDeps>): ReturnType<typeof suiteDeps> {
  const authoring = emulator.context.authoring;
  const before = authoring.data.caseRuns.length;
  return hooked(deps, {
    afterRun: () => {
      const runs = authoring.data.caseRuns.slice(before);
      if (runs.some((caseRun) => caseRun.testCaseId === FAILING_CASE))
        authoring.testCases.get(FAILING_CASE).expectedOutcome = 'pass';
    },
  });
}

describe('run-suite-and-wait retries', () => {
  afterEach(() => {
    emulator.context.authoring.testCases.get(FAILING_CASE).expectedOutcome = 'fail';
  });

  it('retries: 1 on the 12-case suite passes with one flaky case, run again in the build of its first run', async () => {
    const before = (await journal(emulator)).length;
    const deps = flakyCase(suiteDeps(emulator, folder, { workflow: workflowRun('32', '1') }));
    const result = await run(suiteInputs(emulator, { suite: 'Twelve', retries: 1 }), deps);

    expect(result.failure).toBeUndefined();
    expect(result.outputs).toMatchObject({
      'build-name': buildOf('Twelve', '32', '1'),
      total: 12,
      passed: 12,
      failed: 0,
      flaky: 1,
    });
    // Every run's job: twelve, and the first run of the flaky one.
    const ids = JSON.parse(result.outputs['job-ids']) as string[];
    expect(ids).toHaveLength(13);
    // One suite run, then the one case that failed, asked in the build of its failed run.
    const requests = (await journal(emulator)).slice(before);
    expect(requests.filter((entry) => entry.path.endsWith(`/testsuites/${TWELVE_SUITE}/run`))).toHaveLength(
      1,
    );
    expect(casesRun(requests)).toEqual([FAILING_CASE]);
    expect((await buildsOf(emulator, ids)).sort()).toEqual(
      [...Array(12).fill(buildOf('Twelve', '32', '1')), `${buildOf('Twelve', '32', '1')} - 1`].sort(),
    );
    expect(deps.logger.lines('info')).toContain(
      'Running 1 failed test case(s) again, attempt 2 of 2 at most: Case 07.',
    );
  });

  it('retries the failed case of a shard, run case by case, in the build of its failed run', async () => {
    const flakyShard = [1, 2, 3].find((index) =>
      shareOf(TWELVE_CASES, { index, total: 3 }, (id) => id).includes(FAILING_CASE),
    );
    const result = await run(
      suiteInputs(emulator, { suite: 'Twelve', shard: { index: flakyShard ?? 0, total: 3 }, retries: 2 }),
      flakyCase(suiteDeps(emulator, folder, { workflow: workflowRun('33', '1') })),
    );
    expect(result.failure).toBeUndefined();
    expect(result.outputs).toMatchObject({ total: 4, passed: 4, failed: 0, flaky: 1 });
    const builds = await buildsOf(emulator, JSON.parse(result.outputs['job-ids']) as string[]);
    expect(builds).toHaveLength(5);
    // The retry was asked in the build its first run got; the service made that name unique in turn.
    for (const build of builds) expect(build.replace(/( - \d+)*$/, '')).toBe(buildOf('Twelve', '33', '1'));
  });
});

/** The emulator's default seed has the `Regression` suite of twelve cases, `Case 07` flaky. */
const hasRegression = (defaultSeed().authoring.testSuites ?? []).some((suite) => suite.name === 'Regression');

describe.skipIf(!hasRegression)("the default seed's Regression suite", () => {
  let plain: RunningEmulator;
  beforeAll(async () => {
    plain = await startEmulator({ port: 0, jobDurationMs: 300 });
  });
  afterAll(async () => {
    await plain?.close();
  });

  it('retries: 1 passes with flaky=1 and total=12', async () => {
    const regression = await run(
      suiteInputs(plain, { suite: 'Regression', retries: 1 }),
      suiteDeps(plain, folder, { workflow: workflowRun('51', '1') }),
    );
    expect(regression.failure).toBeUndefined();
    expect(regression.outputs).toMatchObject({ total: 12, passed: 12, failed: 0, flaky: 1 });
    expect(wholeText(regression.summary)).toContain(
      'Case 07<br><sub>flaky: failed on attempt 1, passed on attempt 2</sub>',
    );
  });

  it('three shards with retries: 1 run every case once, and the flaky one again in its shard', async () => {
    const workflow = workflowRun('52', '1');
    const results = await Promise.all(
      [1, 2, 3].map((index) =>
        run(
          suiteInputs(plain, { suite: 'Regression', shard: { index, total: 3 }, retries: 1 }),
          suiteDeps(plain, path.join(folder, `shard-${index}`), { workflow }),
        ),
      ),
    );
    expect(results.map((result) => result.failure)).toEqual([undefined, undefined, undefined]);
    expect(results.map((result) => result.outputs.total)).toEqual([4, 4, 4]);
    expect(results.map((result) => result.outputs.flaky).sort()).toEqual([0, 0, 1]);
  });

  it('a re-run of the workflow runs only Case 07, which fails on its first run in the new build and passes on its retry', async () => {
    const attempt = (n: number) =>
      run(
        suiteInputs(plain, { suite: 'Regression', retries: n - 1, rerunFailed: true }),
        suiteDeps(plain, path.join(folder, `attempt-${n}`), {
          workflow: workflowRun('53', String(n)),
        }),
      );
    const first = await attempt(1);
    expect(first.outputs).toMatchObject({ total: 12, passed: 11, failed: 1 });
    const second = await attempt(2);
    expect(second.failure).toBeUndefined();
    expect(second.outputs).toMatchObject({
      'build-name': buildOf('Regression', '53', '2'),
      total: 1,
      passed: 1,
      flaky: 1,
    });
    expect(wholeText(second.summary)).toContain('11 case(s) passed in an earlier attempt');
  });
});
