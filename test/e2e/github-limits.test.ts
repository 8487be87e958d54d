/**
 * End to end: a suite of 2,000 cases, half of them failing, on the run-suite-and-wait bundle run
 * as the runner runs it, against the emulator and a stand-in for GitHub's REST interface. What the
 * step hands the runner must stay within GitHub's limits, or the runner drops it: a step summary
 * over 1 MiB is refused whole, annotations past 10 errors a step are dropped in the order
 * emitted, a comment over 65,536 characters is refused, and a job keeps 1 MB of outputs.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  runStep,
  startGitHubApi,
  type GitHubApiStandIn,
  type StepResult,
} from '@sauce-actions/action-harness';
import { defaultSeed, startEmulator, type RunningEmulator, type Seed } from '@sauce-actions/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPOSITORY } from './support/github.ts';
import { ROOT, SAUCE } from './support/lab.ts';

const TOKEN = 'ghs_limitsToken5e9a1b2c3d4f';
const CASES = 2_000;
const PULL_REQUEST = 24;
const REPORT_PULL_REQUEST = 25;
const HEAD_SHA = 'c0ffee0000000000000000000000000000000024';
const CHECK_NAME = 'Sauce Labs Large';
const SUITE_ID = '3e0a6b2d-8c41-4f7a-9b5e-6d2c1a0f9e90';

/**
 * A case's name as long as the summary shows one (200 characters), in Japanese with ampersands,
 * which the summary writes as 3 and 5 bytes a character: 2,000 rows are then far over 1 MiB.
 */
function caseName(n: number): string {
  const number = String(n + 1).padStart(4, '0');
  const words = 'カートの中身がサインインとサインアウトの後も残り、決済 & 配送 & 請求の画面へ進めること。';
  return `${number} ${words.repeat(5)}`.slice(0, 200);
}

/** The default seed and a suite of 2,000 cases of one target each, every other one failing. */
function largeSuiteSeed(): Seed {
  const base = defaultSeed();
  const browsers = ['chrome', 'firefox', 'MicrosoftEdge', 'safari'];
  return {
    ...base,
    authoring: {
      ...base.authoring,
      testSuites: [...(base.authoring.testSuites ?? []), { id: SUITE_ID, name: 'Large' }],
      testCases: [
        ...(base.authoring.testCases ?? []),
        ...Array.from({ length: CASES }, (_, n) => ({
          id: `dddddddddddddddddd${n.toString(16).padStart(6, '0')}`,
          name: caseName(n),
          testSuiteId: SUITE_ID,
          runSettings: {
            primaryTarget: {
              capabilities: {
                browserName: browsers[n % browsers.length] as string,
                browserVersion: 'latest',
                platformName: 'Windows 11',
              },
            },
          },
          ...(n % 2 === 1 ? { expectedOutcome: 'fail' as const } : {}),
        })),
      ],
    },
  };
}

let emulator: RunningEmulator;
let github: GitHubApiStandIn;
let step: StepResult;
let jsStep: StepResult;
let reportStep: StepResult;
let elapsedMs: number;

