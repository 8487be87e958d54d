/**
 * End to end: the bundle from `npm run build`, run through the runner-faithful harness against the
 * emulator, as a workflow would run it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runStep, type StepResult } from '@sauce-actions/action-harness';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const ACTION_DIR = path.resolve(import.meta.dirname, '..');
const USERNAME = 'demo';
const ACCESS_KEY = 'demo-access-key';
/** Every form in which the key could leak: as is, URL-encoded, inside a Basic header. */
const SECRETS = [ACCESS_KEY, Buffer.from(`${USERNAME}:${ACCESS_KEY}`).toString('base64')];
const TWO_PLATFORMS = 'Windows 11 / chrome / latest\nLinux / firefox / 126';

let emulator: RunningEmulator;
let slow: RunningEmulator;
const steps: StepResult[] = [];

beforeAll(async () => {
  [emulator, slow] = await Promise.all([
    startEmulator({ port: 0, jobDurationMs: 400 }),
    // Queued for the first 0.8 s, then running long past the steps' deadlines.
    startEmulator({ port: 0, jobDurationMs: 4000 }),
  ]);
});

afterEach(async () => {
  await fetch(`${emulator.url}/_emulator/faults`, { method: 'DELETE' });
});

afterAll(async () => {
  await Promise.all(steps.map((step) => step.cleanup()));
  await Promise.all([emulator?.close(), slow?.close()]);
});

async function step(
  inputs: Record<string, string>,
  options: { target?: RunningEmulator; cancelOn?: RegExp } = {},
): Promise<StepResult> {
  const result = await runStep({
    actionDir: ACTION_DIR,
    inputs: {
      'api-url': (options.target ?? emulator).url,
      'poll-interval': '1',
      url: 'https://example.com/tests.html',
      framework: 'custom',
      platforms: TWO_PLATFORMS,
      ...inputs,
    },
    env: { SAUCE_USERNAME: USERNAME, SAUCE_ACCESS_KEY: ACCESS_KEY },
    ...(options.cancelOn !== undefined ? { cancelOn: options.cancelOn } : {}),
  });
  steps.push(result);
  await expectNoSecret(result);
  return result;
}

/** Nothing the step printed or wrote holds the key, even before the runner's masking. */
async function expectNoSecret(result: StepResult): Promise<void> {
  const files = [result.outputs['results-file']]
    .filter((file): file is string => file !== undefined && file !== '')
    .map((file) => readFile(file, 'utf8').catch(() => ''));
  const written = [
    result.unmaskedLog,
    JSON.stringify(result.outputs),
    result.summary,
    JSON.stringify(result.annotations),
    ...(await Promise.all(files)),
  ].join('\n');
  expect(result.masks).toContain(ACCESS_KEY);
  for (const secret of SECRETS) expect(written).not.toContain(secret);
}

/** The heading of the summary's last section: the failure's, when the step failed. */
function lastHeading(result: StepResult): string | undefined {
  return [...result.summary.matchAll(/<h2>(.*?)<\/h2>/g)].at(-1)?.[1];
}

function errorsOf(result: StepResult): string[] {
  return result.annotations.filter((a) => a.level === 'error').map((a) => a.message);
}

async function journal(target: RunningEmulator): Promise<{ method: string; path: string; status: number }[]> {
  const response = await fetch(`${target.url}/_emulator/requests`);
  return ((await response.json()) as { requests: { method: string; path: string; status: number }[] })
    .requests;
}

