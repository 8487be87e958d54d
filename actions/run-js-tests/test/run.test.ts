import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  CancelledError,
  describeFailure,
  InputError,
  recordingLogger,
  shareOf,
  systemClock,
  wholeText,
} from '@sauce-actions/action-kit';
import { testStepDeps, type TestStepDeps } from '@sauce-actions/action-kit/testing';
import { ApiError, SauceClient, type JsTestPlatform, type JsTestStatusAnswer } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JsTestsInputs } from '../src/inputs.ts';
import { run, type JsTestsDeps } from '../src/run.ts';
import { waitForResults } from '../src/wait.ts';

let emulator: RunningEmulator;
let slow: RunningEmulator;
let dir: string;
const clients: SauceClient[] = [];

beforeAll(async () => {
  [emulator, slow] = await Promise.all([
    startEmulator({ port: 0, jobDurationMs: 300 }),
    // Queued for the first fifth of a job (0.8 s here), then running for long.
    startEmulator({ port: 0, jobDurationMs: 4000 }),
  ]);
  dir = await mkdtemp(path.join(os.tmpdir(), 'run-js-tests-'));
});

afterEach(async () => {
  await fetch(`${emulator.url}/_emulator/faults`, { method: 'DELETE' });
  await fetch(`${slow.url}/_emulator/faults`, { method: 'DELETE' });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([emulator?.close(), slow?.close()]);
  await rm(dir, { recursive: true, force: true });
});

function clientOf(target: RunningEmulator, accessKey = 'demo-access-key'): SauceClient {
  const client = new SauceClient({
    region: 'us-west-1',
    apiUrl: target.url,
    username: 'demo',
    accessKey,
    // Quick retries keep the fault tests short.
    retry: { minDelayMs: 5, maxDelayMs: 20 },
  });
  clients.push(client);
  return client;
}

function inputs(overrides: Partial<JsTestsInputs> = {}): JsTestsInputs {
  return {
    connection: {
      service: 'sauce',
      region: 'us-west-1',
      apiUrl: emulator.url,
      username: 'demo',
      accessKey: 'demo-access-key',
    },
    operation: 'run',
    prComment: false,
    url: 'https://example.com/tests.html',
    framework: 'custom',
    platforms: [
      ['Windows 11', 'chrome', 'latest'],
      ['Linux', 'firefox', '126'],
    ],
    tags: [],
    capabilities: {},
    failOnFailure: true,
    retries: 0,
    timeoutMs: 60_000,
    pollIntervalMs: 100,
    ...overrides,
  };
}

type Deps = TestStepDeps & JsTestsDeps;

async function journal(target: RunningEmulator): Promise<{ method: string; path: string }[]> {
  const answer = await fetch(`${target.url}/_emulator/requests`);
  return ((await answer.json()) as { requests: { method: string; path: string }[] }).requests;
}