beforeAll(async () => {
  [emulator, github] = await Promise.all([
    // Jobs end before the first poll (a second after the start, the shortest poll-interval).
    startEmulator({ port: 0, jobDurationMs: 300, seed: largeSuiteSeed() }),
    startGitHubApi({ token: TOKEN, repository: REPOSITORY }),
  ]);
  const started = performance.now();
  step = await runStep({
    actionDir: path.join(ROOT, 'actions', 'run-suite-and-wait'),
    inputs: {
      ...SAUCE,
      'api-url': emulator.url,
      suite: 'Large',
      'poll-interval': '1s',
      'pr-comment': 'true',
    },
    env: { GITHUB_API_URL: github.url },
    event: {
      action: 'synchronize',
      number: PULL_REQUEST,
      pull_request: { number: PULL_REQUEST, head: { ref: 'feature' }, base: { ref: 'main' } },
    },
    context: { repository: REPOSITORY, eventName: 'pull_request', token: TOKEN },
  });
  elapsedMs = performance.now() - started;
  // The report of that run (`operation: report`), as a later job of the workflow makes it, with a
  // comment on a pull request of its own and a check run.
  reportStep = await runStep({
    actionDir: path.join(ROOT, 'actions', 'run-suite-and-wait'),
    inputs: {
      ...SAUCE,
      'api-url': emulator.url,
      operation: 'report',
      suite: 'Large',
      'pr-comment': 'true',
      'check-name': CHECK_NAME,
    },
    env: { GITHUB_API_URL: github.url },
    event: {
      action: 'synchronize',
      number: REPORT_PULL_REQUEST,
      pull_request: {
        number: REPORT_PULL_REQUEST,
        head: { ref: 'feature', sha: HEAD_SHA },
        base: { ref: 'main' },
      },
    },
    context: { repository: REPOSITORY, eventName: 'pull_request', token: TOKEN },
  });
  // run-js-tests on 2,000 platforms, every one failing (the emulator fails a page named `fail`).
  jsStep = await runStep({
    actionDir: path.join(ROOT, 'actions', 'run-js-tests'),
    inputs: {
      ...SAUCE,
      'api-url': emulator.url,
      url: 'https://example.com/fail/tests.html',
      framework: 'qunit',
      platforms: Array.from({ length: CASES }, (_, n) => `- [Windows 11, chrome, "${n + 1}"]`).join('\n'),
      'poll-interval': '1s',
    },
  });
});

afterAll(async () => {
  await Promise.all([step?.cleanup(), jsStep?.cleanup(), reportStep?.cleanup()]);
  await Promise.all([emulator?.close(), github?.close()]);
});

const levelOf = (level: string) => step.annotations.filter((annotation) => annotation.level === level);
const MiB = 1024 * 1024;

describe('run-suite-and-wait: a suite of 2,000 cases, half failing, within GitHub limits', () => {
  it('fails, and counts every job in its outputs', async () => {
    // The figures the release note gives, before and after the budgets.
    const figures = {
      summaryBytes: Buffer.byteLength(step.summary, 'utf8'),
      commentCharacters: github.commentsOf(PULL_REQUEST)[0]?.body.length,
      errors: levelOf('error').length,
      warnings: levelOf('warning').length,
      notices: levelOf('notice').length,
      outputFileBytes: (await stat(step.files.output)).size,
      stepSeconds: Math.round(elapsedMs / 100) / 10,
    };
    console.log(`figures: ${JSON.stringify(figures)}`);
    expect(step.success, step.log.slice(-3000)).toBe(false);
    expect(step.outputs.total).toBe(String(CASES));
    expect(step.outputs.failed).toBe(String(CASES / 2));
  });

  it('writes a summary of at most 1 MiB: every failed job, then passed ones until the limit, then a line counting the rest, and the failure last', () => {
    expect(Buffer.byteLength(step.summary, 'utf8')).toBeLessThanOrEqual(MiB);
    expect(step.summary.match(/<td>❌ failed<\/td>/g)).toHaveLength(CASES / 2);
    const passedRows = step.summary.match(/<td>✅ passed<\/td>/g)?.length ?? 0;
    expect(passedRows).toBeGreaterThan(0);
    expect(passedRows).toBeLessThan(CASES / 2);
    expect(step.summary).toContain(
      `<p>Jobs not listed here: ${CASES / 2 - passedRows}; every job is in the results file (the output results-file).</p>`,
    );
    expect(step.summary).toMatch(
      /<h2>Run suite and wait: [^<]+<\/h2>\s*<p>1000 of 2000 job\(s\) failed[^<]*<\/p>\s*$/,
    );
  });

  it('shows at most 10 errors, the step’s failure first, and one notice counting the failed jobs left out', () => {
    const errors = levelOf('error');
    expect(errors.length).toBeLessThanOrEqual(10);
    expect(errors[0]?.message).toMatch(/^1000 of 2000 job\(s\) failed in build/);
    expect(errors.slice(1).every((error) => error.message.startsWith('Job '))).toBe(true);
    expect(levelOf('warning').length).toBeLessThanOrEqual(10);
    expect(levelOf('notice').map((notice) => notice.message)).toContain(
      `${CASES / 2 - (errors.length - 1)} more failed jobs: see the summary.`,
    );
  });

  it('writes one comment of at most 65,536 characters', () => {
    const comments = github.commentsOf(PULL_REQUEST);
    expect(comments).toHaveLength(1);
    expect(comments[0]?.body.length).toBeLessThanOrEqual(65_536);
    expect(comments[0]?.body).toContain('1000');
  });

  it('keeps its outputs small, the full list of jobs in the results file', async () => {
    expect((await stat(step.files.output)).size).toBeLessThan(64 * 1024);
    expect(step.outputs['job-ids']?.split(',')).toHaveLength(100);
    const results = JSON.parse(await readFile(step.outputs['results-file'] ?? '', 'utf8')) as {
      jobs: unknown[];
    };
    expect(results.jobs).toHaveLength(CASES);
  });
});

