/**
 * A run of run-suite-and-wait that ends early, through its deps (a real client against in-process
 * emulators, one with jobs that never end, a recording logger, temporary folders): cancelled or
 * timed out at each stage (before, during and after the start, while listing, while waiting), or a
 * start that fails halfway; what was queued is found and stopped (or left running with
 * `stop-on-cancel: false`), and the outputs, the summary and the state say so.
 */
import { CancelledError, describeFailure, wholeText } from '@sauce-actions/action-kit';
import { ResponseShapeError, type SauceClient } from '@sauce-actions/api';
import type { RunningEmulator } from '@sauce-actions/emulator';
import { describe, expect, it, vi } from 'vitest';
import { run } from '../src/run.ts';
import { addFault, clientFor, hooked, journal, suiteInputs as inputs, withEmulators } from './helpers.ts';
import { requestArrives } from '../../../test/e2e/support/lab.ts';
import { GREEN_CASES } from './seed.ts';

/** The start request of a suite's runs. */
const RUN = /^\/v1\/ai-authoring\/testsuites\/.*\/run$/;

let fast: RunningEmulator, slow: RunningEmulator;
const { depsFor } = withEmulators([300, 600_000], { started: (emulators) => ([fast, slow] = emulators) });

/** Ids of the jobs of a build that are still queued or running on the emulator. */
async function unfinishedJobs(emulator: RunningEmulator, build: string | undefined): Promise<string[]> {
  const jobs = await clientFor(emulator).automation.jobs.list({ full: true, limit: 1000 });
  return jobs
    .filter((job) => job.build === build && (job.status === 'queued' || job.status === 'in progress'))
    .map((job) => job.id);
}

const SIGINT = (): CancelledError => new CancelledError('the run was cancelled (SIGINT)');

describe('run-suite-and-wait run', () => {
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
    const since = (await journal(slow)).length;
    const deps = hooked(depsFor(slow, { signal: cancel.signal }), {
      // Cancelled once the start request reached the service, which holds it.
      beforeRun: () => void requestArrives(slow.url, 'POST', RUN, since).then(() => cancel.abort(SIGINT())),
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
      delayMs: 60_000,
    });
    const cancel = new AbortController();
    const since = (await journal(fast)).length;
    const deps = hooked(depsFor(fast, { signal: cancel.signal }), {
      beforeRun: () => void requestArrives(fast.url, 'POST', RUN, since).then(() => cancel.abort(SIGINT())),
    });
    const error = await run(inputs(fast, { suite: 'Smoke', buildName: 'No answer' }), deps).catch(
      (e: unknown) => e,
    );
    // The grace (2.5 s) after the cancellation, not the minute the answer would take.
    const starts = (await journal(fast)).slice(since).filter((entry) => RUN.test(entry.path));
    expect(starts.map((entry) => entry.status)).toEqual([0]);
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
