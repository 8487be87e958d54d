import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApiError, SauceClient, type JsTestStatusAnswer } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jsTestsSummary } from '../src/report.ts';
import { run, type JsTestsDeps, type JsTestsInputs } from '../src/run.ts';
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
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([emulator?.close(), slow?.close()]);
  await rm(dir, { recursive: true, force: true });
});

function clientOf(target: RunningEmulator): SauceClient {
  const client = new SauceClient({
    apiUrl: target.url,
    username: 'demo',
    accessKey: 'demo-access-key',
    // Quick retries keep the fault tests short.
    retry: { minDelayMs: 5, maxDelayMs: 20 },
  });
  clients.push(client);
  return client;
}

function inputs(overrides: Partial<JsTestsInputs> = {}): JsTestsInputs {
  return {
    url: 'https://example.com/tests.html',
    framework: 'custom',
    platforms: [
      ['Windows 11', 'chrome', 'latest'],
      ['Linux', 'firefox', '126'],
    ],
    tags: [],
    capabilities: {},
    failOnFailure: true,
    pollIntervalMs: 100,
    ...overrides,
  };
}

function deps(target: RunningEmulator, lines: string[] = [], extra: Partial<JsTestsDeps> = {}): JsTestsDeps {
  const client = clientOf(target);
  return {
    client: client.automation,
    jobUrl: (id) => client.jobUrl(id),
    resultsFile: path.join(dir, `results-${Math.random().toString(36).slice(2)}.json`),
    log: (line) => lines.push(line),
    warn: (line) => lines.push(`warning: ${line}`),
    ...extra,
  };
}

