/**
 * A run of run-suite-and-wait whose own start ends early, through its deps (a real client against
 * in-process emulators whose jobs outlast the tests): a start that fails halfway through its case
 * runs, refused or answered in a form it cannot read; a timeout while the suite is being planned;
 * a cancellation between case runs. What was queued is found and stopped, and the outputs and the
 * summary say so. The engine's cancellations and timeouts are rows of `test/engine-scenarios/`.
 */
import { CancelledError, describeFailure, wholeText } from '@sauce-actions/action-kit';
import { ResponseShapeError, type SauceClient } from '@sauce-actions/api';
import type { RunningEmulator } from '@sauce-actions/emulator';
import { describe, expect, it } from 'vitest';
import { run } from '../src/run.ts';
import { addFault, clientFor, hooked, journal, suiteInputs as inputs, withEmulators } from './helpers.ts';
import { GREEN_CASES } from './seed.ts';

let slow: RunningEmulator;
const { depsFor } = withEmulators([600_000], { started: (emulators) => ([slow] = emulators) });

/** Ids of the jobs of a build that are still queued or running on the emulator. */
async function unfinishedJobs(emulator: RunningEmulator, build: string | undefined): Promise<string[]> {
  const jobs = await clientFor(emulator).automation.jobs.list({ full: true, limit: 1000 });
  return jobs
    .filter((job) => job.build === build && (job.status === 'queued' || job.status === 'in progress'))
    .map((job) => job.id);
}

describe('run-suite-and-wait start cut short', () => {
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

  it('times out while the suite is planned, before starting anything: the error reads as the `timeout`', async () => {
    await addFault(slow, { method: 'GET', path: '/^\\/v1\\/ai-authoring\\/testsuites/', delayMs: 3000 });
    const deps = depsFor(slow);
    const before = (await journal(slow)).length;
    const error = await run(inputs(slow, { suite: 'Smoke', timeoutMs: 300 }), deps).catch((e: unknown) => e);
    const failure = describeFailure(error, deps.signal);
    expect(failure.kind).toBe('timeout');
    expect(failure.message).toContain('Raise `timeout`');
    const runs = (await journal(slow)).slice(before).filter((entry) => entry.path.endsWith('/run'));
    expect(runs).toEqual([]);
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
        if (runs === 2) cancel.abort(new CancelledError('the run was cancelled (SIGINT)'));
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
});