async function addFault(target: RunningEmulator, rule: Record<string, unknown>): Promise<void> {
  const answer = await fetch(`${target.url}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  });
  expect(answer.ok).toBe(true);
}

/** Ids of the jobs of a build still queued or running on the emulator. */
async function unfinishedJobs(target: RunningEmulator, build: string): Promise<string[]> {
  const jobs = await clientOf(target).automation.jobs.list({ full: true, limit: 1000 });
  return jobs
    .filter((job) => job.build === build && (job.status === 'queued' || job.status === 'in progress'))
    .map((job) => job.id);
}

/** Step deps with a results file of its own in the test folder, and a client (real by default). */
function deps(client: JsTestsDeps['client'], overrides: Partial<TestStepDeps> = {}): Deps {
  return {
    ...testStepDeps({
      tempDir: dir,
      workflow: { step: `step-${Math.random().toString(36).slice(2)}` },
      ...overrides,
    }),
    client,
  };
}

interface ResultsFile {
  outcome: string;
  stoppedJobs: string[];
  platforms: {
    name: string;
    platform: string[];
    jobId: string | null;
    jobUrl: string | null;
    status: string;
    counts: { passed: number; failed: number; total: number } | null;
    detail: string | null;
    result: { tests?: unknown[] } | null;
    flaky: boolean;
    attempts: { status: string; jobId: string | null }[];
  }[];
}

async function resultsOf(file: string): Promise<ResultsFile> {
  return JSON.parse(await readFile(file, 'utf8')) as ResultsFile;
}

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
    expect(result.annotations).toEqual([]);
    expect(outputs.total).toBe(2);
    expect(outputs.passed).toBe(2);
    expect(outputs.failed).toBe(0);
    const jobIds = JSON.parse(outputs['job-ids']) as string[];
    expect(jobIds).toHaveLength(2);
    for (const id of jobIds) expect(id).toMatch(/^[0-9a-f]{32}$/);

    // The start request carried the optional members.
    const job = await clientOf(emulator).automation.jobs.get(jobIds[0]!);
    expect(job).toMatchObject({ build: 'b-1', name: 'unit', tags: ['ci'] });

    expect(outputs['results-file']).toBe(path.join(dir, `run-js-tests-${d.workflow.step}.json`));
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

    expect(wholeText(summary)).toContain('JS unit tests (custom): all passed');
    expect(wholeText(summary)).toContain(`<a href="${emulator.url}/tests/${jobIds[0]}">${jobIds[0]}</a>`);
    expect(wholeText(summary)).toContain('<td>3</td><td>0</td><td>3</td>');

    // Progress: at most one line per poll, none repeated while nothing changes.
    const lines = d.logger.lines('info');
    const progress = lines.filter((line) => / platforms finished: /.test(line));
    expect(progress.length).toBeGreaterThan(0);
    const states = progress.map((line) => line.replace(/ \(\d+s\)$/, ''));
    expect(new Set(states).size).toBe(states.length);
    expect(progress.at(-1)).toMatch(/^2 of 2 platforms finished: 2 passed/);
    expect(lines.at(-1)).toMatch(/^2 of 2 platforms passed, 0 failed \(\d+s\)$/);
    expect(lines).toContain(`JUnit report written to ${junitFile}`);
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
    expect(failure?.kind).toBe('tests-failed');
    expect(failure?.message).toContain(
      '2 of 2 platforms failed the JS tests: Windows 11 / chrome / latest (',
    );
    expect(failure?.message).toContain(`${emulator.url}/tests/${jobIds[1]}`);
    expect(annotations).toHaveLength(2);
    expect(annotations[0]).toMatchObject({
      level: 'error',
      title: 'Failed job: Windows 11 / chrome / latest',
    });
    expect(annotations[0]!.message).toContain('1 of 3 tests failed');
    expect(annotations[0]!.message).toContain(`${emulator.url}/tests/${jobIds[0]}`);
    const junit = await readFile(junitFile, 'utf8');
    expect(junit).toContain('<testsuites tests="2" failures="2"');
    expect(junit).toContain('message="1 of 3 tests failed"');
    expect(wholeText(summary)).toContain('JS unit tests (qunit): 2 failed');
    expect(wholeText(summary)).toContain('<td>2</td><td>1</td><td>3</td>');
  });

  it('only reports failures when fail-on-failure is false', async () => {
    const { outputs, annotations, failure } = await run(
      inputs({ url: 'https://example.com/fail.html', framework: 'mocha', failOnFailure: false }),
      deps(clientOf(emulator)),
    );
    expect(outputs.failed).toBe(2);
    expect(failure).toBeUndefined();
    // A green step shows no error: failed platforms are warnings.
    expect(annotations.map((a) => a.level)).toEqual(['warning', 'warning']);
  });

  it('stops the unfinished jobs at the timeout and says what did not finish', async () => {
    const d = deps(clientOf(slow));
    const { outputs, summary, failure } = await run(inputs({ failOnFailure: false, timeoutMs: 1500 }), d);
    expect(outputs).toMatchObject({ total: 2, passed: 0, failed: 0 });
    expect(failure?.kind).toBe('timeout');
    expect(failure?.message).toMatch(/^The JS tests did not finish within the timeout \(\d+s\)\./);
    expect(failure?.message).toContain(
      'No platform finished. Did not finish: Windows 11 / chrome / latest (stopped',
    );
    expect(failure?.message).toContain('Raise `timeout`, or lower `max-duration`');
    const results = await resultsOf(outputs['results-file']);
    expect(results.outcome).toBe('timeout');
    expect(results.stoppedJobs).toHaveLength(2);
    expect(results.platforms.map((p) => p.status)).toEqual(['stopped', 'stopped']);
    for (const id of results.stoppedJobs) {
      const job = await clientOf(slow).automation.jobs.get(id);
      expect(job.status).toBe('error');
    }
    expect(d.logger.lines('warning')).toContain('The timeout passed: stopping the unfinished jobs.');
    expect(d.logger.lines('info').some((line) => line.startsWith('Stopped 2 unfinished job(s)'))).toBe(true);
    expect(wholeText(summary)).toContain('JS unit tests (custom): timed out');
    expect(wholeText(summary)).toContain('The wait timed out: 2 unfinished jobs were stopped.');
    expect(wholeText(summary)).toContain('⏹️ stopped');
  });

  it('on cancellation while the jobs are queued (job not ready), asks again until they are assigned and stops them', async () => {
    const controller = new AbortController();
    const real = clientOf(slow);
    let firstAnswer: JsTestStatusAnswer | undefined;
    // The host aborts its signal on SIGINT; here the first status answer does.
    const client: JsTestsDeps['client'] = {
      jobUrl: (id) => real.jobUrl(id),
      automation: {
        jobs: real.automation.jobs,
        jsTests: {
          start: (...args) => real.automation.jsTests.start(...args),
          getStatus: async (...args) => {
            const answer = await real.automation.jsTests.getStatus(...args);
            if (!controller.signal.aborted) {
              firstAnswer = answer;
              controller.abort(new CancelledError('the run was cancelled (SIGINT)'));
            }
            return answer;
          },
        },
      },
    };
    const d = deps(client, { signal: controller.signal });
    const { outputs, summary, failure } = await run(inputs({ build: 'js-cancel-queued' }), d);
    // When cancelled, no platform had a job yet.
    expect(firstAnswer?.['js tests'].map((t) => t.job_id)).toEqual(['job not ready', 'job not ready']);

    expect(failure?.kind).toBe('cancelled');
    expect(failure?.message).toMatch(
      /^The run was cancelled before the JS tests finished\. No platform finished\. Did not finish: Windows 11 \/ chrome \/ latest \(stopped before it finished\); Linux \/ firefox \/ 126 \(stopped before it finished\)\.$/,
    );
    const results = await resultsOf(outputs['results-file']);
    expect(results.outcome).toBe('cancelled');
    expect(results.stoppedJobs).toHaveLength(2);
    expect(results.platforms.map((p) => p.status)).toEqual(['stopped', 'stopped']);
    const jobIds = JSON.parse(outputs['job-ids']) as string[];
    expect(jobIds).toEqual(results.platforms.map((p) => p.jobId));
    expect([...results.stoppedJobs].sort()).toEqual([...jobIds].sort());
    expect(d.logger.lines('warning')).toContain('Cancelled: stopping the unfinished jobs.');
    // The summary says exactly what was stopped, and nothing else.
    expect(wholeText(summary)).toContain('The run was cancelled: 2 unfinished jobs were stopped.');
    expect(wholeText(summary)).not.toContain('nothing');
    expect(await unfinishedJobs(slow, 'js-cancel-queued')).toEqual([]);
    expect(d.state.get('js-tests')).toBe('');
  });

  it('cancelled before the start request, sends nothing', async () => {
    const controller = new AbortController();
    controller.abort(new CancelledError('the run was cancelled (SIGINT)'));
    const before = (await journal(slow)).length;
    const d = deps(clientOf(slow), { signal: controller.signal });
    const error = await run(inputs({ build: 'js-never' }), d).catch((e: unknown) => e);
    expect(describeFailure(error, d.signal).kind).toBe('cancelled');
    expect((await journal(slow)).slice(before).filter((e) => e.method === 'POST')).toEqual([]);
    expect(d.state.saved.has('js-tests')).toBe(false);
  });

  it('cancelled while the start request is on its way: waits for its answer, then stops the jobs', async () => {
    await addFault(slow, { method: 'POST', path: '/rest/v1/demo/js-tests', delayMs: 1000 });
    const controller = new AbortController();
    const d = deps(clientOf(slow), { signal: controller.signal });
    setTimeout(() => controller.abort(new CancelledError('the run was cancelled (SIGINT)')), 300);
    const { outputs, summary, failure } = await run(inputs({ build: 'js-cancel-start' }), d);
    expect(failure?.kind).toBe('cancelled');
    expect(outputs.total).toBe(2);
    expect(JSON.parse(outputs['job-ids'])).toHaveLength(2);
    expect(wholeText(summary)).toContain('The run was cancelled: 2 unfinished jobs were stopped.');
    expect(await unfinishedJobs(slow, 'js-cancel-start')).toEqual([]);
  });

  it('timed out while the jobs are queued: stops them once they are assigned', async () => {
    const d = deps(clientOf(slow));
    const { outputs, summary, failure } = await run(
      inputs({ build: 'js-timeout-queued', timeoutMs: 300, pollIntervalMs: 100 }),
      d,
    );
    expect(failure?.kind).toBe('timeout');
    expect(JSON.parse(outputs['job-ids'])).toHaveLength(2);
    expect(wholeText(summary)).toContain('The wait timed out: 2 unfinished jobs were stopped.');
    expect(await unfinishedJobs(slow, 'js-timeout-queued')).toEqual([]);
  });

  it('records the test ids and then the job ids in the state while it runs, and clears them at the end', async () => {
    const seen: string[] = [];
    const real = clientOf(emulator);
    const d = deps(real);
    const client: JsTestsDeps['client'] = {
      jobUrl: (id) => real.jobUrl(id),
      automation: {
        jobs: real.automation.jobs,
        jsTests: {
          start: (...args) => real.automation.jsTests.start(...args),
          getStatus: async (...args) => {
            seen.push(d.state.get('js-tests'));
            return real.automation.jsTests.getStatus(...args);
          },
        },
      },
    };
    const { outputs, failure } = await run(inputs(), { ...d, client });
    expect(failure).toBeUndefined();
    const first = JSON.parse(seen[0] ?? '{}') as { testIds: string[]; region: string; apiUrl: string };
    expect(first).toMatchObject({ region: 'us-west-1', apiUrl: emulator.url, jobIds: [] });
    expect(first.testIds).toHaveLength(2);
    const last = JSON.parse(seen.at(-1) ?? '{}') as { jobIds: string[] };
    expect(last.jobIds.sort()).toEqual((JSON.parse(outputs['job-ids']) as string[]).sort());
    expect(seen.join('')).not.toContain('demo-access-key');
    expect(d.state.get('js-tests')).toBe('');
  });

  it('refuses a junit-file that cannot be created, before any request', async () => {
    const before = (await journal(emulator)).length;
    const started = Date.now();
    const error = await run(inputs({ junitFile: '/proc/no-such/js.xml' }), deps(clientOf(emulator))).catch(
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).input).toBe('junit-file');
    expect(await journal(emulator)).toHaveLength(before);
  });

  it('refuses a junit-file that is a folder, before any request', async () => {
    const before = (await journal(emulator)).length;
    const error = await run(inputs({ junitFile: dir }), deps(clientOf(emulator))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toContain('which is a folder');
    expect(await journal(emulator)).toHaveLength(before);
  });

  it('refuses an unwritable place for the results file, before any request', async () => {
    const before = (await journal(emulator)).length;
    const error = await run(inputs(), deps(clientOf(emulator), { tempDir: '/proc/no-such' })).catch(
      (e: unknown) => e,
    );
    expect(describeFailure(error).kind).toBe('input');
    expect((error as Error).message).toContain('The results file /proc/no-such/');
    expect(await journal(emulator)).toHaveLength(before);
  });

  it('names tunnel-name when the service refuses the tunnel', async () => {
    const d = deps(clientOf(emulator));
    const error = await run(inputs({ tunnelName: 'no-such-tunnel' }), d).catch((e: unknown) => e);
    const failure = describeFailure(error, d.signal);
    expect(failure.kind).toBe('refused');
    expect(failure.message).toContain('No running tunnel named no-such-tunnel');
    expect(failure.message).toContain('Check `tunnel-name` ("no-such-tunnel")');
  });

  it('rides out 503s while polling', async () => {
    // More failures than the client retries, so that a whole poll fails and the next one goes on.
    const response = await fetch(`${emulator.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'POST', path: '/rest/v1/demo/js-tests/status', status: 503, times: 7 }),
    });
    expect(response.ok).toBe(true);
    const d = deps(clientOf(emulator));
    const { outputs, failure } = await run(inputs(), d);
    expect(failure).toBeUndefined();
    expect(outputs.passed).toBe(2);
    expect(d.logger.lines('warning').some((line) => line.startsWith('Checking the status failed'))).toBe(
      true,
    );
  });

  it('when the status checks keep failing, fails as service trouble with the platforms as last seen', async () => {
    const response = await fetch(`${emulator.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        method: 'POST',
        path: '/rest/v1/demo/js-tests/status',
        status: 503,
        times: 1000,
      }),
    });
    expect(response.ok).toBe(true);
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

  it('fails before anything is done when the start is refused', async () => {
    const d = deps(clientOf(emulator, 'wrong-key'));
    const error = await run(inputs(), d).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    const failure = describeFailure(error, d.signal);
    expect(failure.kind).toBe('refused');
    expect(failure.message).toContain('The credentials were refused');
  });

  it('fails as service trouble when the start answers with the wrong number of test ids', async () => {
    const client: JsTestsDeps['client'] = {
      jobUrl: (id) => `https://app.example.com/tests/${id}`,
      automation: {
        jobs: {
          stop: async () => {
            throw new Error('nothing to stop');
          },
          list: async () => [],
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
    });
    expect(annotations).toEqual([]);
    expect(wholeText(summary)).toContain('JS unit tests (custom): not followed');
    expect(wholeText(summary)).toContain('only-one');
  });
});

