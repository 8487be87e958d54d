/**
 * run-suite-and-wait split among the jobs of a matrix (`shard`), and failed cases run again
 * (`retries`), against an in-process emulator with short jobs and a real client.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InputError, InputReader, inputSource, shareOf, wholeText } from '@sauce-actions/action-kit';
import { defaultSeed, startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readInputs } from '../src/inputs.ts';
import { run } from '../src/run.ts';
import {
  addFault,
  afterEachRun,
  casesRun,
  clientFor,
  closeClients,
  journal,
  suiteDeps,
  suiteInputs,
} from './helpers.ts';
import { FAILING_CASE, GREEN_CASES, GREEN_SUITE, seed, TWELVE_CASES, TWELVE_SUITE } from './seed.ts';

let emulator: RunningEmulator;
/** Jobs of 1.5 s: case runs queued one by one (5 a second) end one after the other. */
let staggered: RunningEmulator;
let folder: string;

beforeAll(async () => {
  [emulator, staggered] = await Promise.all([
    startEmulator({ port: 0, jobDurationMs: 300, seed: seed() }),
    startEmulator({ port: 0, jobDurationMs: 1500, seed: seed() }),
  ]);
});
afterAll(async () => {
  await closeClients();
  await Promise.all([emulator?.close(), staggered?.close()]);
});
beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'run-suite-and-wait-matrix-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Builds of the jobs whose ids are given, as the service named them. */
async function buildsOf(ids: readonly string[]): Promise<string[]> {
  const jobs = await clientFor(emulator).automation.jobs.list({ full: true, limit: 1000 });
  return jobs.filter((job) => ids.includes(job.id)).map((job) => job.build ?? '');
}

describe('run-suite-and-wait shards', () => {
  it('three shards of a 12-case suite, run side by side, run every case exactly once, four each, from one build name; each summary links its builds', async () => {
    const before = (await journal(emulator)).length;
    const workflow = { runNumber: '31', runAttempt: '1', job: 'suite' };
    const results = await Promise.all(
      [1, 2, 3].map((index) =>
        run(
          suiteInputs(emulator, { suite: 'Twelve', shard: { index, total: 3 }, failOnFailure: false }),
          suiteDeps(emulator, path.join(folder, `shard-${index}`), { workflow }),
        ),
      ),
    );

    const ran = casesRun((await journal(emulator)).slice(before));
    expect([...ran].sort()).toEqual([...TWELVE_CASES].sort());
    // Case by case: no suite run.
    const suiteRuns = (await journal(emulator))
      .slice(before)
      .filter((entry) => entry.path.endsWith(`/testsuites/${TWELVE_SUITE}/run`));
    expect(suiteRuns).toEqual([]);
    const ids = results.map((result) => JSON.parse(result.outputs['job-ids']) as string[]);
    expect(results.map((result) => result.outputs.total)).toEqual([4, 4, 4]);
    expect(new Set(ids.flat()).size).toBe(12);
    // `Case 07` fails in exactly one shard.
    expect(results.map((result) => result.outputs.failed).sort()).toEqual([0, 0, 1]);
    // One build name for every shard; the service tells apart the runs of each case with a suffix.
    for (const build of await buildsOf(ids.flat())) expect(build).toMatch(/^Twelve #31\.1( - \d+)?$/);
    const all = await clientFor(emulator).automation.jobs.list({ full: true, limit: 1000 });
    for (const [n, result] of results.entries()) {
      expect(wholeText(result.summary)).toContain(`<h2>Suite Twelve, shard ${n + 1}/3: `);
      expect(wholeText(result.summary)).toContain(
        `Shard ${n + 1}/3 has 4 of the suite&#39;s 12 test case(s), split among 3 shards by case id`,
      );
      // A build per case run: the summary names and links every one the shard's jobs ran in.
      const mine = all.filter((job) => ids[n]!.includes(job.id));
      const builds = [...new Set(mine.map((job) => job.build))];
      expect(builds).toHaveLength(4);
      expect(wholeText(result.summary)).toContain('<p>Builds (4: the service makes every build name unique');
      for (const build of builds) {
        const first = mine.find((job) => job.build === build)!;
        expect(wholeText(result.summary)).toContain(
          `<a href="${emulator.url}/tests/${first.id}">${build}</a>`,
        );
      }
      const file = JSON.parse(await readFile(result.outputs['results-file'], 'utf8')) as { builds: string[] };
      expect([...file.builds].sort()).toEqual([...builds].sort());
    }
  });

  it('splits chosen test cases too, and the shard names the run in the log and the results file', async () => {
    const before = (await journal(emulator)).length;
    const testCases = [{ id: GREEN_CASES[1] }, { id: GREEN_CASES[0] }, { id: TWELVE_CASES[0] as string }];
    const deps = [1, 2].map((index) => suiteDeps(emulator, path.join(folder, `shard-${index}`)));
    const results = await Promise.all(
      [1, 2].map((index) =>
        run(
          suiteInputs(emulator, { testCases, shard: { index, total: 2 }, buildName: 'Split cases' }),
          deps[index - 1]!,
        ),
      ),
    );
    expect(results.map((result) => result.failure)).toEqual([undefined, undefined]);
    const ran = casesRun((await journal(emulator)).slice(before));
    expect([...ran].sort()).toEqual(testCases.map((testCase) => testCase.id).sort());
    // Two cases in the first shard (the first and third by id), one in the second.
    expect(deps[0]!.logger.lines('info')[0]).toMatch(
      /^Started 2 test case\(s\) \(shard 1\/2\) in build "Split cases/,
    );
    expect(deps[1]!.logger.lines('info')[0]).toMatch(
      /^Started 1 test case\(s\) \(shard 2\/2\) in build "Split cases/,
    );
    const file = JSON.parse(await readFile(results[1]!.outputs['results-file'], 'utf8')) as {
      shard: unknown;
    };
    expect(file.shard).toEqual({ index: 2, total: 2, cases: 1, of: 3 });
  });

  it('a shard with nothing to run passes, runs nothing, and says so', async () => {
    const before = (await journal(emulator)).length;
    const junitFile = path.join(folder, 'workspace', 'junit.xml');
    const result = await run(
      suiteInputs(emulator, { suite: GREEN_SUITE, shard: { index: 4, total: 4 }, junitFile }),
      suiteDeps(emulator, folder),
    );
    expect(result.failure).toBeUndefined();
    expect(result.outputs).toMatchObject({
      'build-name': '',
      total: 0,
      passed: 0,
      failed: 0,
      'job-ids': '[]',
    });
    expect(wholeText(result.summary)).toContain('<h2>Suite Green, shard 4/4: nothing to run</h2>');
    expect(wholeText(result.summary)).toContain(
      'Shard 4/4 has no test case to run: the suite&#39;s 2 test case(s) are split among 4 shards by case id',
    );
    const requests = (await journal(emulator)).slice(before);
    expect(requests.filter((entry) => entry.method !== 'GET')).toEqual([]);
    expect(await readFile(junitFile, 'utf8')).toContain('tests="0"');
  });

  it('1/1 runs the whole suite in one suite run', async () => {
    const before = (await journal(emulator)).length;
    const result = await run(
      suiteInputs(emulator, { suite: GREEN_SUITE, shard: { index: 1, total: 1 } }),
      suiteDeps(emulator, folder),
    );
    expect(result.outputs).toMatchObject({ total: 3, passed: 3 });
    expect(casesRun((await journal(emulator)).slice(before))).toEqual([]);
    expect(wholeText(result.summary)).not.toContain('shard');
  });

  it.each(['4/3', '0/3', '1/0', 'a/b'])('refuses shard %s by name before any request', async (shard) => {
    const before = (await journal(emulator)).length;
    const error = await readInputs(
      new InputReader(
        inputSource({
          username: 'demo',
          'access-key': 'demo-access-key',
          'api-url': emulator.url,
          suite: 'Twelve',
          shard,
        }),
      ),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).input).toBe('shard');
    expect(await journal(emulator)).toHaveLength(before);
  });
});

