/**
 * What a run of run-suite-and-wait reports of its suite, through its deps (a real client against
 * an in-process emulator with short jobs, a recording logger, temporary folders): the summary's
 * build and table, the results file, the JUnit properties and the log, for suites and test cases
 * that pass and fail, and the failed jobs' assets. What every test action publishes (outputs,
 * links, annotations, a results file per step) is a row of `test/engine-scenarios/`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { wholeText, type ArtifactUpload } from '@sauce-actions/action-kit';
import type { RunningEmulator } from '@sauce-actions/emulator';
import { describe, expect, it } from 'vitest';
import { run } from '../src/run.ts';
import { buildOf, journal, suiteInputs as inputs, withEmulators } from './helpers.ts';
import { GREEN_CASES, GREEN_SUITE } from './seed.ts';

let fast: RunningEmulator, folder: string;
const { depsFor } = withEmulators([300], {
  started: (emulators) => ([fast] = emulators),
  folder: (made) => (folder = made),
});

describe('run-suite-and-wait run', () => {
  it('runs a suite that passes: the default build, the summary table, the results file, the JUnit properties and the log', async () => {
    const deps = depsFor(fast);
    const junitFile = path.join(folder, 'workspace', 'reports', 'junit.xml');
    const result = await run(inputs(fast, { suite: GREEN_SUITE, junitFile }), deps);

    expect(result.failure).toBeUndefined();
    expect(result.outputs).toMatchObject({
      'build-name': buildOf('Green', '7', '2'),
      total: 3,
      passed: 3,
      failed: 0,
    });
    const ids = JSON.parse(result.outputs['job-ids']) as string[];
    expect(wholeText(result.summary)).toContain(`Build: <code>${buildOf('Green', '7', '2')}</code>`);
    expect(wholeText(result.summary)).toContain('3 jobs, 3 passed, 0 failed');
    expect(wholeText(result.summary)).toContain('<table>');
    const results = JSON.parse(await readFile(result.outputs['results-file'], 'utf8')) as {
      complete: boolean;
      buildName: string;
      jobs: { id: string; status: string; service: { id: string } | null }[];
    };
    expect(results).toMatchObject({ complete: true, buildName: buildOf('Green', '7', '2') });
    expect(results.jobs.map((job) => job.status)).toEqual(['passed', 'passed', 'passed']);
    expect(results.jobs.map((job) => job.service?.id).sort()).toEqual([...ids].sort());

    const junit = await readFile(junitFile, 'utf8');
    expect(junit).toContain(`<property name="build" value="${buildOf('Green', '7', '2')}"/>`);

    const log = deps.logger.lines('info');
    expect(log[0]).toBe(`Started suite "Green" in build "${buildOf('Green', '7', '2')}": 3 job(s) expected.`);
    expect(log.some((line) => /^3 of 3 jobs: .* 3 passed, 0 failed/.test(line))).toBe(true);
    expect(log.at(-1)).toBe('Jobs: 3, passed 3, failed 0.');
  });

  it('words a failed job of Smoke in its annotation and the summary, failures first', async () => {
    const deps = depsFor(fast);
    const result = await run(inputs(fast, { suite: 'Smoke', buildName: 'Smoke unit' }), deps);

    expect(result.failure?.message).toMatch(/See the step summary/);
    expect(result.outputs).toMatchObject({ 'build-name': 'Smoke unit', total: 3, passed: 2, failed: 1 });
    expect(result.annotations[0]?.message).toMatch(
      new RegExp(`^Job "Checkout fails" .* failed.* ${fast.url}/tests/[0-9a-f]{32}$`),
    );
    expect(wholeText(result.summary)).toContain('3 jobs, 2 passed, 1 failed');
    // Failures first.
    expect(wholeText(result.summary).indexOf('Checkout fails')).toBeLessThan(
      wholeText(result.summary).indexOf('Login works'),
    );
  });

  it("uploads the failed job's assets, with the step green by fail-on-failure false", async () => {
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
});