describe('run-js-tests: 2,000 platforms, every one failing, within GitHub limits', () => {
  const errorsOf = (result: StepResult) =>
    result.annotations.filter((annotation) => annotation.level === 'error');

  it('keeps the summary, the annotations and the outputs within the limits (it writes no comment)', async () => {
    const figures = {
      summaryBytes: Buffer.byteLength(jsStep.summary, 'utf8'),
      errors: errorsOf(jsStep).length,
      notices: jsStep.annotations.filter((annotation) => annotation.level === 'notice').length,
      outputFileBytes: (await stat(jsStep.files.output)).size,
    };
    console.log(`run-js-tests figures: ${JSON.stringify(figures)}`);
    expect(jsStep.success, jsStep.log.slice(-3000)).toBe(false);
    expect(jsStep.outputs).toMatchObject({ total: String(CASES), failed: String(CASES) });
    expect(figures.summaryBytes).toBeLessThanOrEqual(MiB);
    expect(errorsOf(jsStep).length).toBeLessThanOrEqual(10);
    expect(errorsOf(jsStep)[0]?.message).toMatch(/^2000 of 2000 platforms failed the JS tests/);
    expect(figures.outputFileBytes).toBeLessThan(64 * 1024);
    expect(JSON.parse(jsStep.outputs['job-ids'] ?? '[]')).toHaveLength(100);
  });
});

describe('operation: report of those 2,000 cases, within GitHub limits', () => {
  const errorsOf = (result: StepResult) =>
    result.annotations.filter((annotation) => annotation.level === 'error');

  it('keeps the summary, the annotations, the comment, the check run and the outputs within the limits', async () => {
    const [check] = github.checkRuns;
    const comments = github.commentsOf(REPORT_PULL_REQUEST);
    const figures = {
      summaryBytes: Buffer.byteLength(reportStep.summary, 'utf8'),
      errors: errorsOf(reportStep).length,
      commentCharacters: comments[0]?.body.length,
      checkSummaryCharacters: check?.output.summary.length,
      checkAnnotations: check?.annotations.length,
      outputFileBytes: (await stat(reportStep.files.output)).size,
    };
    console.log(`report figures: ${JSON.stringify(figures)}`);
    expect(reportStep.success, reportStep.log.slice(-3000)).toBe(false);
    expect(reportStep.outputs).toMatchObject({ total: String(CASES), failed: String(CASES / 2) });
    expect(figures.summaryBytes).toBeLessThanOrEqual(MiB);
    expect(reportStep.summary.match(/<td>❌ failed<\/td>/g)).toHaveLength(CASES / 2);
    expect(figures.errors).toBeLessThanOrEqual(10);
    expect(errorsOf(reportStep)[0]?.message).toMatch(/^1000 of 2000 job\(s\) failed/);
    expect(comments).toHaveLength(1);
    expect(figures.commentCharacters).toBeLessThanOrEqual(65_536);
    expect(github.checkRuns).toHaveLength(1);
    expect(check).toMatchObject({ name: CHECK_NAME, head_sha: HEAD_SHA, conclusion: 'failure' });
    expect(figures.checkSummaryCharacters).toBeLessThanOrEqual(65_535);
    // One annotation a failed case, sent 50 to a request (a create, then updates).
    expect(figures.checkAnnotations).toBe(CASES / 2);
    const checkRequests = github.requests.filter((request) => /check-runs/.test(request.path));
    expect(checkRequests).toHaveLength(CASES / 2 / 50);
    expect(figures.outputFileBytes).toBeLessThan(64 * 1024);
  });
});
