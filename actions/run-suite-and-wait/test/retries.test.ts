/**
 * Failed cases of run-suite-and-wait run again (`retries`): a case that passes on a retry is flaky,
 * one that fails every attempt fails the step, a refused retry leaves the case as it was, and a
 * shard retries its own; then the default seed's `Regression` suite, whose `Case 07` is flaky.
 * Against in-process emulators with short jobs and a real client.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError, InputReader, inputSource, shareOf, wholeText } from '@sauce-actions/action-kit';
import { defaultSeed, startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readInputs } from '../src/inputs.ts';
import { run } from '../src/run.ts';
import {
  addFault,
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
    const junitFile = path.join(folder, 'workspace', 'junit.xml');
    const deps = flakyCase(suiteDeps(emulator, folder, { workflow: workflowRun('32', '1') }));
    const result = await run(suiteInputs(emulator, { suite: 'Twelve', retries: 1, junitFile }), deps);

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

    expect(wholeText(result.summary)).toContain('12 jobs, 12 passed, 0 failed, 1 flaky');
    expect(wholeText(result.summary)).toContain(
      'Case 07<br><sub>flaky: failed on attempt 1, passed on attempt 2</sub>',
    );
    expect(wholeText(result.summary)).toContain('✅ passed (flaky)');
    // A link to each attempt, in order, with its outcome; `job-ids` has them in that order.
    const links =
      /<td>1: <a href="[^"]*\/tests\/(\w+)">\1<\/a> ❌<br>2: <a href="[^"]*\/tests\/(\w+)">\2<\/a> ✅<\/td>/.exec(
        wholeText(result.summary),
      );
    const [first, second] = [links?.[1] ?? '?', links?.[2] ?? '?'];
    expect(wholeText(result.summary)).toContain(`href="${emulator.url}/tests/${first}"`);
    expect(ids.indexOf(second)).toBe(ids.indexOf(first) + 1);
    expect(wholeText(result.summary)).toContain(
      'Failed jobs were run again (`retries: 1`, 2 attempts in all): of the 1 run again, 1 passed on a retry (flaky), 0 failed every attempt.',
    );
    expect(result.annotations).toEqual([
      expect.objectContaining({ level: 'warning', title: 'Flaky job: Case 07' }),
    ]);
    expect(result.annotations[0]?.message).toContain(
      'is flaky: it failed on attempt 1, passed on attempt 2.',
    );

    const junit = await readFile(junitFile, 'utf8');
    expect(junit).toContain('tests="12" failures="0" errors="0"');
    const flakyCaseXml = /<testcase name="Case 07"[\s\S]*?<\/testcase>/.exec(junit)?.[0] ?? '';
    expect(flakyCaseXml).toContain(`<flakyFailure message="attempt 1: `);
    expect(flakyCaseXml).toContain(`<system-out>${emulator.url}/tests/${first}</system-out>`);
    expect(flakyCaseXml).not.toContain('<failure');
    expect(deps.logger.lines('info')).toContain(
      'Running 1 failed test case(s) again, attempt 2 of 2 at most: Case 07.',
    );
  });

  it('retries: 1 on Smoke still fails its always-failing case, with failed=1 and both attempts reported', async () => {
    const junitFile = path.join(folder, 'workspace', 'junit.xml');
    const result = await run(
      suiteInputs(emulator, { suite: 'Smoke', retries: 1, junitFile, buildName: 'Smoke retried' }),
      suiteDeps(emulator, folder),
    );
    expect(result.failure?.kind).toBe('tests-failed');
    expect(result.failure?.message).toContain('"Checkout fails" (safari 17, macOS 13, all 2 attempts)');
    expect(result.outputs).toMatchObject({ total: 3, passed: 2, failed: 1, flaky: 0 });
    expect(JSON.parse(result.outputs['job-ids'])).toHaveLength(4);
    expect(wholeText(result.summary)).toContain('Checkout fails<br><sub>failed all 2 attempts');
    expect(wholeText(result.summary)).toContain(
      'of the 1 run again, 0 passed on a retry (flaky), 1 failed every attempt.',
    );
    const junit = await readFile(junitFile, 'utf8');
    expect(junit).toContain('tests="3" failures="1" errors="0"');
    expect(/<testcase name="Checkout fails"[\s\S]*?<\/testcase>/.exec(junit)?.[0]).toMatch(
      /<failure [\s\S]*<rerunFailure message="attempt 1: /,
    );
  });

  it('a retry the service refuses to start leaves the failed case as it was, with a warning saying why', async () => {
    // The first round is a suite run; the retry runs the failed case by itself, and is refused.
    await addFault(emulator, {
      method: 'POST',
      path: '/^/v1/ai-authoring/testcases/[^/]+/run$/',
      status: 400,
    });
    const result = await run(
      suiteInputs(emulator, { suite: 'Smoke', retries: 1, buildName: 'Smoke retry refused' }),
      suiteDeps(emulator, folder),
    );
    expect(result.failure?.kind).toBe('tests-failed');
    expect(result.outputs).toMatchObject({ total: 3, passed: 2, failed: 1, flaky: 0 });
    expect(wholeText(result.summary)).not.toContain('were run again');
    expect(result.annotations).toContainEqual(
      expect.objectContaining({
        level: 'warning',
        message: expect.stringMatching(
          /^The failed cases were not run again: Sauce Labs refused to run test case /,
        ),
      }),
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

  it('reads retries from 0 to 5, default 0, and refuses others by name', async () => {
    const read = (values: Record<string, string>) =>
      readInputs(
        new InputReader(inputSource({ username: 'demo', 'access-key': 'k', suite: 'Twelve', ...values })),
      );
    expect((await read({})).retries).toBe(0);
    expect((await read({ retries: '5' })).retries).toBe(5);
    for (const retries of ['6', '-1', 'two']) {
      const error = await read({ retries }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).input).toBe('retries');
    }
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

  it('retries: 1 passes with flaky=1 and total=12; Smoke still fails with failed=1', async () => {
    const regression = await run(
      suiteInputs(plain, { suite: 'Regression', retries: 1 }),
      suiteDeps(plain, folder, { workflow: workflowRun('51', '1') }),
    );
    expect(regression.failure).toBeUndefined();
    expect(regression.outputs).toMatchObject({ total: 12, passed: 12, failed: 0, flaky: 1 });
    expect(wholeText(regression.summary)).toContain(
      'Case 07<br><sub>flaky: failed on attempt 1, passed on attempt 2</sub>',
    );

    const smoke = await run(suiteInputs(plain, { suite: 'Smoke', retries: 1 }), suiteDeps(plain, folder));
    expect(smoke.failure?.kind).toBe('tests-failed');
    expect(smoke.outputs).toMatchObject({ total: 3, passed: 2, failed: 1, flaky: 0 });
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