describe('run-js-tests shards', () => {
  const all: JsTestPlatform[] = [
    ['Windows 11', 'chrome', 'latest'],
    ['Linux', 'firefox', '126'],
    ['macOS 14', 'safari', '17'],
    ['Windows 11', 'MicrosoftEdge', 'latest'],
  ];

  it('two shards of four platforms run two each, every platform once, under the one build', async () => {
    const before = (await journal(emulator)).length;
    const client = clientOf(emulator);
    const results = await Promise.all(
      [1, 2].map((index) => {
        const shard = { index, total: 2 };
        const platforms = shareOf(all, shard, (p) => p.join('\u0000'));
        return run(inputs({ platforms, shard: { ...shard, of: 4 }, build: 'js-shards' }), deps(client));
      }),
    );
    expect(results.map((result) => result.failure)).toEqual([undefined, undefined]);
    expect(results.map((result) => result.outputs.total)).toEqual([2, 2]);
    const starts = (await journal(emulator))
      .slice(before)
      .filter((entry) => entry.method === 'POST' && entry.path.endsWith('/js-tests'));
    expect(starts).toHaveLength(2);
    const ran = await Promise.all(
      results
        .flatMap((result) => JSON.parse(result.outputs['job-ids']) as string[])
        .map((id) => client.automation.jobs.get(id)),
    );
    expect(ran.map((job) => job.build)).toEqual(['js-shards', 'js-shards', 'js-shards', 'js-shards']);
    expect(ran.map((job) => `${job.os}/${job.browser}`).sort()).toEqual(
      all.map((p) => `${p[0]}/${p[1]}`).sort(),
    );
    expect(wholeText(results[0]!.summary)).toContain('JS unit tests (custom), shard 1/2: all passed');
    expect(wholeText(results[1]!.summary)).toContain('2/2: 2 of the 4 platforms, split among 2 shards');
  });

  it('a shard with no platform passes, starts nothing and says so', async () => {
    const before = (await journal(emulator)).length;
    const result = await run(
      inputs({ platforms: [], shard: { index: 3, total: 3, of: 2 } }),
      deps(clientOf(emulator)),
    );
    expect(result.failure).toBeUndefined();
    expect(result.outputs).toMatchObject({ total: 0, passed: 0, failed: 0, 'job-ids': '[]' });
    expect(wholeText(result.summary)).toContain('JS unit tests (custom), shard 3/3: nothing to run');
    expect(wholeText(result.summary)).toContain('the platforms is empty: nothing ran');
    expect((await journal(emulator)).slice(before)).toEqual([]);
    expect((await resultsOf(result.outputs['results-file'])).platforms).toEqual([]);
  });
});

