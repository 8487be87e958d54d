/**
 * End to end: `pr-comment` of upload-build and run-suite-and-wait, on the bundles run as the runner
 * runs them, against the emulator and a stand-in for GitHub's REST interface (`GITHUB_API_URL`).
 * The bundles are those of dist/, or of the folder in SAUCE_ACTIONS_BUNDLES (a build made
 * elsewhere with `node scripts/build-actions.ts --out-dir DIR`).
 */
import { copyFile, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  runStep,
  startGitHubApi,
  type GitHubApiStandIn,
  type StepResult,
} from '@sauce-actions/action-harness';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
// The sample writers are not among the emulator's package exports.
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { pullRequestEvent, REPOSITORY } from './support/github.ts';
import { errorsOf, MOBILE, ROOT, SAUCE, warningsOf } from './support/lab.ts';

const TOKEN = 'ghs_prCommentToken4d8f0a1b2c3e';

let emulator: RunningEmulator;
let github: GitHubApiStandIn;
let workspace: string;
let actionsRoot: string;
const steps: StepResult[] = [];

/** The folder holding `actions/<name>/action.yml` whose `../../dist` holds the bundles to run. */
async function actionsWithBundles(): Promise<string> {
  const bundles = process.env.SAUCE_ACTIONS_BUNDLES;
  if (!bundles) return ROOT;
  const root = await mkdtemp(path.join(os.tmpdir(), 'pr-comment-bundles-'));
  for (const name of ['upload-build', 'run-suite-and-wait']) {
    await mkdir(path.join(root, 'actions', name), { recursive: true });
    await copyFile(
      path.join(ROOT, 'actions', name, 'action.yml'),
      path.join(root, 'actions', name, 'action.yml'),
    );
  }
  await symlink(path.resolve(bundles), path.join(root, 'dist'), 'dir');
  return root;
}

beforeAll(async () => {
  // Jobs end before the first poll (a second after the start, the shortest poll-interval).
  emulator = await startEmulator({ port: 0, jobDurationMs: 500 });
  workspace = await mkdtemp(path.join(os.tmpdir(), 'e2e-pr-comment-'));
  await createSampleApk(path.join(workspace, 'app-release.apk'), {
    packageId: 'com.example.shop',
    name: 'Demo Shop',
    version: '2.0.1',
    versionCode: 201,
  });
  actionsRoot = await actionsWithBundles();
});

beforeEach(async () => {
  github = await startGitHubApi({ token: TOKEN, repository: REPOSITORY });
  return () => github.close();
});

afterAll(async () => {
  await Promise.all(steps.map((step) => step.cleanup()));
  await emulator?.close();
  if (workspace) await rm(workspace, { recursive: true, force: true });
  if (actionsRoot && actionsRoot !== ROOT) await rm(actionsRoot, { recursive: true, force: true });
});

async function step(
  action: 'upload-build' | 'run-suite-and-wait',
  inputs: Record<string, string>,
  options: { event: unknown; eventName?: string; runNumber?: string; job?: string },
): Promise<StepResult> {
  const result = await runStep({
    actionDir: path.join(actionsRoot, 'actions', action),
    inputs: { 'api-url': emulator.url, 'pr-comment': 'true', ...inputs },
    env: { GITHUB_API_URL: github.url },
    event: options.event,
    context: {
      repository: REPOSITORY,
      eventName: options.eventName ?? 'pull_request',
      token: TOKEN,
      runNumber: options.runNumber ?? '1',
      ...(options.job !== undefined ? { job: options.job } : {}),
    },
    workspace,
  });
  steps.push(result);
  // The token is masked as read, and never written anywhere, even before the runner's masking.
  const written = [
    result.unmaskedLog,
    JSON.stringify(result.outputs),
    JSON.stringify(result.state),
    result.summary,
    JSON.stringify(result.annotations),
    JSON.stringify(result.post ?? {}),
  ].join('\n');
  expect(written).not.toContain(TOKEN);
  expect(result.masks).toContain(TOKEN);
  return result;
}

const suiteStep = (inputs: Record<string, string>, options: Parameters<typeof step>[2]) =>
  step('run-suite-and-wait', { ...SAUCE, 'poll-interval': '1s', ...inputs }, options);
const uploadStep = (inputs: Record<string, string>, options: Parameters<typeof step>[2]) =>
  step('upload-build', { ...MOBILE, file: 'app-release.apk', ...inputs }, options);