describe('run-js-tests run', () => {
  it('runs on every platform, judges each, and reports counts, links, results and JUnit', async () => {
    const lines: string[] = [];
    const junitFile = path.join(dir, 'reports', 'js.xml');
    const d = deps(emulator, lines);
    const { outputs, report, failure } = await run(
      inputs({ junitFile, build: 'b-1', name: 'unit', tags: ['ci'], maxDurationSeconds: 60 }),
      d,
    );
    expect(failure).toBeUndefined();
    expect(outputs.total).toBe(2);
    expect(outputs.passed).toBe(2);
    expect(outputs.failed).toBe(0);
    const jobIds = JSON.parse(outputs['job-ids']) as string[];
    expect(jobIds).toHaveLength(2);
    for (const id of jobIds) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(report.platforms.map((p) => [p.name, p.status, p.counts])).toEqual([
      ['Windows 11 / chrome / latest', 'passed', { passed: 3, failed: 0, total: 3 }],
      ['Linux / firefox / 126', 'passed', { passed: 3, failed: 0, total: 3 }],
    ]);

    // The start request carried the optional members.
    const job = await clientOf(emulator).automation.jobs.get(jobIds[0]!);
    expect(job).toMatchObject({ build: 'b-1', name: 'unit', tags: ['ci'] });

    const results = JSON.parse(await readFile(d.resultsFile, 'utf8'));
    expect(results.outcome).toBe('completed');
    expect(results.platforms[1]).toMatchObject({
      platform: ['Linux', 'firefox', '126'],
      jobId: jobIds[1],
      jobUrl: `${emulator.url}/tests/${jobIds[1]}`,
      status: 'passed',
      counts: { passed: 3, failed: 0, total: 3 },
    });
    expect(results.platforms[1].result.tests).toHaveLength(3);

    const junit = await readFile(junitFile, 'utf8');
    expect(junit).toContain('<testsuites tests="6" failures="0"');
    expect(junit).toContain('<testcase name="test 1" classname="Windows 11 / chrome / latest"');

    const html = jsTestsSummary(report).html();
    expect(html).toContain('JS unit tests (custom): all passed');
    expect(html).toContain(`<a href="${emulator.url}/tests/${jobIds[0]}">${jobIds[0]}</a>`);
    expect(html).toContain('<td>3</td><td>0</td><td>3</td>');

    // Progress: at most one line per poll, none repeated while nothing changes.
    const progress = lines.filter((line) => / platforms finished: /.test(line));
    expect(progress.length).toBeGreaterThan(0);
    const states = progress.map((line) => line.replace(/ \(\d+s\)$/, ''));
    expect(new Set(states).size).toBe(states.length);
    expect(progress.at(-1)).toMatch(/^2 of 2 platforms finished: 2 passed/);
  });

  it('fails platforms whose page fails, naming them with links, and one JUnit case per platform', async () => {
    const junitFile = path.join(dir, 'qunit.xml');
    const { outputs, report, failure } = await run(
      inputs({ url: 'https://example.com/fail.html', framework: 'qunit', junitFile }),
      deps(emulator),
    );
    expect(outputs).toMatchObject({ total: 2, passed: 0, failed: 2 });
    expect(report.platforms.map((p) => p.detail)).toEqual(['1 of 3 tests failed', '1 of 3 tests failed']);
    expect(failure).toContain('2 of 2 platforms failed the JS tests: Windows 11 / chrome / latest (');
    expect(failure).toContain(`${emulator.url}/tests/${report.platforms[1]!.jobId}`);
    const junit = await readFile(junitFile, 'utf8');
    expect(junit).toContain('<testsuites tests="2" failures="2"');
    expect(junit).toContain('message="1 of 3 tests failed"');
    const html = jsTestsSummary(report).html();
    expect(html).toContain('JS unit tests (qunit): 2 failed');
    expect(html).toContain('<td>2</td><td>1</td><td>3</td>');
  });

  it('only reports failures when fail-on-failure is false', async () => {
    const { outputs, failure } = await run(
      inputs({ url: 'https://example.com/fail.html', framework: 'mocha', failOnFailure: false }),
      deps(emulator),
    );
    expect(outputs.failed).toBe(2);
    expect(failure).toBeUndefined();
  });

  it('stops the unfinished jobs at the deadline and says what did not finish', async () => {
    const lines: string[] = [];
    const signal = AbortSignal.timeout(1500);
    const d = deps(slow, lines, { signal, abortReason: () => (signal.aborted ? 'timeout' : undefined) });
    const { outputs, report, failure } = await run(inputs({ failOnFailure: false }), d);
    expect(report.outcome).toBe('timeout');
    expect(outputs).toMatchObject({ total: 2, passed: 0, failed: 0 });
    expect(report.stoppedJobs).toHaveLength(2);
    expect(report.platforms.map((p) => p.status)).toEqual(['stopped', 'stopped']);
    expect(failure).toMatch(/did not finish within the timeout/);
    expect(failure).toContain('No platform finished. Did not finish: Windows 11 / chrome / latest (stopped');
    for (const id of report.stoppedJobs) {
      const job = await clientOf(slow).automation.jobs.get(id);
      expect(job.status).toBe('error');
    }
    expect(lines.some((line) => line.startsWith('Stopped 2 unfinished job(s)'))).toBe(true);
    const results = JSON.parse(await readFile(d.resultsFile, 'utf8'));
    expect(results).toMatchObject({ outcome: 'timeout', stoppedJobs: report.stoppedJobs });
    expect(jsTestsSummary(report).html()).toContain('The wait timed out: unfinished jobs were stopped.');
  });

  it('on cancellation before jobs are assigned, says there was nothing to stop', async () => {
    const controller = new AbortController();
    const d = deps(slow, [], { signal: controller.signal });
    const started = d.client.jsTests.getStatus.bind(d.client.jsTests);
    d.client = {
      ...d.client,
      jsTests: {
        start: d.client.jsTests.start.bind(d.client.jsTests),
        getStatus: async (...args) => {
          const answer = await started(...args);
          controller.abort();
          return answer;
        },
      },
    };
    const { report, failure } = await run(inputs(), d);
    expect(report.outcome).toBe('cancelled');
    expect(report.stoppedJobs).toEqual([]);
    expect(report.platforms.map((p) => p.status)).toEqual(['queued', 'queued']);
    expect(failure).toMatch(/^The run was cancelled before the JS tests finished\. No platform finished\./);
    expect(failure).toContain('(no job was assigned yet, so there was nothing to stop)');
  });

  it('rides out 503s while polling', async () => {
    const lines: string[] = [];
    // More failures than the client retries, so that a whole poll fails and the next one goes on.
    const response = await fetch(`${emulator.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'POST', path: '/rest/v1/demo/js-tests/status', status: 503, times: 7 }),
    });
    expect(response.ok).toBe(true);
    const { outputs } = await run(inputs(), deps(emulator, lines));
    expect(outputs.passed).toBe(2);
    expect(lines.some((line) => line.startsWith('warning: Checking the status failed'))).toBe(true);
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
      { ids: ['a'], intervalMs: 1, warn: () => {} },
    );
    expect(calls).toBe(3);
    expect(result).toEqual({ ended: 'finished', answer: done });
  });

  it('gives up after too many failed polls in a row, and at once on a client error', async () => {
    const warnings: string[] = [];
    let calls = 0;
    await expect(
      waitForResults(
        {
          getStatus: async () => {
            calls++;
            throw unavailable;
          },
        },
        { ids: ['a'], intervalMs: 1, warn: (w) => warnings.push(w), maxFailedPolls: 3 },
      ),
    ).rejects.toBe(unavailable);
    expect(calls).toBe(3);
    expect(warnings).toHaveLength(2);
    const refused = new ApiError({ operation: 'getJsTestStatus', method: 'POST', url: '/s', status: 404 });
    await expect(
      waitForResults(
        {
          getStatus: async () => {
            throw refused;
          },
        },
        { ids: ['a'], intervalMs: 1, warn: () => {} },
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
      { ids: ['a'], intervalMs: 10_000, signal: controller.signal, warn: () => {} },
    );
    expect(result).toEqual({ ended: 'aborted', answer: pending });
  });
});