describe('run-js-tests bundle', () => {
  it('passes on two platforms and reports outputs, results, JUnit and summary', async () => {
    const result = await step({ 'junit-file': 'reports/js-tests.xml', build: 'nightly-7' });
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs).toMatchObject({ total: '2', passed: '2', failed: '0' });
    const jobIds = JSON.parse(result.outputs['job-ids']!) as string[];
    expect(jobIds).toHaveLength(2);
    const results = JSON.parse(await readFile(result.outputs['results-file']!, 'utf8'));
    expect(results.platforms.map((p: { jobId: string; status: string }) => [p.jobId, p.status])).toEqual([
      [jobIds[0], 'passed'],
      [jobIds[1], 'passed'],
    ]);
    expect(results.platforms[0].result).toMatchObject({ passed: 3, failed: 0, total: 3 });
    const junit = await readFile(path.join(result.workspace, 'reports', 'js-tests.xml'), 'utf8');
    expect(junit).toContain('<testsuites tests="6" failures="0"');
    expect(result.summary).toContain('JS unit tests (custom): all passed');
    expect(result.summary).toContain(`<a href="${emulator.url}/tests/${jobIds[1]}">${jobIds[1]}</a>`);
    expect(lastHeading(result)).toBe('JS unit tests (custom): all passed');
    expect(result.log).toMatch(/2 of 2 platforms finished: 2 passed/);
    expect(errorsOf(result)).toEqual([]);
  });

  it('fails when the page fails, with an annotation and a summary row per platform', async () => {
    const result = await step({
      url: 'https://example.com/fail/tests.html',
      framework: 'qunit',
      platforms: '- [Windows 11, chrome, latest]\n- [Linux, firefox, "126"]',
    });
    expect(result.exitCode).toBe(1);
    expect(result.outputs).toMatchObject({ total: '2', passed: '0', failed: '2' });
    const jobIds = JSON.parse(result.outputs['job-ids']!) as string[];
    const errors = errorsOf(result);
    for (const [index, name] of ['Windows 11 / chrome / latest', 'Linux / firefox / 126'].entries()) {
      const link = `${emulator.url}/tests/${jobIds[index]}`;
      expect(
        errors.some((e) => e.includes(`"${name}"`) && e.includes('1 of 3 tests failed') && e.includes(link)),
      ).toBe(true);
      expect(result.summary).toContain(`<a href="${link}">`);
      expect(result.summary).toContain(name);
    }
    expect(errors[0], "the step's failure is its first error").toMatch(
      /^2 of 2 platforms failed the JS tests: Windows 11 \/ chrome \/ latest \(/,
    );
    expect(result.summary).toContain('<td>2</td><td>1</td><td>3</td>');
    expect(lastHeading(result)).toBe('Run JS tests: failed');
    expect(result.summary).toMatch(/<p>2 of 2 platforms failed the JS tests: [^<]*<\/p>\n$/);
  });

  it('does not fail on failed platforms with fail-on-failure false', async () => {
    const result = await step({ url: 'https://example.com/fail.html', 'fail-on-failure': 'false' });
    expect(result.exitCode).toBe(0);
    expect(result.outputs.failed).toBe('2');
    // A green step shows no error: the failed platforms are warnings.
    expect(errorsOf(result)).toEqual([]);
    expect(result.annotations.filter((a) => a.level === 'warning')).toHaveLength(2);
    expect(lastHeading(result)).toBe('JS unit tests (custom): 2 failed');
  });

  it('refuses bad platforms and framework before sending anything', async () => {
    await fetch(`${emulator.url}/_emulator/requests`, { method: 'DELETE' });
    const platforms = await step({ platforms: 'Windows 11 / chrome / latest\nLinux / firefox' });
    expect(platforms.exitCode).toBe(1);
    expect(errorsOf(platforms)[0]).toMatch(
      /^Input "platforms" has line 2 "Linux \/ firefox", which is not an os, a browser and a version\./,
    );
    const framework = await step({ framework: 'karma' });
    expect(framework.exitCode).toBe(1);
    expect(errorsOf(framework)[0]).toContain(
      'Input "framework" has "karma". Allowed: `qunit`, `jasmine`, `YUI Test`, `mocha`, `custom`.',
    );
    // Nothing was done, so the summary is the failure's section alone.
    expect(framework.summary).toMatch(/^<h2>Run JS tests: bad input<\/h2>\n<p>Input &quot;framework&quot;/);
    const requests = await journal(emulator);
    expect(requests.filter((r) => r.path.includes('js-tests'))).toEqual([]);
  });

  it('stops the jobs at the timeout and fails saying what did not finish', async () => {
    const result = await step({ timeout: '2' }, { target: slow });
    expect(result.exitCode).toBe(1);
    const jobIds = JSON.parse(result.outputs['job-ids']!) as string[];
    expect(jobIds).toHaveLength(2);
    const stops = (await journal(slow)).filter((r) => r.method === 'PUT' && r.path.endsWith('/stop'));
    expect(stops.map((r) => r.path).sort()).toEqual(
      jobIds.map((id) => `/rest/v1/demo/jobs/${id}/stop`).sort(),
    );
    expect(errorsOf(result).at(-1)).toMatch(
      /^The JS tests did not finish within the timeout \(\d+s\)\. No platform finished\. Did not finish: Windows 11 \/ chrome \/ latest \(stopped before it finished\); Linux/,
    );
    expect(result.summary).toContain('The wait timed out: 2 unfinished jobs were stopped.');
    expect(lastHeading(result)).toBe('Run JS tests: timed out');
    const results = JSON.parse(await readFile(result.outputs['results-file']!, 'utf8'));
    expect(results.outcome).toBe('timeout');
  });

  it('stops the jobs when the runner cancels the step', async () => {
    // SIGINT, as the runner sends it, once the jobs are started; the step ends on its own.
    const result = await step({}, { target: slow, cancelOn: /^Started the JS tests: /m });
    expect(result.cancelled).toBe(true);
    expect(result.signal, result.log).toBeNull();
    expect(result.exitCode).toBe(1);
    expect(errorsOf(result).at(-1)).toMatch(/^The run was cancelled before the JS tests finished\./);
    expect(lastHeading(result)).toBe('Run JS tests: cancelled');
    const jobIds = JSON.parse(result.outputs['job-ids']!) as string[];
    const stopped = (await journal(slow)).filter((r) => r.method === 'PUT' && r.path.endsWith('/stop'));
    for (const id of jobIds) expect(stopped.some((r) => r.path.includes(id))).toBe(true);
  });

  it('rides out 503s while polling', async () => {
    // Within the client's retries; a whole failed poll is covered by the unit tests, with quick retries.
    const response = await fetch(`${emulator.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'POST', path: '/rest/v1/demo/js-tests/status', status: 503, times: 3 }),
    });
    expect(response.ok).toBe(true);
    await fetch(`${emulator.url}/_emulator/requests`, { method: 'DELETE' });
    const result = await step({});
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs.passed).toBe('2');
    const statuses = (await journal(emulator))
      .filter((r) => r.path === '/rest/v1/demo/js-tests/status')
      .map((r) => r.status);
    expect(statuses.slice(0, 4)).toEqual([503, 503, 503, 200]);
  });
});
