/**
 * End to end: two repositories on one Sauce Labs account whose workflow runs have the same run
 * number. A re-run (`rerun-failed`) and a report (`operation: report`) of one must find only the
 * jobs its own run started, never the other repository's, although both use the default build
 * names: the bundles run through the harness with each run's `GITHUB_*` variables.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputLines, runCli, SAUCE_ENV } from './support/cli.ts';
import { closeLabs, errorsOf, openLab, SAUCE, type Lab } from './support/lab.ts';

let lab: Lab;
let workspace: string;

beforeAll(async () => {
  lab = await openLab({ jobDurationMs: 300 });
  workspace = await mkdtemp(path.join(os.tmpdir(), 'e2e-run-identity-'));
});
afterAll(async () => {
  await closeLabs();
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

interface Run {
  repository: string;
  runId: string;
  runNumber: string;
  runAttempt?: string;
}

const step = (action: 'run-suite-and-wait' | 'run-js-tests', inputs: Record<string, string>, run: Run) =>
  lab.step(
    action,
    { ...SAUCE, 'poll-interval': '1s', ...inputs },
    {
      context: {
        repository: run.repository,
        runId: run.runId,
        runNumber: run.runNumber,
        runAttempt: run.runAttempt ?? '1',
        job: 'e2e',
      },
      timeoutMs: 60_000,
    },
  );

/** How many jobs the emulator holds in a build, as named or with the service's ` - N` suffixes. */
const jobsIn = (build: string) =>
  lab.jobs().filter((job) => job.build !== null && job.build.replace(/( - \d+)+$/, '') === build).length;

describe('one account, two repositories, the same run number', { timeout: 180_000 }, () => {
  const OTHER = { repository: 'acme/other-repo', runId: '5501' };
  const APP = { repository: 'acme/app', runId: '7702' };

  it("a re-run of acme/app runs every case: acme/other-repo's passed cases are not its own", async () => {
    const other = await step('run-suite-and-wait', { suite: 'Smoke' }, { ...OTHER, runNumber: '42' });
    expect(other.outputs).toMatchObject({ total: '3', passed: '2', failed: '1' });

    // Attempt 2 of acme/app's run 42, whose attempt 1 ran nothing on the service.
    const rerun = await step(
      'run-suite-and-wait',
      { suite: 'Smoke', 'rerun-failed': 'true' },
      { ...APP, runNumber: '42', runAttempt: '2' },
    );
    expect(rerun.log).toMatch(/; 0 of 3 case\(s\) passed there and are not run again/);
    expect(rerun.log).toMatch(
      /Attempt 2: 0 job\(s\) of earlier attempts found in build\(s\) "Smoke #42\.1 · [a-z2-7]{8}"/,
    );
    expect(rerun.outputs).toMatchObject({ total: '3', passed: '2', failed: '1' });
    expect(jobsIn(rerun.outputs['build-name']!)).toBe(3);
    // Both used the default build name, and the names differ by the runs' identities.
    expect(rerun.outputs['build-name']).toMatch(/^Smoke #42\.2 · [a-z2-7]{8}$/);
    expect(other.outputs['build-name']).toMatch(/^Smoke #42\.1 · [a-z2-7]{8}$/);
    expect(rerun.outputs['build-name']!.slice(-8)).not.toBe(other.outputs['build-name']!.slice(-8));
  });

  it("a report of an acme/app run that ran nothing finds no job, not acme/other-repo's 3", async () => {
    await step('run-suite-and-wait', { suite: 'Smoke' }, { ...OTHER, runNumber: '43' });
    const report = await step(
      'run-suite-and-wait',
      { suite: 'Smoke', operation: 'report' },
      { ...APP, runNumber: '43' },
    );
    expect(report.outputs).toMatchObject({ total: '3', passed: '0', failed: '3', 'job-ids': '[]' });
    expect(errorsOf(report)[0]).toMatch(
      /^No job of the 3 cases of suite "Smoke" was found in build\(s\) "Smoke #43\.1 · [a-z2-7]{8}"/,
    );
    expect(report.log).toMatch(/Found 0 job\(s\) of 3 case\(s\) in build\(s\) "Smoke #43\.1 · [a-z2-7]{8}"/);
  });

  it("run-js-tests without `build`: a report of acme/app's shard finds its platform only, not acme/other-repo's", async () => {
    const js = {
      url: 'https://example.com/tests.html',
      framework: 'qunit',
      platforms: 'Windows 11 / chrome / latest\nLinux / firefox / 126',
    };
    const other = await step('run-js-tests', js, { ...OTHER, runNumber: '44' });
    expect(other.outputs).toMatchObject({ total: '2', passed: '2' });
    // Shard 1/2 runs Linux only: Windows is not run in acme/app's run.
    const shard = await step('run-js-tests', { ...js, shard: '1/2' }, { ...APP, runNumber: '44' });
    expect(shard.outputs).toMatchObject({ total: '1', passed: '1' });
    const report = await step('run-js-tests', { ...js, operation: 'report' }, { ...APP, runNumber: '44' });
    expect(report.outputs).toMatchObject({ total: '2', passed: '1', failed: '1' });
    expect(JSON.parse(report.outputs['job-ids']!)).toEqual(JSON.parse(shard.outputs['job-ids']!));
    expect(errorsOf(report)[0]).toMatch(
      /^1 of the platforms of `platforms` was not run by any step: Windows 11/,
    );
    expect(report.log).toMatch(/in build\(s\) "JS tests #44\.1 · [a-z2-7]{8}"/);
  });
});

describe(
  'the command line in GitLab pipelines of two projects, the same pipeline number',
  { timeout: 180_000 },
  () => {
    const gitlab = (project: string, pipelineId: string) => ({
      ...SAUCE_ENV,
      GITLAB_CI: 'true',
      CI_SERVER_URL: 'https://gitlab.example.com',
      CI_PROJECT_ID: project,
      CI_PIPELINE_ID: pipelineId,
      CI_PIPELINE_IID: '45',
    });
    const cli = (args: readonly string[], env: Record<string, string>) =>
      runCli(
        ['run-suite-and-wait', '--api-url', lab.url, '--suite', 'Smoke', '--poll-interval', '1s', ...args],
        {
          cwd: workspace,
          env,
          timeoutMs: 60_000,
        },
      );

    it("a report without --build-name finds its pipeline's shards, and another project's report finds none", async () => {
      const app = gitlab('311', '90210');
      const shards = await Promise.all(['1/2', '2/2'].map((shard) => cli(['--shard', shard], app)));
      // One default build name for both, which the service makes unique per case run (` - N`).
      for (const shard of shards) {
        expect(outputLines(shard.stdout)['build-name']).toMatch(/^Smoke #45 · [a-z2-7]{8}( - \d+)?$/);
      }
      const report = await cli(['--operation', 'report'], app);
      expect(report.code, report.stderr).toBe(1);
      expect(outputLines(report.stdout)).toMatchObject({ total: '3', passed: '2', failed: '1' });

      const other = await cli(['--operation', 'report'], gitlab('312', '90300'));
      expect(outputLines(other.stdout)).toMatchObject({ total: '3', passed: '0', failed: '3' });
      expect(other.stderr).toMatch(
        /No job of the 3 cases of suite "Smoke" was found in build\(s\) "Smoke #45 · [a-z2-7]{8}"/,
      );
    });
  },
);
