/**
 * run-suite-and-wait's `fail-fast`: the jobs still queued or running are stopped as soon as a case
 * has failed every attempt, against an in-process emulator whose jobs of 1.5 s, queued one by one,
 * end one after the other, and a real client.
 */
import { readFile } from 'node:fs/promises';
import { InputReader, inputSource, wholeText, type InputError } from '@sauce-actions/action-kit';
import type { RunningEmulator } from '@sauce-actions/emulator';
import { describe, expect, it } from 'vitest';
import { readInputs } from '../src/inputs.ts';
import { run } from '../src/run.ts';
import { clientFor, suiteDeps, suiteInputs, withEmulators } from './helpers.ts';
import { FAILING_CASE, TWELVE_CASES } from './seed.ts';

/** Jobs of 1.5 s: case runs queued one by one (5 a second) end one after the other. */
let staggered: RunningEmulator;
let folder: string;
withEmulators(
  [1500],
  { started: (emulators) => ([staggered] = emulators), folder: (made) => (folder = made) },
  'run-suite-and-wait-fail-fast-',
);

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