/**
 * The deps with `Case 07` of the twelve flaky: it fails on its first run, as the seed has it, and
 * passes on later ones (the seed's outcome is put back after the test).
 */
function flakyCase(deps: ReturnType<typeof suiteDeps>): ReturnType<typeof suiteDeps> {
  const authoring = emulator.context.authoring;
  const before = authoring.data.caseRuns.length;
  return afterEachRun(deps, () => {
    const runs = authoring.data.caseRuns.slice(before);
    if (runs.some((caseRun) => caseRun.testCaseId === FAILING_CASE))
      authoring.testCases.get(FAILING_CASE).expectedOutcome = 'pass';
  });
}

describe('run-suite-and-wait retries', () => {
  afterEach(() => {
    emulator.context.authoring.testCases.get(FAILING_CASE).expectedOutcome = 'fail';
  });

  it('retries: 1 on the 12-case suite passes with one flaky case, run again in the build of its first run', async () => {
    const before = (await journal(emulator)).length;
    const junitFile = path.join(folder, 'workspace', 'junit.xml');
    const deps = flakyCase(suiteDeps(emulator, folder, { workflow: { runNumber: '32', runAttempt: '1' } }));
    const result = await run(suiteInputs(emulator, { suite: 'Twelve', retries: 1, junitFile }), deps);

    expect(result.failure).toBeUndefined();
    expect(result.outputs).toMatchObject({
      'build-name': 'Twelve #32.1',
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
    expect((await buildsOf(ids)).sort()).toEqual(
      [...Array(12).fill('Twelve #32.1'), 'Twelve #32.1 - 1'].sort(),
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
      flakyCase(suiteDeps(emulator, folder, { workflow: { runNumber: '33', runAttempt: '1' } })),
    );
    expect(result.failure).toBeUndefined();
    expect(result.outputs).toMatchObject({ total: 4, passed: 4, failed: 0, flaky: 1 });
    const builds = await buildsOf(JSON.parse(result.outputs['job-ids']) as string[]);
    expect(builds).toHaveLength(5);
    // The retry was asked in the build its first run got; the service made that name unique in turn.
    for (const build of builds) expect(build).toMatch(/^Twelve #33\.1( - \d+)*$/);
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

describe('run-suite-and-wait fail-fast', () => {
  // `Case 07` first: its job fails while the jobs of the cases queued after it still run.
  const testCases = [FAILING_CASE, ...TWELVE_CASES.slice(0, 5)].map((id) => ({ id }));

  it('stops the jobs still queued or running as soon as a case has failed every attempt', async () => {
    const result = await run(
      suiteInputs(staggered, { testCases, failFast: true, buildName: 'Fail fast' }),
      suiteDeps(staggered, folder),
    );
    expect(result.failure?.kind).toBe('tests-failed');
    expect(result.outputs).toMatchObject({ total: 6, failed: 1 });
    const file = JSON.parse(await readFile(result.outputs['results-file'], 'utf8')) as {
      ended: string;
      jobs: { id: string; status: string }[];
    };
    expect(file.ended).toBe('fail-fast');
    const stopped = file.jobs.filter((job) => job.status === 'stopped');
    // At least the last cases queued were still running when `Case 07` failed; none runs now.
    expect(stopped.length).toBeGreaterThanOrEqual(2);
    expect(result.outputs.passed + stopped.length).toBe(5);
    const jobs = await clientFor(staggered).automation.jobs.list({ full: true, limit: 1000 });
    const left = jobs.filter(
      (job) =>
        stopped.some((s) => s.id === job.id) && (job.status === 'queued' || job.status === 'in progress'),
    );
    expect(left).toEqual([]);
    expect(result.failure?.message).toMatch(
      new RegExp(
        `^1 of 6 job\\(s\\) failed in build "Fail fast.*": "Case 07" \\(chrome latest, Linux\\)\\. \`fail-fast\` stopped the ${stopped.length} job\\(s\\) still queued or running\\.`,
      ),
    );
    expect(wholeText(result.summary)).toContain(`${stopped.length} stopped`);
    expect(wholeText(result.summary)).toContain(
      'Fail fast: &quot;Case 07&quot; (chrome latest, Linux) failed with no attempt left, so the jobs still queued or running were stopped and no more attempts were made.',
    );
  });

  it('stops jobs even with stop-on-cancel false, which is about cancellations', async () => {
    const result = await run(
      suiteInputs(staggered, { testCases, failFast: true, stopOnCancel: false }),
      suiteDeps(staggered, folder),
    );
    expect(result.outputs.failed).toBe(1);
    expect(wholeText(result.summary)).toMatch(/[1-9]\d* stopped/);
  });

  it('waits for a case that failed with a retry left: only its last failed attempt stops the rest', async () => {
    const result = await run(
      suiteInputs(staggered, { testCases, failFast: true, retries: 1 }),
      suiteDeps(staggered, folder),
    );
    // The first attempt of `Case 07` stopped nothing; its retry failed alone.
    expect(result.outputs).toMatchObject({ total: 6, passed: 5, failed: 1, flaky: 0 });
    expect(JSON.parse(result.outputs['job-ids'])).toHaveLength(7);
    expect(wholeText(result.summary)).not.toContain('stopped');
    expect(result.failure?.message).toContain('"Case 07" (chrome latest, Linux, all 2 attempts)');
  });

  it('reads fail-fast as a boolean, default false', async () => {
    const read = (values: Record<string, string>) =>
      readInputs(
        new InputReader(inputSource({ username: 'demo', 'access-key': 'k', suite: 'Twelve', ...values })),
      );
    expect((await read({})).failFast).toBe(false);
    expect((await read({ 'fail-fast': 'true' })).failFast).toBe(true);
    const error = await read({ 'fail-fast': 'yes' }).catch((e: unknown) => e);
    expect((error as InputError).input).toBe('fail-fast');
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
      suiteDeps(plain, folder, { workflow: { runNumber: '51', runAttempt: '1' } }),
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
    const workflow = { runNumber: '52', runAttempt: '1' };
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
          workflow: { runNumber: '53', runAttempt: String(n) },
        }),
      );
    const first = await attempt(1);
    expect(first.outputs).toMatchObject({ total: 12, passed: 11, failed: 1 });
    const second = await attempt(2);
    expect(second.failure).toBeUndefined();
    expect(second.outputs).toMatchObject({ 'build-name': 'Regression #53.2', total: 1, passed: 1, flaky: 1 });
    expect(wholeText(second.summary)).toContain('11 case(s) passed in an earlier attempt');
  });
});
