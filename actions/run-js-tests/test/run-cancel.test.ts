/**
 * A run of run-js-tests that ends early, through its deps (a real client against in-process
 * emulators, one whose jobs stay queued, then run for long): the timeout and the runner's
 * cancellation before, during and after the start, while the jobs are queued or running; the
 * unfinished jobs are stopped and the outputs, the summary and the state say so.
 */
import { CancelledError, describeFailure, wholeText } from '@sauce-actions/action-kit';
import type { JsTestStatusAnswer } from '@sauce-actions/api';
import type { RunningEmulator } from '@sauce-actions/emulator';
import { describe, expect, it } from 'vitest';
import { requestArrives } from '../../../test/e2e/support/lab.ts';
import { run } from '../src/run.ts';
import {
  addFault,
  clientOf,
  journal,
  resultsOf,
  unfinishedJobs,
  withEmulators,
  withJsTests,
} from './helpers.ts';

let emulator: RunningEmulator, slow: RunningEmulator;
// The second's jobs are queued for the first fifth of a job (0.8 s here), then running for long.
const { inputs, deps } = withEmulators([300, 4000], {
  started: (emulators) => ([emulator, slow] = emulators),
});

describe('run-js-tests run', () => {
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
    const client = withJsTests(real, {
      getStatus: async (...args) => {
        const answer = await real.automation.jsTests.getStatus(...args);
        if (!controller.signal.aborted) {
          firstAnswer = answer;
          controller.abort(new CancelledError('the run was cancelled (SIGINT)'));
        }
        return answer;
      },
    });
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
    // Cancelled once the start request reached the service, which holds it.
    void requestArrives(slow.url, 'POST', '/rest/v1/demo/js-tests', (await journal(slow)).length).then(() =>
      controller.abort(new CancelledError('the run was cancelled (SIGINT)')),
    );
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
    const client = withJsTests(real, {
      getStatus: async (...args) => {
        seen.push(d.state.get('js-tests'));
        return real.automation.jsTests.getStatus(...args);
      },
    });
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
});
