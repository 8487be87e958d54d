/**
 * `run` and `readInputs` of run-suite-and-wait, through their deps: a real client against an
 * in-process emulator with short jobs (and one with jobs that never end, for the timeout and the
 * cancellation), a recording logger, and temporary folders.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  ActionError,
  CancelledError,
  describeFailure,
  InputError,
  InputReader,
  inputSource,
  wholeText,
  type ArtifactUpload,
} from '@sauce-actions/action-kit';
import type { testStepDeps, TestStepDeps } from '@sauce-actions/action-kit/testing';
import { ResponseShapeError, type Job, type SauceClient } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { readInputs, type SuiteInputs } from '../src/inputs.ts';
import { run, type SuiteDeps } from '../src/run.ts';
import { addFault, clientFor, closeClients, journal, suiteDeps, suiteInputs } from './helpers.ts';
import { GREEN_CASES, GREEN_SUITE, seed } from './seed.ts';

let fast: RunningEmulator;
let slow: RunningEmulator;
let folder: string;

beforeAll(async () => {
  [fast, slow] = await Promise.all([
    startEmulator({ port: 0, jobDurationMs: 300, seed: seed() }),
    startEmulator({ port: 0, jobDurationMs: 600_000, seed: seed() }),
  ]);
});
afterAll(async () => {
  await closeClients();
  await Promise.all([fast?.close(), slow?.close()]);
});
beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'run-suite-and-wait-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
  await Promise.all([fast, slow].map((e) => fetch(`${e.url}/_emulator/faults`, { method: 'DELETE' })));
});

function inputs(emulator: RunningEmulator, overrides: Partial<SuiteInputs> = {}): SuiteInputs {
  return suiteInputs(emulator, overrides);
}

function depsFor(
  emulator: RunningEmulator,
  overrides: Parameters<typeof testStepDeps>[0] = {},
): TestStepDeps & SuiteDeps {
  return suiteDeps(emulator, folder, overrides);
}

/** Ids of the jobs of a build that are still queued or running on the emulator. */
async function unfinishedJobs(emulator: RunningEmulator, build: string | undefined): Promise<string[]> {
  const jobs = await clientFor(emulator).automation.jobs.list({ full: true, limit: 1000 });
  return jobs
    .filter((job) => job.build === build && (job.status === 'queued' || job.status === 'in progress'))
    .map((job) => job.id);
}

interface Hooks {
  /** Called when the cases of a suite have been read, before its run is requested. */
  afterCasesRead?: () => void;
  /** Called as a run is requested. */
  beforeRun?: () => void;
  /** Called when a run answered, before the action sees the answer. */
  afterRun?: () => void;
  /** Called on each stop request. */
  onStop?: (jobId: string) => void;
}

/** The deps' client, with hooks at the stages where a test cancels. */
function hooked(deps: TestStepDeps & SuiteDeps, hooks: Hooks): TestStepDeps & SuiteDeps {
  const real = deps.client as SauceClient;
  const suites = real.authoring.testSuites;
  const cases = real.authoring.testCases;
  const jobs = real.automation.jobs;
  const ran = async <T>(call: () => Promise<T>): Promise<T> => {
    hooks.beforeRun?.();
    const answer = await call();
    hooks.afterRun?.();
    return answer;
  };
  const client: SuiteDeps['client'] = {
    authoring: {
      testSuites: {
        get: suites.get.bind(suites),
        iterate: suites.iterate.bind(suites),
        run: (...args) => ran(() => suites.run(...args)),
      },
      testCases: {
        iterate: async function* (...args) {
          yield* cases.iterate(...args);
          hooks.afterCasesRead?.();
        },
        run: (...args) => ran(() => cases.run(...args)),
      },
    },
    automation: {
      jobs: {
        list: jobs.list.bind(jobs) as SuiteDeps['client']['automation']['jobs']['list'],
        stop: (jobId, ...rest) => {
          hooks.onStop?.(jobId);
          return jobs.stop(jobId, ...rest);
        },
      },
      assets: real.automation.assets,
    },
    jobUrl: (id) => real.jobUrl(id),
  };
  return { ...deps, client };
}

const SIGINT = (): CancelledError => new CancelledError('the run was cancelled (SIGINT)');