/**
 * The client, with the first run of the platform of `browser` reported failed (its third test):
 * flaky, as a page that passes on a later run.
 */
function flakyFirstRun(client: SauceClient, browser: string): JsTestsDeps['client'] {
  const jsTests = client.automation.jsTests;
  let firstId: string | undefined;
  return {
    jobUrl: (id) => client.jobUrl(id),
    automation: {
      jobs: client.automation.jobs,
      jsTests: {
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
      },
    },
  };
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
    const refusingRetry: JsTestsDeps['client'] = {
      jobUrl: (id) => client.jobUrl(id),
      automation: {
        jobs: client.automation.jobs,
        jsTests: {
          start: async (params, options) => {
            starts += 1;
            if (starts === 2) {
              await addFault(emulator, { method: 'POST', path: '/rest/v1/demo/js-tests', status: 400 });
            }
            return client.automation.jsTests.start(params, options);
          },
          getStatus: (ids, params, options) => client.automation.jsTests.getStatus(ids, params, options),
        },
      },
    };
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

describe('waiting for results', () => {
  const done: JsTestStatusAnswer = {
    completed: true,
    'js tests': [
      { id: 'a', job_id: 'f'.repeat(32), platform: ['Linux', 'chrome', '1'], url: '', result: null },
    ],
  };
  const unavailable = new ApiError({ operation: 'getJsTestStatus', method: 'POST', url: '/s', status: 503 });

  it('keeps polling while the answer is not final: completed needs real job ids', async () => {
    const answers: JsTestStatusAnswer[] = [
      { ...done, 'js tests': [{ ...done['js tests'][0]!, job_id: 'job not ready' }] },
      { ...done, completed: false },
      done,
    ];
    let calls = 0;
    const result = await waitForResults(
      { getStatus: async () => answers[calls++]! },
      { ids: ['a'], intervalMs: 1, clock: systemClock, logger: recordingLogger() },
    );
    expect(calls).toBe(3);
    expect(result).toEqual({ ended: 'finished', answer: done });
  });

  it('gives up after too many failed polls in a row, and at once on a client error', async () => {
    const logger = recordingLogger();
    let calls = 0;
    await expect(
      waitForResults(
        {
          getStatus: async () => {
            calls++;
            throw unavailable;
          },
        },
        { ids: ['a'], intervalMs: 1, clock: systemClock, logger, maxFailedPolls: 3 },
      ),
    ).rejects.toBe(unavailable);
    expect(calls).toBe(3);
    expect(logger.lines('warning')).toHaveLength(2);
    const refused = new ApiError({ operation: 'getJsTestStatus', method: 'POST', url: '/s', status: 404 });
    await expect(
      waitForResults(
        {
          getStatus: async () => {
            throw refused;
          },
        },
        { ids: ['a'], intervalMs: 1, clock: systemClock, logger: recordingLogger() },
      ),
    ).rejects.toBe(refused);
  });

  it('ends at once when the signal aborts, keeping the last answer', async () => {
    const controller = new AbortController();
    const pending = { ...done, completed: false };
    const result = await waitForResults(
      {
        getStatus: async () => {
          controller.abort();
          return pending;
        },
      },
      {
        ids: ['a'],
        intervalMs: 10_000,
        signal: controller.signal,
        clock: systemClock,
        logger: recordingLogger(),
      },
    );
    expect(result).toEqual({ ended: 'aborted', answer: pending });
  });

  it('waits between polls on the clock it is given', async () => {
    const waits: number[] = [];
    let calls = 0;
    const clock = { now: () => 0, sleep: async (ms: number) => void waits.push(ms) };
    await waitForResults(
      { getStatus: async () => (++calls < 3 ? { ...done, completed: false } : done) },
      { ids: ['a'], intervalMs: 7000, clock, logger: recordingLogger() },
    );
    expect(waits).toEqual([7000, 7000]);
  });
});