const requestsOf = (method: string) => github.requests.filter((request) => request.method === method);

describe('pr-comment', () => {
  it('run-suite-and-wait: three runs on one pull request create the comment once, then update it', async () => {
    const runs: StepResult[] = [];
    for (const runNumber of ['11', '12', '13']) {
      runs.push(await suiteStep({ suite: 'Smoke' }, { event: pullRequestEvent(7), runNumber }));
    }
    // The Smoke suite's "Checkout fails" case fails: the step fails, as it would without a comment.
    for (const run of runs) {
      expect(run.success, run.log).toBe(false);
      expect(errorsOf(run)[0]).toMatch(/^1 of 3 job\(s\) failed in build "Smoke #1\d\.1 · [a-z2-7]{8}"/);
      expect(warningsOf(run).filter((warning) => /comment/i.test(warning))).toEqual([]);
    }
    expect(runs[0]!.log).toMatch(/Created the comment on pull request #7: https:\/\/github\.com\//);
    expect(runs[1]!.log).toMatch(/Updated the comment on pull request #7/);
    expect(runs[2]!.log).toMatch(/Updated the comment on pull request #7/);

    expect(github.commentsOf(7)).toHaveLength(1);
    expect(requestsOf('POST')).toHaveLength(1);
    expect(requestsOf('PATCH')).toHaveLength(2);
    expect(github.requests.every((request) => request.authorized)).toBe(true);
    expect(requestsOf('POST')[0]!.path).toBe(`/repos/${REPOSITORY}/issues/7/comments`);

    const body = github.commentsOf(7)[0]!.body;
    expect(body).toMatch(/^<!-- sauce-actions:pr-comment run-suite-and-wait [0-9a-f]{16} -->\n/);
    expect(body).toContain('Suite Smoke: 1 of 3 jobs failed');
    expect(body).toContain('| 3 | 2 | 1 | 0 |');
    expect(body).toContain('#### Failed (1)');
    const lastJobs = JSON.parse(runs[2]!.outputs['job-ids'] ?? '[]') as string[];
    const failedJob = emulator.context.automation.jobs
      .all()
      .find((job) => job.name === 'Checkout fails' && lastJobs.includes(job.id));
    expect(failedJob).toBeDefined();
    expect(body).toMatch(
      new RegExp(
        `\\| Checkout fails \\| .* \\| \\[${failedJob!.id}\\]\\(${emulator.url}/tests/${failedJob!.id}\\) \\|`,
      ),
    );
    // The last run wrote it: its run number is in the line under the comment.
    expect(body).toContain('workflow run 13');
    expect(body).not.toContain(TOKEN);
  });

  it('run-suite-and-wait: shards of a matrix keep a comment each, with the flaky case of its shard', async () => {
    const inputs = { suite: 'Regression', retries: '1' };
    const first = await Promise.all(
      ['1/2', '2/2'].map((shard) => suiteStep({ ...inputs, shard }, { event: pullRequestEvent(8) })),
    );
    const again = await suiteStep(
      { ...inputs, shard: '2/2' },
      { event: pullRequestEvent(8), runNumber: '2' },
    );
    for (const run of [...first, again]) expect(run.success, run.log).toBe(true);

    const comments = github.commentsOf(8);
    expect(comments).toHaveLength(2);
    expect(requestsOf('POST')).toHaveLength(2);
    expect(requestsOf('PATCH')).toHaveLength(1);
    const markers = comments.map((comment) => comment.body.split('\n')[0]);
    expect(new Set(markers).size).toBe(2);
    const withFlaky = comments.filter((comment) => comment.body.includes('#### Flaky (1)'));
    expect(withFlaky).toHaveLength(1);
    expect(withFlaky[0]!.body).toMatch(
      /\| Case 07 \| .* \| \[1\]\(http[^)]+\) failed, \[2\]\(http[^)]+\) passed \|/,
    );
  });

  it('upload-build: creates the comment with the install and build links, then updates it', async () => {
    const first = await uploadStep({}, { event: pullRequestEvent(9) });
    const second = await uploadStep({}, { event: pullRequestEvent(9), runNumber: '2' });
    expect(first.success, first.log).toBe(true);
    expect(second.success, second.log).toBe(true);
    expect(github.commentsOf(9)).toHaveLength(1);
    expect(requestsOf('POST')).toHaveLength(1);
    expect(requestsOf('PATCH')).toHaveLength(1);
    const body = github.commentsOf(9)[0]!.body;
    expect(body).toMatch(/^<!-- sauce-actions:pr-comment upload-build [0-9a-f]{16} -->\n/);
    expect(body).toContain('### 📦 Demo Shop 2.0.1 uploaded to Sauce Labs');
    expect(body).toContain(`**[Install (download page)](${second.outputs['download-page-url']})**`);
    expect(body).toContain(`[Build](${second.outputs['build-url']})`);
    expect(body).toContain(`[Landing page](${second.outputs['landing-page-url']})`);
  });

  it('writes nothing outside a pull request, and the log says why', async () => {
    const result = await uploadStep(
      {},
      { event: { ref: 'refs/heads/main', head_commit: { id: 'abc' } }, eventName: 'push' },
    );
    expect(result.success, result.log).toBe(true);
    expect(github.requests).toEqual([]);
    expect(result.log).toContain(
      "pr-comment: no pull-request comment written: this run's event (push) is not for a pull request, and `pull-request` is empty.",
    );
  });

  it('writes nothing when pr-comment is off (the default)', async () => {
    const result = await uploadStep({ 'pr-comment': 'false' }, { event: pullRequestEvent(10) });
    expect(result.success, result.log).toBe(true);
    expect(github.requests).toEqual([]);
    expect(result.log).not.toContain('pr-comment');
  });

  it('a token that may not write (403) is a warning: the step succeeds as it would have', async () => {
    github.fault({ method: 'POST', status: 403, message: 'Resource not accessible by integration' });
    const result = await uploadStep({}, { event: pullRequestEvent(11) });
    expect(result.success, result.log).toBe(true);
    expect(result.outputs['build-id']).toMatch(/^\d+$/);
    expect(errorsOf(result)).toEqual([]);
    const warning = warningsOf(result).find((message) => message.includes('pull-request comment'));
    expect(warning).toMatch(/403 "Resource not accessible by integration"/);
    expect(warning).toContain('a pull request from a fork gets a read-only token');
    expect(warning).toContain('`permissions: pull-requests: write`');
    expect(warning).toContain("The step's result is unchanged.");
    // A create that was refused is not sent again.
    expect(requestsOf('POST')).toHaveLength(1);
    expect(github.commentsOf(11)).toEqual([]);
  });

  it('a 403 does not hide the failure of a suite: the step fails with its own error first', async () => {
    github.fault({ method: 'POST', status: 403, message: 'Resource not accessible by integration' });
    const result = await suiteStep({ suite: 'Smoke' }, { event: pullRequestEvent(12) });
    expect(result.success).toBe(false);
    expect(errorsOf(result)[0]).toMatch(/^1 of 3 job\(s\) failed in build "Smoke #1\.1 · [a-z2-7]{8}"/);
    expect(warningsOf(result).some((message) => message.includes('pull-request comment'))).toBe(true);
  });

  it('waits out a rate limit on the create as Retry-After says, then creates it once', async () => {
    github.fault({
      method: 'POST',
      status: 429,
      message: 'secondary rate limit',
      headers: { 'retry-after': '1' },
    });
    const result = await uploadStep({}, { event: pullRequestEvent(14) });
    expect(result.success, result.log).toBe(true);
    expect(requestsOf('POST').map((request) => request.status)).toEqual([429, 201]);
    expect(github.commentsOf(14)).toHaveLength(1);
    expect(warningsOf(result)).toEqual([]);
  });

  it('finds its comment on a later page of the pull request comments', async () => {
    for (let index = 1; index <= 100; index += 1) github.addComment(13, `Review note ${index}`);
    await uploadStep({}, { event: pullRequestEvent(13) });
    expect(github.commentsOf(13)).toHaveLength(101);
    await uploadStep({}, { event: pullRequestEvent(13), runNumber: '2' });
    expect(github.commentsOf(13)).toHaveLength(101);
    expect(requestsOf('POST')).toHaveLength(1);
    expect(requestsOf('PATCH')).toHaveLength(1);
    expect(requestsOf('PATCH')[0]!.path).toBe(
      `/repos/${REPOSITORY}/issues/comments/${github.commentsOf(13)[100]!.id}`,
    );
    // The first run found one full page without its comment; the second read on to page 2.
    const pages = requestsOf('GET').map((request) => request.query.page ?? '1');
    expect(pages).toEqual(['1', '1', '2']);
  });
});
