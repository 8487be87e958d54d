/**
 * Failed platforms of run-js-tests run again (`retries`): a platform that passes on a retry is
 * flaky, one that fails every attempt fails the step, a refused retry leaves the platforms as they
 * were, and a platform listed twice keeps its own runs; against an in-process emulator with short
 * jobs and a real client.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError, wholeText } from '@sauce-actions/action-kit';
import type { JsTestPlatform, JsTestStatusAnswer, SauceClient } from '@sauce-actions/api';
import type { RunningEmulator } from '@sauce-actions/emulator';
import { describe, expect, it } from 'vitest';
import { run, type JsTestsDeps } from '../src/run.ts';
import { addFault, clientOf, journal, resultsOf, withEmulators, withJsTests } from './helpers.ts';

let emulator: RunningEmulator;
const { inputs, deps, dir } = withEmulators([300], { started: (emulators) => ([emulator] = emulators) });

/**
 * The client, with the first run of the platform of `browser` reported failed (its third test):
 * flaky, as a page that passes on a later run.
 */
function flakyFirstRun(client: SauceClient, browser: string): JsTestsDeps['client'] {
  const jsTests = client.automation.jsTests;
  let firstId: string | undefined;
  return withJsTests(client, {
    start: async (params, options) => {
      const answer = await jsTests.start(params, options);
      const index = params.platforms.findIndex((platform) => platform[1] === browser);
      if (firstId === undefined && index >= 0) firstId = answer['js tests'][index];
      return answer;
    },
    getStatus: async (ids, params, options) => {
      const answer = await jsTests.getStatus(ids, params, options);
      const failing = (entry: JsTestStatusAnswer['js tests'][number]) => ({
        ...entry,
        result: {
          passed: 2,
          failed: 1,
          total: 3,
          duration: 120,
          tests: [1, 2, 3].map((n) => ({
            name: `test ${n}`,
            result: n < 3,
            message: n < 3 ? 'passed' : 'timing: the button showed late',
            duration: 40,
          })),
        },
      });
      return {
        ...answer,
        'js tests': answer['js tests'].map((entry) =>
          entry.id === firstId && entry.result !== null ? failing(entry) : entry,
        ),
      };
    },
  });
}

