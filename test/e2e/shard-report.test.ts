/**
 * End to end: `operation: report` of run-suite-and-wait on the bundles, after three shards of the
 * 12-case Regression suite (Case 07 flaky, Case 11 failing), against the emulator and a stand-in
 * for GitHub's REST interface: one comment, one check run and one JUnit report of every shard; and
 * a shard that never ran fails the report. Also from a `workflow_run` workflow, as for a fork.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startGitHubApi, type GitHubApiStandIn, type StepResult } from '@sauce-actions/action-harness';
import { defaultSeed } from '@sauce-actions/emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { outputLines, runCli } from './support/cli.ts';
import { pullRequestEvent, REPOSITORY } from './support/github.ts';
import { closeLabs, errorsOf, openLab, SAUCE, type Lab } from './support/lab.ts';

const TOKEN = 'ghs_shardReportToken7c1d9e2f4a6b';
const HEAD_SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const CHECK_NAME = 'Sauce Labs Regression';
const SHARD = { suite: 'Regression', retries: '1', 'poll-interval': '1s', 'pr-comment': 'false' };

let lab: Lab;
let github: GitHubApiStandIn;
let workspace: string;

beforeAll(async () => {
  const seed = defaultSeed();
  // Case 11 fails every run; Case 07 is the seed's flaky case.
  for (const testCase of seed.authoring.testCases ?? []) {
    if (testCase.name === 'Case 11') testCase.expectedOutcome = 'fail';
  }
  lab = await openLab({ jobDurationMs: 300, seed });
  workspace = await mkdtemp(path.join(os.tmpdir(), 'e2e-shard-report-'));
});

beforeEach(async () => {
  github = await startGitHubApi({ token: TOKEN, repository: REPOSITORY });
  return () => github.close();
});

afterAll(async () => {
  await closeLabs();
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

async function suiteStep(
  inputs: Record<string, string>,
  options: {
    event: unknown;
    eventName?: string;
    runId?: string;
    runNumber: string;
    runAttempt?: string;
    job: string;
  },
): Promise<StepResult> {
  const result = await lab.step(
    'run-suite-and-wait',
    { ...SAUCE, ...inputs },
    {
      env: { GITHUB_API_URL: github.url },
      event: options.event,
      context: {
        repository: REPOSITORY,
        eventName: options.eventName ?? 'pull_request',
        token: TOKEN,
        // The run's id, which its jobs and attempts share: each run number a run of its own.
        runId: options.runId ?? `90${options.runNumber}`,
        runNumber: options.runNumber,
        runAttempt: options.runAttempt ?? '1',
        job: options.job,
      },
      workspace,
    },
  );
  expect(result.unmaskedLog).not.toContain(TOKEN);
  return result;
}

const shards = (runNumber: string, which: readonly number[], event: unknown) =>
  Promise.all(
    which.map((index) => suiteStep({ ...SHARD, shard: `${index}/3` }, { event, runNumber, job: 'e2e' })),
  );

const reportInputs = (junit: string) => ({
  operation: 'report',
  suite: 'Regression',
  'pr-comment': 'true',
  'check-name': CHECK_NAME,
  'junit-file': junit,
});

/** The `<testcase>` elements of a JUnit report, by name. */
function junitCases(xml: string): Map<string, string[]> {
  const cases = new Map<string, string[]>();
  for (const match of xml.matchAll(
    /<testcase\b[^>]*\bname="([^"]*)"[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g,
  )) {
    cases.set(match[1]!, [...(cases.get(match[1]!) ?? []), match[2] ?? '']);
  }
  return cases;
}

