/**
 * What a run of run-suite-and-wait reports, through its deps (a real client against an in-process
 * emulator with short jobs, a recording logger, temporary folders): the outputs, the summary, the
 * results file, the JUnit report, annotations and the failed jobs' assets, for suites and test
 * cases that pass and fail, a job status the service does not document, and a report that cannot
 * be written after the run.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { wholeText, type ArtifactUpload } from '@sauce-actions/action-kit';
import type { Job } from '@sauce-actions/api';
import type { RunningEmulator } from '@sauce-actions/emulator';
import { describe, expect, it } from 'vitest';
import { run } from '../src/run.ts';
import { buildOf, hooked, journal, suiteInputs as inputs, withEmulators, workflowRun } from './helpers.ts';
import { GREEN_CASES, GREEN_SUITE } from './seed.ts';

let fast: RunningEmulator, folder: string;
const { depsFor } = withEmulators([300], {
  started: (emulators) => ([fast] = emulators),
  folder: (made) => (folder = made),
});

describe('run-suite-and-wait run', () => {
  it('runs a suite that passes: outputs, the summary table, the results file and the JUnit report', async () => {
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
    expect(ids).toHaveLength(3);
    expect(result.annotations).toEqual([]);

    expect(wholeText(result.summary)).toContain('<h2>Suite Green: 3 of 3 jobs passed</h2>');
    expect(wholeText(result.summary)).toContain(`Build: <code>${buildOf('Green', '7', '2')}</code>`);
    expect(wholeText(result.summary)).toContain('3 jobs, 3 passed, 0 failed');
    expect(wholeText(result.summary)).toContain('<table>');
    for (const id of ids) expect(wholeText(result.summary)).toContain(`href="${fast.url}/tests/${id}"`);

    expect(result.outputs['results-file']).toBe(path.join(deps.tempDir, 'run-suite-and-wait-results.json'));
    const results = JSON.parse(await readFile(result.outputs['results-file'], 'utf8')) as {
      complete: boolean;
      buildName: string;
      jobs: { id: string; status: string; service: { id: string } | null }[];
    };
    expect(results).toMatchObject({ complete: true, buildName: buildOf('Green', '7', '2') });
    expect(results.jobs.map((job) => job.status)).toEqual(['passed', 'passed', 'passed']);
    expect(results.jobs.map((job) => job.service?.id).sort()).toEqual([...ids].sort());

    const junit = await readFile(junitFile, 'utf8');
    expect(junit).toContain('tests="3" failures="0" errors="0"');
    expect(junit).toContain(`<property name="build" value="${buildOf('Green', '7', '2')}"/>`);

    const log = deps.logger.lines('info');
    expect(log[0]).toBe(`Started suite "Green" in build "${buildOf('Green', '7', '2')}": 3 job(s) expected.`);
    expect(log.some((line) => /^3 of 3 jobs: .* 3 passed, 0 failed/.test(line))).toBe(true);
    expect(log).toContain('Jobs: 3, passed 3, failed 0.');
    expect(log).toContain(`JUnit report written to ${junitFile}.`);
  });

  it('keeps one results file per step, so that two suites in one job keep both', async () => {
    const runAs = (step: string) =>
      run(
        inputs(fast, { suite: GREEN_SUITE }),
        depsFor(fast, { workflow: workflowRun('7', '2', { job: 'e2e', step }) }),
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
});

describe('run-suite-and-wait output files and refusals', () => {
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
});