describe('run-js-tests retries', () => {
  it('runs a platform that failed again: passing then, it is flaky, counted and marked, and the step passes', async () => {
    const junitFile = path.join(dir, 'flaky.xml');
    const client = clientOf(emulator);
    const d = deps(flakyFirstRun(client, 'firefox'));
    const before = (await journal(emulator)).length;
    const result = await run(inputs({ retries: 1, junitFile, build: 'js-flaky' }), d);

    expect(result.failure).toBeUndefined();
    expect(result.outputs).toMatchObject({ total: 2, passed: 2, failed: 0, flaky: 1 });
    const jobIds = JSON.parse(result.outputs['job-ids']) as string[];
    expect(jobIds).toHaveLength(3);
    // The retry started the failed platform alone, in the same build.
    const starts = (await journal(emulator))
      .slice(before)
      .filter((entry) => entry.method === 'POST' && entry.path.endsWith('/js-tests'));
    expect(starts).toHaveLength(2);
    const retried = await client.automation.jobs.get(jobIds[2]!);
    expect(retried).toMatchObject({ build: 'js-flaky', browser: 'firefox' });
    expect(d.logger.lines('info')).toContain(
      'Running 1 failed platform(s) again, attempt 2 of 2 at most: Linux / firefox / 126',
    );

    expect(wholeText(result.summary)).toContain('2 platforms, 2 passed, 0 failed, 1 flaky');
    expect(wholeText(result.summary)).toContain(
      'Linux / firefox / 126<br><sub>flaky: failed on attempt 1, passed on attempt 2',
    );
    expect(wholeText(result.summary)).toContain(
      `1: <a href="${emulator.url}/tests/${jobIds[1]}">${jobIds[1]}</a> ❌<br>2: <a href="${emulator.url}/tests/${jobIds[2]}">${jobIds[2]}</a> ✅`,
    );
    expect(wholeText(result.summary)).toContain(
      'Failed platforms were run again (`retries: 1`): of the 1 run again, 1 passed on a retry (flaky), 0 failed every attempt.',
    );
    expect(result.annotations).toEqual([
      expect.objectContaining({ level: 'warning', title: 'Flaky job: Linux / firefox / 126' }),
    ]);

    const results = await resultsOf(result.outputs['results-file']);
    expect(results.platforms.map((p) => [p.status, p.flaky, p.attempts.map((a) => a.status)])).toEqual([
      ['passed', false, []],
      ['passed', true, ['failed']],
    ]);

    // The test that failed on the first run is flaky where the framework lists tests.
    const junit = await readFile(junitFile, 'utf8');
    expect(junit).toContain('<testsuites tests="6" failures="0" errors="0"');
    const third = /<testcase name="test 3" classname="Linux \/ firefox \/ 126"[\s\S]*?<\/testcase>/.exec(
      junit,
    )?.[0];
    expect(third).toContain(
      '<flakyFailure message="attempt 1: timing: the button showed late" type="failure">',
    );
    expect(third).toContain(`<system-out>${emulator.url}/tests/${jobIds[1]}</system-out>`);
    expect(junit.match(/flakyFailure /g)).toHaveLength(1);
  });

  it('a platform that fails every attempt fails the step as before, with each attempt reported', async () => {
    const junitFile = path.join(dir, 'rerun.xml');
    const result = await run(
      inputs({ url: 'https://example.com/fail.html', framework: 'qunit', retries: 1, junitFile }),
      deps(clientOf(emulator)),
    );
    expect(result.failure?.kind).toBe('tests-failed');
    expect(result.outputs).toMatchObject({ total: 2, passed: 0, failed: 2, flaky: 0 });
    expect(JSON.parse(result.outputs['job-ids'])).toHaveLength(4);
    expect(wholeText(result.summary)).toContain(
      'Windows 11 / chrome / latest<br><sub>failed all 2 attempts; 1 of 3 tests failed',
    );
    const junit = await readFile(junitFile, 'utf8');
    expect(junit).toContain('<testsuites tests="2" failures="2" errors="0"');
    expect(
      junit.match(/<rerunFailure message="attempt 1: 1 of 3 tests failed" type="failure">/g),
    ).toHaveLength(2);
  });

  it('a retry the service refuses to start leaves the platforms as they were, with a warning saying why', async () => {
    const client = clientOf(emulator);
    let starts = 0;
    // The second start (the retry) meets a refusal the emulator is told to give just before it.
    const refusingRetry = withJsTests(client, {
      start: async (params, options) => {
        starts += 1;
        if (starts === 2) {
          await addFault(emulator, { method: 'POST', path: '/rest/v1/demo/js-tests', status: 400 });
        }
        return client.automation.jsTests.start(params, options);
      },
    });
    const result = await run(
      inputs({ url: 'https://example.com/fail.html', framework: 'qunit', retries: 1 }),
      deps(refusingRetry),
    );
    expect(starts).toBe(2);
    expect(result.failure?.kind).toBe('tests-failed');
    expect(result.outputs).toMatchObject({ total: 2, passed: 0, failed: 2, flaky: 0 });
    expect(wholeText(result.summary)).not.toContain('were run again');
    expect(result.annotations).toContainEqual(
      expect.objectContaining({
        level: 'warning',
        message: expect.stringMatching(
          /^The failed platforms were not run again: Sauce Labs refused to start/,
        ),
      }),
    );
  });

  it('keeps a platform listed twice as two platforms, each with its own runs', async () => {
    const twice: JsTestPlatform[] = [
      ['Linux', 'firefox', '126'],
      ['Linux', 'firefox', '126'],
    ];
    const result = await run(
      inputs({ platforms: twice, url: 'https://example.com/fail.html', retries: 1, failOnFailure: false }),
      deps(clientOf(emulator)),
    );
    expect(result.outputs).toMatchObject({ total: 2, failed: 2, flaky: 0 });
    const results = await resultsOf(result.outputs['results-file']);
    expect(results.platforms.map((p) => p.attempts.length)).toEqual([1, 1]);
    expect(new Set(results.platforms.flatMap((p) => [p.jobId, ...p.attempts.map((a) => a.jobId)])).size).toBe(
      4,
    );
  });

  it('reads retries from 0 to 5 and refuses others by name', async () => {
    const { readInputs } = await import('../src/inputs.ts');
    const { InputReader, inputSource } = await import('@sauce-actions/action-kit');
    const read = (retries: string) =>
      readInputs(
        new InputReader(
          inputSource({
            url: 'https://example.com/t.html',
            framework: 'qunit',
            platforms: 'Linux / chrome / latest',
            username: 'demo',
            'access-key': 'k',
            retries,
          }),
        ),
      );
    expect((await read('3')).retries).toBe(3);
    for (const retries of ['6', '-1', '1.5']) {
      const error = await read(retries).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).input).toBe('retries');
    }
  });
});