describe('operation: report', () => {
  it('three shards, then one report: one comment, one check run, each case once in the JUnit report', async () => {
    const event = pullRequestEvent(21, HEAD_SHA);
    const started = Date.now();
    const ran = await shards('41', [1, 2, 3], event);
    const shardsMs = Date.now() - started;
    expect(ran.map((shard) => shard.success)).toContain(false);
    expect(github.requests).toEqual([]);

    const reportStarted = Date.now();
    const report = await suiteStep(reportInputs('reports/regression.xml'), {
      event,
      runNumber: '41',
      job: 'report',
    });
    const reportMs = Date.now() - reportStarted;
    // Every build of every shard and attempt links to a job of it, a retried case's first build too.
    const builds = /<p>Builds \((\d+):.*?<\/p>/.exec(report.summary);
    expect(builds, report.summary).not.toBeNull();
    expect(builds![0].match(/<a href=/g)).toHaveLength(Number(builds![1]));
    // Case 11 failed every attempt: the report fails as a run would.
    expect(report.success, report.log).toBe(false);
    expect(report.outputs).toMatchObject({ total: '12', passed: '11', failed: '1', flaky: '1' });
    expect(errorsOf(report)[0]).toMatch(/^1 of 12 job\(s\) failed .*"Case 11"/);

    const comments = github.commentsOf(21);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain('| 12 | 11 | 1 | 1 |');
    expect(comments[0]!.body).toContain('#### Flaky (1)');

    expect(github.checkRuns).toHaveLength(1);
    const check = github.checkRuns[0]!;
    expect(check).toMatchObject({
      name: CHECK_NAME,
      head_sha: HEAD_SHA,
      conclusion: 'failure',
      status: 'completed',
    });
    expect(check.output.title).toBe('11 of 12 passed, 1 failed, 1 flaky');
    expect(check.annotations.map((annotation) => annotation.title)).toEqual([
      expect.stringMatching(/^Case 11 \(/),
    ]);
    expect(check.output.summary.length).toBeLessThanOrEqual(65_535);

    const junit = junitCases(await readFile(path.join(workspace, 'reports', 'regression.xml'), 'utf8'));
    expect([...junit.keys()].sort()).toEqual(
      Array.from({ length: 12 }, (_, i) => `Case ${String(i + 1).padStart(2, '0')}`),
    );
    expect([...junit.values()].every((bodies) => bodies.length === 1)).toBe(true);
    expect(junit.get('Case 07')![0]).toContain('<flakyFailure');
    expect(junit.get('Case 07')![0]).not.toContain('<failure');
    expect(junit.get('Case 11')![0]).toMatch(/<failure[\s\S]*<rerunFailure/);

    // The report's job run again: the same comment, updated.
    const again = await suiteStep(reportInputs('reports/regression.xml'), {
      event,
      runNumber: '41',
      runAttempt: '2',
      job: 'report',
    });
    expect(again.outputs).toMatchObject({ total: '12', passed: '11', failed: '1', flaky: '1' });
    expect(github.commentsOf(21)).toHaveLength(1);
    expect(
      github.requests.filter((request) => request.method === 'PATCH' && /comments/.test(request.path)),
    ).toHaveLength(1);

    console.info(
      `shard report figures: shards ${shardsMs} ms, report ${reportMs} ms, comment ${comments[0]!.body.length} characters, check summary ${check.output.summary.length} characters, summary ${Buffer.byteLength(report.summary)} bytes`,
    );
  });

  it('a shard that never ran: its cases are not run, and the report fails', async () => {
    const event = pullRequestEvent(22, HEAD_SHA);
    await shards('42', [1, 3], event);
    const report = await suiteStep(
      { ...reportInputs('reports/partial.xml'), 'fail-on-failure': 'false' },
      {
        event,
        runNumber: '42',
        job: 'report',
      },
    );
    expect(report.success, report.log).toBe(false);
    expect(report.outputs).toMatchObject({ total: '12', passed: '8', failed: '4', flaky: '1' });
    expect(errorsOf(report)[0]).toMatch(/^4 cases of suite "Regression" were not run by any step: /);
    expect(report.summary).toContain('not run');
    expect(github.checkRuns[0]).toMatchObject({ name: CHECK_NAME, conclusion: 'failure' });
    expect(github.checkRuns[0]!.annotations).toHaveLength(4);
    // With `fail-on-failure: false` the failed jobs are warnings; the not-run cases fail the step all the same.
    const notRun = report.annotations
      .filter((annotation) => annotation.level === 'warning' && annotation.message.includes('was not run'))
      .map((annotation) => annotation.message);
    expect(notRun).toHaveLength(4);
    expect(notRun[0]).toMatch(/^"Case \d+" was not run: no shard of this run ran it \(one that failed/);
  });

  it('a report of a run whose shards left no job (another build name): says where it looked and what to check', async () => {
    const report = await suiteStep(reportInputs('reports/none.xml'), {
      event: pullRequestEvent(24, HEAD_SHA),
      runNumber: '99',
      job: 'report',
    });
    expect(report.success).toBe(false);
    expect(report.outputs).toMatchObject({ total: '12', passed: '0', failed: '12' });
    expect(errorsOf(report)[0]).toMatch(
      /^No job of the 12 cases of suite "Regression" was found in build\(s\) "Regression #99\.1[^"]*": give the report the `build-name` the shards were given/,
    );
  });

  it('from a workflow_run workflow: the triggering run is reported on its commit, on the pull request given', async () => {
    // A fork's pull request: the shards' run has no token that may write, and its event names the pull request.
    await shards('43', [1, 2, 3], pullRequestEvent(23, HEAD_SHA));
    const workflowRun = {
      action: 'completed',
      workflow_run: {
        id: 9043,
        run_number: 43,
        run_attempt: 1,
        head_sha: HEAD_SHA,
        path: '.github/workflows/e2e.yml',
        html_url: 'https://github.com/example/sauce-app/actions/runs/9043',
        pull_requests: [],
      },
    };
    const report = await suiteStep(
      { ...reportInputs('reports/fork.xml'), 'pull-request': '23' },
      // A run of its own, whose event names the shards' run.
      { event: workflowRun, eventName: 'workflow_run', runId: '9107', runNumber: '7', job: 'report' },
    );
    expect(report.outputs).toMatchObject({ total: '12', passed: '11', failed: '1', flaky: '1' });
    expect(github.commentsOf(23)).toHaveLength(1);
    expect(github.checkRuns).toHaveLength(1);
    expect(github.checkRuns[0]).toMatchObject({
      head_sha: HEAD_SHA,
      details_url: 'https://github.com/example/sauce-app/actions/runs/9043',
    });
    expect(github.checkRuns[0]!.annotations[0]!.path).toBe('.github/workflows/e2e.yml');
  });

  it('a token refused the check run: a warning names checks: write, and the result is unchanged', async () => {
    await shards('44', [1, 2, 3], pullRequestEvent(24, HEAD_SHA));
    github.fault({
      method: 'POST',
      path: /check-runs$/,
      status: 403,
      body: { message: 'Resource not accessible by integration' },
    });
    const report = await suiteStep(reportInputs('reports/refused.xml'), {
      event: pullRequestEvent(24, HEAD_SHA),
      runNumber: '44',
      job: 'report',
    });
    expect(report.success).toBe(false);
    expect(errorsOf(report)[0]).toMatch(/^1 of 12 job\(s\) failed/);
    const warnings = report.annotations.filter((a) => a.level === 'warning').map((a) => a.message);
    expect(warnings.some((warning) => warning.includes('checks: write'))).toBe(true);
    expect(github.commentsOf(24)).toHaveLength(1);
  });
});

describe('operation: report on the command line', () => {
  const env = { SAUCE_USERNAME: 'demo', SAUCE_ACCESS_KEY: 'demo-access-key' };
  const cli = (args: readonly string[]) =>
    runCli(['run-suite-and-wait', '--api-url', lab.url, '--suite', 'Regression', ...args], {
      cwd: workspace,
      env,
    });

  it('reports the shards of a build name, and without one refuses before any request (exit 2)', async () => {
    const refused = await cli(['--operation', 'report']);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/build-name.*is empty, and without the run's identity/);

    const build = ['--build-name', 'nightly 901', '--retries', '1', '--poll-interval', '1s'];
    await Promise.all(['1/3', '2/3', '3/3'].map((shard) => cli([...build, '--shard', shard])));
    const report = await cli([
      '--operation',
      'report',
      '--build-name',
      'nightly 901',
      '--junit-file',
      'cli.xml',
    ]);
    expect(report.code, report.stderr).toBe(1);
    expect(outputLines(report.stdout)).toMatchObject({ total: '12', passed: '11', failed: '1', flaky: '1' });
    const junit = junitCases(await readFile(path.join(workspace, 'cli.xml'), 'utf8'));
    expect(junit.size).toBe(12);
  });
});

describe('run-js-tests operation: report', () => {
  const PLATFORMS = 'Windows 11 / chrome / latest\nLinux / firefox / 126\nmacOS 14 / safari / 17';
  const jsStep = (inputs: Record<string, string>, runNumber: string, event: unknown) =>
    lab.step(
      'run-js-tests',
      {
        ...SAUCE,
        url: 'https://example.com/tests.html',
        framework: 'qunit',
        platforms: PLATFORMS,
        build: `js-${runNumber}`,
        'poll-interval': '1s',
        ...inputs,
      },
      {
        env: { GITHUB_API_URL: github.url },
        event,
        context: { repository: REPOSITORY, eventName: 'pull_request', token: TOKEN, runNumber, job: 'js' },
        workspace,
      },
    );

  it.each([
    ['every shard ran', ['1/2', '2/2'], { total: '3', passed: '3', failed: '0' }, 'success', 0],
    // Shard 1/2 runs Linux and macOS: Windows is not run.
    ['one shard never ran', ['1/2'], { total: '3', passed: '2', failed: '1' }, 'failure', 1],
  ])(
    '%s: one comment, one check run, each platform once',
    async (_, shardsRun, counts, conclusion, annotations) => {
      const runNumber = String(50 + shardsRun.length);
      const event = pullRequestEvent(30 + shardsRun.length, HEAD_SHA);
      await Promise.all(shardsRun.map((shard) => jsStep({ shard }, runNumber, event)));
      const report = await jsStep(
        {
          operation: 'report',
          'pr-comment': 'true',
          'check-name': 'JS unit tests',
          'junit-file': `reports/js-${runNumber}.xml`,
        },
        runNumber,
        event,
      );
      expect(report.success, report.log).toBe(conclusion === 'success');
      expect(report.outputs).toMatchObject(counts);
      expect(github.commentsOf(30 + shardsRun.length)).toHaveLength(1);
      expect(github.checkRuns).toHaveLength(1);
      expect(github.checkRuns[0]).toMatchObject({ name: 'JS unit tests', conclusion });
      expect(github.checkRuns[0]!.annotations).toHaveLength(annotations);
      const xml = await readFile(path.join(workspace, 'reports', `js-${runNumber}.xml`), 'utf8');
      expect(xml.match(/<testcase\b/g)).toHaveLength(3);
      if (shardsRun.length === 1) {
        expect(errorsOf(report)[0]).toMatch(
          /^1 of the platforms of `platforms` was not run by any step: Windows 11 \/ chrome \/ latest\./,
        );
      }
    },
  );
});