describe('run-suite-and-wait run', () => {
  it('runs a suite that passes: outputs, the summary table, the results file and the JUnit report', async () => {
    const deps = depsFor(fast);
    const junitFile = path.join(folder, 'workspace', 'reports', 'junit.xml');
    const result = await run(inputs(fast, { suite: GREEN_SUITE, junitFile }), deps);

    expect(result.failure).toBeUndefined();
    expect(result.outputs).toMatchObject({ 'build-name': 'Green #7.2', total: 3, passed: 3, failed: 0 });
    const ids = JSON.parse(result.outputs['job-ids']) as string[];
    expect(ids).toHaveLength(3);
    expect(result.annotations).toEqual([]);

    expect(wholeText(result.summary)).toContain('<h2>Suite Green: 3 of 3 jobs passed</h2>');
    expect(wholeText(result.summary)).toContain('Build: <code>Green #7.2</code>');
    expect(wholeText(result.summary)).toContain('3 jobs, 3 passed, 0 failed');
    expect(wholeText(result.summary)).toContain('<table>');
    for (const id of ids) expect(wholeText(result.summary)).toContain(`href="${fast.url}/tests/${id}"`);

    expect(result.outputs['results-file']).toBe(path.join(deps.tempDir, 'run-suite-and-wait-results.json'));
    const results = JSON.parse(await readFile(result.outputs['results-file'], 'utf8')) as {
      complete: boolean;
      buildName: string;
      jobs: { id: string; status: string; service: { id: string } | null }[];
    };
    expect(results).toMatchObject({ complete: true, buildName: 'Green #7.2' });
    expect(results.jobs.map((job) => job.status)).toEqual(['passed', 'passed', 'passed']);
    expect(results.jobs.map((job) => job.service?.id).sort()).toEqual([...ids].sort());

    const junit = await readFile(junitFile, 'utf8');
    expect(junit).toContain('tests="3" failures="0" errors="0"');
    expect(junit).toContain('<property name="build" value="Green #7.2"/>');

    const log = deps.logger.lines('info');
    expect(log[0]).toBe('Started suite "Green" in build "Green #7.2": 3 job(s) expected.');
    expect(log.some((line) => /^3 of 3 jobs: .* 3 passed, 0 failed/.test(line))).toBe(true);
    expect(log).toContain('Jobs: 3, passed 3, failed 0.');
    expect(log).toContain(`JUnit report written to ${junitFile}.`);
  });

  it('keeps one results file per step, so that two suites in one job keep both', async () => {
    const runAs = (step: string) =>
      run(
        inputs(fast, { suite: GREEN_SUITE }),
        depsFor(fast, { workflow: { runNumber: '7', runAttempt: '2', job: 'e2e', step } }),
      );
    const first = await runAs('regression');
    const second = await runAs('smoke');
    expect(first.outputs['results-file']).toBe(
      path.join(folder, 'temp', 'run-suite-and-wait-regression.json'),
    );
    expect(second.outputs['results-file']).toBe(path.join(folder, 'temp', 'run-suite-and-wait-smoke.json'));
    const jobsOf = async (file: string): Promise<string[]> =>
      (JSON.parse(await readFile(file, 'utf8')) as { jobs: { service: { id: string } | null }[] }).jobs
        .map((job) => job.service?.id ?? '')
        .sort();
    // The first step's file still holds its own jobs after the second step ran.
    expect(await jobsOf(first.outputs['results-file'])).toEqual(
      (JSON.parse(first.outputs['job-ids']) as string[]).sort(),
    );
    expect(await jobsOf(second.outputs['results-file'])).toEqual(
      (JSON.parse(second.outputs['job-ids']) as string[]).sort(),
    );
  });

  it('fails with tests-failed when Smoke\'s "Checkout fails" case fails, with its annotation and the outputs', async () => {
    const deps = depsFor(fast);
    const result = await run(inputs(fast, { suite: 'Smoke', buildName: 'Smoke unit' }), deps);

    expect(result.failure?.kind).toBe('tests-failed');
    expect(result.failure?.message).toMatch(
      /^1 of 3 job\(s\) failed in build "Smoke unit": "Checkout fails" \(safari 17, macOS 13\)\. See the step summary/,
    );
    expect(result.outputs).toMatchObject({ 'build-name': 'Smoke unit', total: 3, passed: 2, failed: 1 });
    expect(result.annotations).toHaveLength(1);
    const [annotation] = result.annotations;
    expect(annotation).toMatchObject({ level: 'error', title: 'Failed job: Checkout fails' });
    expect(annotation?.message).toMatch(
      new RegExp(`^Job "Checkout fails" .* failed.* ${fast.url}/tests/[0-9a-f]{32}$`),
    );
    expect(wholeText(result.summary)).toContain('3 jobs, 2 passed, 1 failed');
    // Failures first.
    expect(wholeText(result.summary).indexOf('Checkout fails')).toBeLessThan(
      wholeText(result.summary).indexOf('Login works'),
    );
  });

  it("keeps the step green with fail-on-failure false, and uploads the failed job's assets", async () => {
    const uploads: { name: string; files: readonly string[]; root: string }[] = [];
    const deps = depsFor(fast, {
      artifacts: {
        upload: async (name, files, root): Promise<ArtifactUpload> => {
          uploads.push({ name, files, root });
          return { outcome: 'uploaded', id: 1 };
        },
      },
    });
    const result = await run(
      inputs(fast, { suite: 'Smoke', failOnFailure: false, downloadAssets: 'failed' }),
      deps,
    );

    expect(result.failure).toBeUndefined();
    expect(result.outputs).toMatchObject({ total: 3, passed: 2, failed: 1 });
    expect(result.outputs['build-name']).toMatch(/^Smoke #7\.2/);
    expect(result.annotations.map((a) => a.title)).toEqual(['Failed job: Checkout fails']);
    // A green step shows no error: the failed job is a warning.
    expect(result.annotations.map((a) => a.level)).toEqual(['warning']);

    expect(uploads).toHaveLength(1);
    const [upload] = uploads;
    // Named for the job and the workflow run's attempt: each attempt uploads its own.
    expect(upload?.name).toBe('sauce-job-assets-e2e-attempt-2');
    expect(upload?.root).toBe(path.join(deps.tempDir, 'sauce-job-assets'));
    expect(result.outputs['assets-dir']).toBe(upload?.root);
    const failedId = (JSON.parse(result.outputs['job-ids']) as string[]).find((id) =>
      result.annotations[0]?.message.includes(id),
    );
    expect(upload?.files.length).toBeGreaterThan(0);
    for (const file of upload?.files ?? [])
      expect(file).toContain(path.join('sauce-job-assets', failedId ?? '?'));
  });

  it('runs test cases by id, each on its own targets or the given ones', async () => {
    const deps = depsFor(fast);
    const result = await run(
      inputs(fast, {
        testCases: [
          {
            id: GREEN_CASES[1],
            targets: [
              { capabilities: { browserName: 'chrome', platformName: 'Windows 11' } },
              { capabilities: { browserName: 'safari', platformName: 'macOS 14' } },
            ],
          },
          { id: GREEN_CASES[0] },
        ],
        buildName: 'Cases unit',
      }),
      deps,
    );

    expect(result.failure).toBeUndefined();
    // Two targets given for the first case, the second case's own two.
    expect(result.outputs).toMatchObject({ total: 4, passed: 4, failed: 0 });
    expect(result.outputs['build-name']).toMatch(/^Cases unit/);
    expect(wholeText(result.summary)).toContain('<h2>Test cases: 4 of 4 jobs passed</h2>');
    expect(deps.logger.lines('info')[0]).toMatch(
      /^Started 2 test case\(s\) in build "Cases unit.*": 4 job\(s\) expected\.$/,
    );
    const runs = (await journal(fast)).filter((entry) => /\/testcases\/[0-9a-f]{24}\/run$/.test(entry.path));
    expect(runs.map((entry) => entry.path.split('/').at(-2))).toEqual(
      expect.arrayContaining([...GREEN_CASES]),
    );
  });

  it('returns what was started with the failure when a test case after the first does not exist', async () => {
    // Long jobs: the first case's job is still queued when the step stops it, however slow the
    // machine is between the two runs.
    const deps = depsFor(slow);
    const result = await run(
      inputs(slow, { testCases: [{ id: GREEN_CASES[1] }, { id: 'bbbbbbbbbbbbbbbbbbbbbbbb' }] }),
      deps,
    );

    // Found by the service, after requests were sent: a refusal, worded as the input's mistake.
    expect(result.failure?.kind).toBe('refused');
    expect(result.failure?.message).toContain(
      'Input "test-cases" names bbbbbbbbbbbbbbbbbbbbbbbb, which is not a test case of the account',
    );
    // The first case's job was queued: the outputs and the summary say so.
    expect(result.outputs).toMatchObject({ total: 1, passed: 0, failed: 0 });
    expect(result.outputs['build-name']).toMatch(/^Test cases #7\.2/);
    expect(JSON.parse(result.outputs['job-ids'])).toHaveLength(1);
    // Nobody follows the queued job any more: it is stopped, and the summary says so.
    expect(wholeText(result.summary)).toContain('1 job, 0 passed, 0 failed, 1 stopped');
    expect(wholeText(result.summary)).toContain(
      'Starting the runs ended after 1 case run(s) were queued; their jobs were not followed. 1 unfinished job(s) were stopped.',
    );
    expect(result.failure?.message).toContain('The 1 unfinished job(s) of build');
    expect(await unfinishedJobs(slow, result.outputs['build-name'])).toEqual([]);
  });

  it('a job in a status the service does not document is warned about once, named, and followed to its end', async () => {
    const deps = depsFor(fast);
    const realList = deps.client.automation.jobs.list.bind(deps.client.automation.jobs);
    let listings = 0;
    // A stand-in that shows the first job of the run as "paused" in the first two listings.
    deps.client.automation.jobs.list = (async (...args: Parameters<typeof realList>) => {
      const jobs = (await realList(...args)) as Job[];
      listings += 1;
      if (listings > 2 || jobs.length === 0) return jobs;
      const [first, ...rest] = jobs;
      return [{ ...first, status: 'paused' }, ...rest];
    }) as typeof realList;
    const result = await run(inputs(fast, { suite: GREEN_SUITE }), deps);

    expect(result.failure).toBeUndefined();
    const warnings = deps.logger.lines('warning').filter((line) => line.includes('does not document'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^Job "[^"]+" \([0-9a-f]{32}\) reports the status "paused", which Sauce Labs does not document: it is taken as not finished, and followed until it finishes or `timeout` passes\.$/,
    );
  });

  it('a case run answered in a form it cannot read: fails as service trouble, and its jobs are found by build and stopped', async () => {
    const deps = depsFor(slow);
    const realRun = deps.client.authoring.testCases.run.bind(deps.client.authoring.testCases);
    // A stand-in that lets the run be queued, then garbles the answer's job list.
    deps.client.authoring.testCases.run = async (...args: Parameters<typeof realRun>) => {
      const queued = await realRun(...args);
      const answer = { data: { ...queued, jobs: 'none' } };
      throw new ResponseShapeError({
        operation: 'runTestCase',
        method: 'POST',
        url: `/v1/ai-authoring/testcases/${args[0]}/run`,
        mismatch: { field: 'data.jobs', expected: 'a list', got: 'none' },
        answer,
      });
    };
    const result = await run(inputs(slow, { testCases: [{ id: '65a1f0c0e4b0a1b2c3d4e501' }] }), deps);

    expect(result.failure?.kind).toBe('service');
    expect(result.failure?.message).toContain(
      'runTestCase: the answer\'s `data.jobs` is text "none", where a list was expected',
    );
    expect(result.outputs['build-name']).not.toBe('');
    expect(wholeText(result.summary)).toContain('1 stopped');
    expect(await unfinishedJobs(slow, result.outputs['build-name'])).toEqual([]);
  });

  it('refuses an unknown suite, naming the input, before running anything', async () => {
    const deps = depsFor(fast);
    const before = (await journal(fast)).length;
    const error = await run(inputs(fast, { suite: 'No such suite' }), deps).catch((e: unknown) => e);

    // The service's list showed it: a refusal (requests were sent), worded as the input's mistake.
    expect(error).toBeInstanceOf(ActionError);
    expect((error as ActionError).kind).toBe('refused');
    expect((error as ActionError).message).toMatch(/^Input "suite" names "No such suite", but no test suite/);
    expect((error as ActionError).message).toMatch(/Fix the input and run the step again\.$/);
    const requests = (await journal(fast)).slice(before);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((entry) => entry.method !== 'GET')).toEqual([]);
  });

  it('times out before starting anything: the error reads as the `timeout`', async () => {
    await fetch(`${slow.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        method: 'GET',
        path: '/^\\/v1\\/ai-authoring\\/testsuites/',
        delayMs: 3000,
        times: 1,
      }),
    });
    const deps = depsFor(slow);
    const before = (await journal(slow)).length;
    try {
      const error = await run(inputs(slow, { suite: 'Smoke', timeoutMs: 300 }), deps).catch(
        (e: unknown) => e,
      );
      const failure = describeFailure(error, deps.signal);
      expect(failure.kind).toBe('timeout');
      expect(failure.message).toContain('Raise `timeout`');
      const runs = (await journal(slow)).slice(before).filter((entry) => entry.path.endsWith('/run'));
      expect(runs).toEqual([]);
    } finally {
      await fetch(`${slow.url}/_emulator/faults`, { method: 'DELETE' });
    }
  });

  it('on timeout stops the running jobs and fails naming `timeout`, with the outputs and the summary', async () => {
    const deps = depsFor(slow);
    const result = await run(inputs(slow, { suite: 'Smoke', timeoutMs: 1500 }), deps);

    expect(result.failure?.kind).toBe('timeout');
    expect(result.failure?.message).toMatch(
      /^Timed out while waiting for build "Smoke #7\.2.*": 0 of 3 job\(s\) finished \(0 passed, 0 failed\); 3 did not finish and 3 were stopped\. Raise `timeout` \(now 1500ms\)/,
    );
    expect(result.outputs).toMatchObject({ total: 3, passed: 0, failed: 0 });
    expect(wholeText(result.summary)).toContain('3 jobs, 0 passed, 0 failed, 3 stopped');
    expect(wholeText(result.summary)).toContain('The wait timed out before every job finished.');
    expect(result.annotations).toEqual([]);
    expect(deps.logger.lines('info')).toEqual(
      expect.arrayContaining(['Timeout reached: stopping the wait.', 'Stopped 3 unfinished job(s).']),
    );

    const ids = JSON.parse(result.outputs['job-ids']) as string[];
    const stops = (await journal(slow)).filter(
      (entry) => entry.method === 'PUT' && entry.path.endsWith('/stop'),
    );
    for (const id of ids) expect(stops.map((entry) => entry.path)).toContain(`/rest/v1/demo/jobs/${id}/stop`);
    const stopped = slow.context.automation.jobs
      .all()
      .filter((job) => ids.includes(job.id) && job.stoppedMs !== null);
    expect(stopped).toHaveLength(3);
  });

  it('on timeout leaves the jobs running with stop-on-cancel false', async () => {
    const deps = depsFor(slow);
    const result = await run(inputs(slow, { suite: 'Smoke', timeoutMs: 1000, stopOnCancel: false }), deps);

    expect(result.failure?.kind).toBe('timeout');
    expect(result.failure?.message).toContain('3 did not finish.');
    const ids = JSON.parse(result.outputs['job-ids']) as string[];
    expect(ids).toHaveLength(3);
    const stops = (await journal(slow)).filter((entry) =>
      ids.some((id) => entry.path.includes(`${id}/stop`)),
    );
    expect(stops).toEqual([]);
    expect(wholeText(result.summary)).not.toContain('stopped');
  });

  it('when cancelled stops the running jobs and fails as cancelled', async () => {
    const cancel = new AbortController();
    const deps = depsFor(slow, { signal: cancel.signal });
    const running = run(inputs(slow, { suite: 'Smoke' }), deps);
    // Cancelled once a poll has seen the jobs, as the runner's SIGINT would.
    await vi.waitFor(
      () => expect(deps.logger.lines('info').some((line) => line.startsWith('3 of 3 jobs'))).toBe(true),
      { timeout: 10_000, interval: 50 },
    );
    cancel.abort(new CancelledError('the run was cancelled (SIGINT)'));
    const result = await running;

    expect(result.failure?.kind).toBe('cancelled');
    expect(result.failure?.message).toMatch(
      /^Cancelled while waiting for build .*: 0 of 3 job\(s\) finished .*3 did not finish and 3 were stopped\.$/,
    );
    expect(result.outputs).toMatchObject({ total: 3, passed: 0 });
    expect(wholeText(result.summary)).toContain('3 stopped');
    expect(wholeText(result.summary)).toContain('The run was cancelled before every job finished.');
    expect(deps.logger.lines('info')).toContain('Cancelled: stopping the wait.');
    const ids = JSON.parse(result.outputs['job-ids']) as string[];
    const stopped = slow.context.automation.jobs
      .all()
      .filter((job) => ids.includes(job.id) && job.stoppedMs !== null);
    expect(stopped).toHaveLength(3);
  });
});

describe('run-suite-and-wait ended early', () => {
  it('cancelled before the start request: nothing is queued, nothing to stop', async () => {
    const cancel = new AbortController();
    const deps = hooked(depsFor(slow, { signal: cancel.signal }), {
      afterCasesRead: () => cancel.abort(SIGINT()),
    });
    const before = (await journal(slow)).length;
    const error = await run(inputs(slow, { suite: 'Smoke', buildName: 'Before start' }), deps).catch(
      (e: unknown) => e,
    );
    expect(describeFailure(error, deps.signal).kind).toBe('cancelled');
    const requests = (await journal(slow)).slice(before);
    expect(requests.filter((entry) => entry.path.endsWith('/run'))).toEqual([]);
    expect(await unfinishedJobs(slow, 'Before start')).toEqual([]);
    expect(deps.state.get('run')).toBe('');
  });

  it('cancelled while the start request is on its way: waits for its answer, then finds and stops the jobs', async () => {
    await addFault(slow, {
      method: 'POST',
      path: '/^\\/v1\\/ai-authoring\\/testsuites\\/.*\\/run$/',
      delayMs: 1000,
    });
    const cancel = new AbortController();
    const deps = hooked(depsFor(slow, { signal: cancel.signal }), {
      beforeRun: () => void setTimeout(() => cancel.abort(SIGINT()), 300),
    });
    const result = await run(inputs(slow, { suite: 'Smoke', buildName: 'During start' }), deps);

    expect(result.failure?.kind).toBe('cancelled');
    expect(result.failure?.message).toMatch(
      /^Cancelled while waiting for build "During start": 0 of 3 job\(s\) finished .*3 did not finish and 3 were stopped\.$/,
    );
    expect(result.outputs).toMatchObject({ 'build-name': 'During start', total: 3, passed: 0, failed: 0 });
    expect(JSON.parse(result.outputs['job-ids'])).toHaveLength(3);
    expect(wholeText(result.summary)).toContain('3 jobs, 0 passed, 0 failed, 3 stopped');
    expect(await unfinishedJobs(slow, 'During start')).toEqual([]);
    expect(deps.state.get('run')).toBe('');
  });

  it('cancelled while the start request gets no answer within its grace: says what may run and where to look', async () => {
    await addFault(fast, {
      method: 'POST',
      path: '/^\\/v1\\/ai-authoring\\/testsuites\\/.*\\/run$/',
      delayMs: 4000,
    });
    const cancel = new AbortController();
    const deps = hooked(depsFor(fast, { signal: cancel.signal }), {
      beforeRun: () => void setTimeout(() => cancel.abort(SIGINT()), 200),
    });
    const started = Date.now();
    const error = await run(inputs(fast, { suite: 'Smoke', buildName: 'No answer' }), deps).catch(
      (e: unknown) => e,
    );
    // The grace (2.5 s) after the cancellation, not the 4 s the answer would take.
    expect(Date.now() - started).toBeLessThan(3800);
    const failure = describeFailure(error, deps.signal);
    expect(failure.kind).toBe('cancelled');
    expect(failure.message).toBe(
      'Cancelled while the runs of build "No answer" were being queued: Sauce Labs did not answer within 2.5s, so what it queued, if anything, could not be identified to be stopped. Look for build "No answer" (or with a suffix such as " - 1") on the dashboard.',
    );
    expect(deps.state.saved.has('run')).toBe(false);
  });

  it('cancelled after the suite started, before the first listing: finds the jobs of the build and stops them', async () => {
    const cancel = new AbortController();
    let stateAtStop = '';
    const base = depsFor(slow, { signal: cancel.signal });
    const deps = hooked(base, {
      afterRun: () => cancel.abort(SIGINT()),
      onStop: () => {
        stateAtStop ||= base.state.get('run');
      },
    });
    const result = await run(inputs(slow, { suite: 'Smoke', buildName: 'Before listing' }), deps);

    expect(result.failure?.kind).toBe('cancelled');
    expect(result.failure?.message).toContain('0 of 3 job(s) finished');
    expect(result.failure?.message).toContain('3 did not finish and 3 were stopped.');
    expect(result.outputs).toMatchObject({ 'build-name': 'Before listing', total: 3, passed: 0, failed: 0 });
    const ids = JSON.parse(result.outputs['job-ids']) as string[];
    expect(ids).toHaveLength(3);
    expect(wholeText(result.summary)).toContain('3 jobs, 0 passed, 0 failed, 3 stopped');
    expect(wholeText(result.summary)).not.toContain('0 of 0');
    expect(await unfinishedJobs(slow, 'Before listing')).toEqual([]);
    // The build was in the state as soon as the start answered, and the state is cleared at the end.
    expect(JSON.parse(stateAtStop)).toMatchObject({
      region: 'us-west-1',
      apiUrl: slow.url,
      builds: ['Before listing'],
      expectedCount: 3,
    });
    expect(stateAtStop).not.toContain('demo-access-key');
    expect(deps.state.get('run')).toBe('');
  });

  it('timed out during the first listing: stops the jobs on its own deadline', async () => {
    await addFault(slow, { method: 'GET', path: '/rest/v1/demo/jobs', delayMs: 3000, times: 1 });
    const deps = depsFor(slow);
    const result = await run(
      inputs(slow, { suite: 'Smoke', buildName: 'Slow listing', timeoutMs: 1200 }),
      deps,
    );

    expect(result.failure?.kind).toBe('timeout');
    expect(result.failure?.message).toMatch(/3 did not finish and 3 were stopped\. Raise `timeout`/);
    expect(result.outputs).toMatchObject({ total: 3 });
    expect(JSON.parse(result.outputs['job-ids'])).toHaveLength(3);
    expect(await unfinishedJobs(slow, 'Slow listing')).toEqual([]);
  });

  it('cancelled after test cases started, before any listing: stops the jobs the runs answered', async () => {
    const lookup = depsFor(slow).client as SauceClient;
    const smoke = (await lookup.authoring.testSuites.list({ search: 'Smoke' })).items[0];
    const caseIds: string[] = [];
    for await (const testCase of lookup.authoring.testCases.iterate({ testSuiteId: smoke?.id ?? '' })) {
      caseIds.push(testCase.id);
    }
    expect(caseIds.length).toBeGreaterThanOrEqual(2);
    const cancel = new AbortController();
    let runs = 0;
    const deps = hooked(depsFor(slow, { signal: cancel.signal }), {
      afterRun: () => {
        runs += 1;
        if (runs === 2) cancel.abort(SIGINT());
      },
    });
    const result = await run(
      inputs(slow, {
        testCases: caseIds.map((id) => ({ id })),
        targets: [{ capabilities: { browserName: 'chrome', platformName: 'Windows 11' } }],
        buildName: 'Cases cancelled',
      }),
      deps,
    );
    // Two case runs were queued, one job each; the third was never requested.
    expect(runs).toBe(2);
    expect(result.failure?.kind).toBe('cancelled');
    expect(result.outputs).toMatchObject({ total: 2, passed: 0, failed: 0 });
    expect(wholeText(result.summary)).toContain('2 jobs, 0 passed, 0 failed, 2 stopped');
    expect(await unfinishedJobs(slow, result.outputs['build-name'])).toEqual([]);
    expect(deps.state.get('run')).toBe('');
  });

  it('with stop-on-cancel false, still finds and reports the jobs, and leaves them running', async () => {
    const cancel = new AbortController();
    const deps = hooked(depsFor(slow, { signal: cancel.signal }), {
      afterRun: () => cancel.abort(SIGINT()),
    });
    const result = await run(
      inputs(slow, { suite: 'Smoke', buildName: 'Left running', stopOnCancel: false }),
      deps,
    );
    expect(result.failure?.kind).toBe('cancelled');
    expect(result.outputs).toMatchObject({ total: 3 });
    expect(wholeText(result.summary)).toContain('3 jobs, 0 passed, 0 failed, 3 queued');
    expect(await unfinishedJobs(slow, 'Left running')).toHaveLength(3);
    expect(deps.state.saved.has('run')).toBe(false);
    // Tidy the emulator for the tests that count unfinished jobs.
    for (const id of JSON.parse(result.outputs['job-ids']) as string[]) slow.context.automation.jobs.stop(id);
  });
});

describe('run-suite-and-wait output files and refusals', () => {
  it('refuses a junit-file that cannot be created before any request, at once', async () => {
    const deps = depsFor(fast);
    const before = (await journal(fast)).length;
    const started = Date.now();
    const error = await run(
      inputs(fast, { suite: GREEN_SUITE, junitFile: '/proc/no-such/y.xml' }),
      deps,
    ).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).input).toBe('junit-file');
    expect((error as InputError).message).toContain('cannot be written');
    expect(await journal(fast)).toHaveLength(before);
  });

  it('refuses a junit-file that is a folder before any request', async () => {
    const deps = depsFor(fast);
    const before = (await journal(fast)).length;
    const error = await run(inputs(fast, { suite: GREEN_SUITE, junitFile: folder }), deps).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).input).toBe('junit-file');
    expect((error as InputError).message).toContain('which is a folder');
    expect(await journal(fast)).toHaveLength(before);
  });

  it('keeps the outputs and the summary when the report cannot be written after the run', async () => {
    const reports = path.join(folder, 'workspace', 'reports');
    const junitFile = path.join(reports, 'junit.xml');
    const base = depsFor(fast);
    const deps = hooked(base, {
      // The folder checked before the run turns into a file while the jobs run.
      afterRun: () => {
        rmSync(reports, { recursive: true, force: true });
        writeFileSync(reports, 'not a folder');
      },
    });
    const result = await run(inputs(fast, { suite: GREEN_SUITE, junitFile }), deps);

    expect(result.failure?.kind).toBe('input');
    expect(result.failure?.message).toContain('`junit-file`');
    expect(result.outputs).toMatchObject({ total: 3, passed: 3, failed: 0 });
    expect(result.outputs['results-file']).not.toBe('');
    expect(wholeText(result.summary)).toContain('3 jobs, 3 passed, 0 failed');
  });

  it('names tunnel-name when the service refuses the tunnel', async () => {
    const deps = depsFor(fast);
    const error = await run(inputs(fast, { suite: 'Smoke', tunnelName: 'no-such-tunnel' }), deps).catch(
      (e: unknown) => e,
    );
    const failure = describeFailure(error, deps.signal);
    expect(failure.kind).toBe('refused');
    expect(failure.message).toContain('secure tunnel no-such-tunnel does not exist');
    expect(failure.message).toContain('Check `tunnel-name` ("no-such-tunnel")');
    expect(failure.message).not.toContain('check the inputs named above');
  });

  it('names tunnel-name when the service refuses a test case run for its tunnel', async () => {
    const deps = depsFor(fast);
    const error = await run(
      inputs(fast, { testCases: [{ id: GREEN_CASES[0] }], tunnelName: 'no-such-tunnel' }),
      deps,
    ).catch((e: unknown) => e);
    const failure = describeFailure(error, deps.signal);
    expect(failure.kind).toBe('refused');
    expect(failure.message).toMatch(
      /^Sauce Labs refused to run test case aaaaaaaaaaaaaaaaaaaaaa01 \(runTestCase: 400 /,
    );
    expect(failure.message).toContain('Check `tunnel-name`');
  });
});

describe('run-suite-and-wait readInputs', () => {
  const base = { username: 'demo', 'access-key': 'demo-access-key' };
  const read = (values: Record<string, string>, workspace = '/work/space') =>
    readInputs(new InputReader(inputSource({ ...base, ...values }, { workspace })));

  it('reads a suite run with defaults, the JUnit path against the workspace', async () => {
    const parsed = await read({ suite: 'Smoke', 'junit-file': 'reports/junit.xml' });
    expect(parsed).toEqual({
      connection: { service: 'sauce', region: 'us-west-1', username: 'demo', accessKey: 'demo-access-key' },
      operation: 'run',
      suite: 'Smoke',
      failOnFailure: true,
      stopOnCancel: true,
      downloadAssets: 'none',
      maxAssetsBytes: 500_000_000,
      retries: 0,
      failFast: false,
      rerunFailed: true,
      junitFile: path.resolve('/work/space', 'reports/junit.xml'),
      pollIntervalMs: 10_000,
      timeoutMs: 60 * 60_000,
      prComment: false,
    });
  });

  it('reads test cases and targets as YAML or plain lists', async () => {
    const parsed = await read({
      'test-cases':
        '- id: aaaaaaaaaaaaaaaaaaaaaa02\n  targets: [{ browserName: firefox }]\n- aaaaaaaaaaaaaaaaaaaaaa01',
      targets: '[{ browserName: chrome, platformName: Windows 11 }]',
      'build-name': 'Nightly',
      'tunnel-name': 'tunnel-1',
      'fail-on-failure': 'false',
      'stop-on-cancel': 'false',
      'download-assets': 'failed',
      'max-assets-size': '2GiB',
      'poll-interval': '2s',
      timeout: '30m',
    });
    expect(parsed).toMatchObject({
      testCases: [
        { id: 'aaaaaaaaaaaaaaaaaaaaaa02', targets: [{ capabilities: { browserName: 'firefox' } }] },
        { id: 'aaaaaaaaaaaaaaaaaaaaaa01' },
      ],
      targets: [{ capabilities: { browserName: 'chrome', platformName: 'Windows 11' } }],
      buildName: 'Nightly',
      tunnelName: 'tunnel-1',
      failOnFailure: false,
      stopOnCancel: false,
      downloadAssets: 'failed',
      maxAssetsBytes: 2 * 1024 ** 3,
      pollIntervalMs: 2000,
      timeoutMs: 30 * 60_000,
    });
    expect(parsed.suite).toBeUndefined();
    const plain = await read({ 'test-cases': 'aaaaaaaaaaaaaaaaaaaaaa01, aaaaaaaaaaaaaaaaaaaaaa02' });
    expect(plain.testCases).toEqual([{ id: 'aaaaaaaaaaaaaaaaaaaaaa01' }, { id: 'aaaaaaaaaaaaaaaaaaaaaa02' }]);
  });

  it.each([
    [
      'suite and test-cases both set',
      { suite: 'Smoke', 'test-cases': 'aaaaaaaaaaaaaaaaaaaaaa01' },
      'suite',
      'both set',
    ],
    ['neither suite nor test-cases', {}, 'suite', 'both empty'],
    ['malformed test-cases YAML', { 'test-cases': '- id: [unclosed' }, 'test-cases', 'not valid YAML'],
    [
      'malformed targets YAML',
      { suite: 'Smoke', targets: '{ browserName: chrome' },
      'targets',
      'not valid YAML',
    ],
    ['a target that is not a mapping', { suite: 'Smoke', targets: '[chrome]' }, 'targets', 'not a mapping'],
    [
      'a poll interval under 1s',
      { suite: 'Smoke', 'poll-interval': '500ms' },
      'poll-interval',
      'shorter than 1s',
    ],
    [
      'a poll interval over 10m',
      { suite: 'Smoke', 'poll-interval': '11m' },
      'poll-interval',
      'longer than 10m',
    ],
    ['a timeout under 1s', { suite: 'Smoke', timeout: '0' }, 'timeout', 'shorter than 1s'],
    ['a timeout that is not a duration', { suite: 'Smoke', timeout: 'soon' }, 'timeout', 'not a duration'],
    [
      'download-assets out of its set',
      { suite: 'Smoke', 'download-assets': 'some' },
      'download-assets',
      '"some"',
    ],
    [
      'max-assets-size without a unit',
      { suite: 'Smoke', 'download-assets': 'all', 'max-assets-size': '500' },
      'max-assets-size',
      'which has no unit',
    ],
    ...(
      [
        ['0', 'which is out of range'],
        ['401', 'which is out of range'],
        ['7d', 'which is not a whole number'],
      ] as const
    ).map(([days, problem]): [string, Record<string, string>, string, string] => [
      `retention-days ${days}`,
      { suite: 'Smoke', 'download-assets': 'failed', 'retention-days': days },
      'retention-days',
      `${problem}. Allowed: empty for the repository's default, or a whole number of days from 1 to 400`,
    ]),
    [
      'fail-on-failure not a boolean',
      { suite: 'Smoke', 'fail-on-failure': 'yes' },
      'fail-on-failure',
      'not a boolean',
    ],
  ])('refuses %s, with no request sent', async (_case, values, input, problem) => {
    const before = (await journal(fast)).length;
    const error = await read({ ...values, 'api-url': fast.url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).input).toBe(input);
    expect((error as InputError).message).toContain(problem);
    expect(await journal(fast)).toHaveLength(before);
  });
});
