/**
 * How run-js-tests judges and reports each platform, through its deps (a real client against an
 * in-process emulator with short jobs, a recording logger, a temporary folder): what the start
 * sends, the counts of each page's tests in the results file, the JUnit report, the summary and
 * annotations for pages that pass and fail; and when the status checks fail for a while, keep
 * failing, or the start answers with the wrong number of test ids. What every test action
 * publishes (outputs, links, annotations, a results file per step) is a row of
 * `test/engine-scenarios/`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { wholeText } from '@sauce-actions/action-kit';
import type { RunningEmulator } from '@sauce-actions/emulator';
import { SauceClient } from '@sauce-actions/api';
import { describe, expect, it } from 'vitest';
import { run, type JsTestsDeps } from '../src/run.ts';
import { addFault, clientOf, resultsOf, withEmulators } from './helpers.ts';

let emulator: RunningEmulator;
const { inputs, deps, dir } = withEmulators([300], { started: (emulators) => ([emulator] = emulators) });

/** The next `times` status requests are answered 503. */
const statusFails = (times: number) =>
  addFault(emulator, { method: 'POST', path: '/rest/v1/demo/js-tests/status', status: 503, times });

describe('run-js-tests run', () => {
  it('runs on every platform, judges each, and reports counts, links, results and JUnit', async () => {
    const junitFile = path.join(dir, 'reports', 'js.xml');
    const d = deps(clientOf(emulator));
    const result = await run(
      inputs({ junitFile, build: 'b-1', name: 'unit', tags: ['ci'], maxDurationSeconds: 60 }),
      d,
    );
    const { outputs, summary } = result;
    expect(result.failure).toBeUndefined();
    const jobIds = JSON.parse(outputs['job-ids']) as string[];
    expect(jobIds).toHaveLength(2);
    for (const id of jobIds) expect(id).toMatch(/^[0-9a-f]{32}$/);

    // The start request carried the optional members.
    const job = await clientOf(emulator).automation.jobs.get(jobIds[0]!);
    expect(job).toMatchObject({ build: 'b-1', name: 'unit', tags: ['ci'] });

    const results = await resultsOf(outputs['results-file']);
    expect(results.outcome).toBe('completed');
    expect(results.platforms.map((p) => [p.name, p.status, p.counts])).toEqual([
      ['Windows 11 / chrome / latest', 'passed', { passed: 3, failed: 0, total: 3 }],
      ['Linux / firefox / 126', 'passed', { passed: 3, failed: 0, total: 3 }],
    ]);
    expect(results.platforms[1]).toMatchObject({
      platform: ['Linux', 'firefox', '126'],
      jobId: jobIds[1],
      jobUrl: `${emulator.url}/tests/${jobIds[1]}`,
      status: 'passed',
      counts: { passed: 3, failed: 0, total: 3 },
    });
    expect(results.platforms[1]!.result?.tests).toHaveLength(3);

    const junit = await readFile(junitFile, 'utf8');
    expect(junit).toContain('<testsuites tests="6" failures="0"');
    expect(junit).toContain('<testcase name="test 1" classname="Windows 11 / chrome / latest"');

    expect(wholeText(summary)).toContain('<td>3</td><td>0</td><td>3</td>');
    const lines = d.logger.lines('info');
    expect(lines.filter((line) => / platforms finished: /.test(line)).at(-1)).toMatch(
      /^2 of 2 platforms finished: 2 passed/,
    );
    expect(lines.at(-1)).toMatch(/^2 of 2 platforms passed, 0 failed \(\d+s\)$/);
  });

  it('fails platforms whose page fails, naming them with links, and one JUnit case per platform', async () => {
    const junitFile = path.join(dir, 'qunit.xml');
    const { outputs, summary, annotations, failure } = await run(
      inputs({ url: 'https://example.com/fail.html', framework: 'qunit', junitFile }),
      deps(clientOf(emulator)),
    );
    expect(outputs).toMatchObject({ total: 2, passed: 0, failed: 2 });
    const results = await resultsOf(outputs['results-file']);
    expect(results.platforms.map((p) => p.detail)).toEqual(['1 of 3 tests failed', '1 of 3 tests failed']);
    const jobIds = JSON.parse(outputs['job-ids']) as string[];
    expect(failure?.message).toContain(`${emulator.url}/tests/${jobIds[1]}`);
    expect(annotations[0]!.message).toContain('1 of 3 tests failed');
    const junit = await readFile(junitFile, 'utf8');
    expect(junit).toContain('<testsuites tests="2" failures="2"');
    expect(junit).toContain('message="1 of 3 tests failed"');
    expect(wholeText(summary)).toContain('JS unit tests (qunit): 2 failed');
    expect(wholeText(summary)).toContain('<td>2</td><td>1</td><td>3</td>');
  });

  it('rides out 503s while polling', async () => {
    // More failures than the client retries, so that a whole poll fails and the next one goes on.
    await statusFails(7);
    const d = deps(clientOf(emulator));
    const { outputs, failure } = await run(inputs(), d);
    expect(failure).toBeUndefined();
    expect(outputs.passed).toBe(2);
    expect(d.logger.lines('warning').some((line) => line.startsWith('Checking the status failed'))).toBe(
      true,
    );
  });

  it('when the status checks keep failing, fails as service trouble with the platforms as last seen', async () => {
    await statusFails(1000);
    const { outputs, summary, failure } = await run(inputs(), deps(clientOf(emulator)));
    expect(failure?.kind).toBe('service');
    expect(failure?.message).toMatch(/^Sauce Labs could not handle the request: /);
    expect(outputs).toMatchObject({ total: 2, passed: 0, failed: 0, 'job-ids': '[]' });
    const results = await resultsOf(outputs['results-file']);
    expect(results.outcome).toBe('status-failed');
    expect(results.platforms.map((p) => p.status)).toEqual(['queued', 'queued']);
    expect(wholeText(summary)).toContain('JS unit tests (custom): status unknown');
    expect(wholeText(summary)).toContain('Checking the status kept failing');
  });

  it('fails as service trouble when the start answers with the wrong number of test ids', async () => {
    const client: JsTestsDeps['client'] = {
      jobUrl: (id) => `https://app.example.com/tests/${id}`,
      serviceClock: new SauceClient().serviceClock,
      automation: {
        jobs: {
          stop: async () => {
            throw new Error('nothing to stop');
          },
          list: async () => [],
          get: async () => {
            throw new Error('no job to read');
          },
          update: async () => {
            throw new Error('no job to update');
          },
        },
        jsTests: {
          start: async () => ({ 'js tests': ['only-one'] }),
          getStatus: async () => {
            throw new Error('nothing to follow');
          },
        },
      },
    };
    const { outputs, summary, annotations, failure } = await run(inputs(), deps(client));
    expect(failure).toEqual({
      kind: 'service',
      message:
        'Sauce Labs answered the start of 2 platforms with 1 test ids. Run the job again; report it if it repeats.',
    });
    expect(outputs).toEqual({
      total: 2,
      passed: 0,
      failed: 0,
      flaky: 0,
      'job-ids': '[]',
      'results-file': '',
      'new-failures': 0,
      'still-failing': 0,
      fixed: 0,
      quarantined: 0,
    });
    expect(annotations).toEqual([]);
    expect(wholeText(summary)).toContain('JS unit tests (custom): not followed');
    expect(wholeText(summary)).toContain('only-one');
  });
});
