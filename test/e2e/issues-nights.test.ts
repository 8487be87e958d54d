/**
 * End to end: `issues` on the bundles, through the GitHub host, against the emulator and a stand-in
 * for GitHub's REST interface. Three nights of Regression on `main` with Case 07 flaky each night
 * give one issue and two comments, found by the marker however the title was edited; a closed
 * issue is commented, not reopened; a pull request from a fork files nothing, with one warning;
 * and a token without `issues: write` is said once, the step's result unchanged.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  startGitHubApi,
  startWebhookReceiver,
  type GitHubApiStandIn,
  type StepResult,
} from '@sauce-actions/action-harness';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REPOSITORY } from './support/github.ts';
import { closeLabs, openLab, SAUCE, warningsOf, type Lab } from './support/lab.ts';

const TOKEN = 'ghs_issuesNightsToken3e8a1b5c7d9f';
const WORKFLOW_REF = `${REPOSITORY}/.github/workflows/nightly.yml@refs/heads/main`;
const NIGHT = { suite: 'Regression', retries: '1', 'poll-interval': '1s', issues: 'flaky' };

let lab: Lab;
let github: GitHubApiStandIn;
let workspace: string;

beforeAll(async () => {
  lab = await openLab({ jobDurationMs: 200 });
  workspace = await mkdtemp(path.join(os.tmpdir(), 'e2e-issues-'));
  github = await startGitHubApi({ token: TOKEN, repository: REPOSITORY });
});

afterAll(async () => {
  await github?.close();
  await closeLabs();
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

const [owner, name] = REPOSITORY.split('/');
const REPOSITORY_EVENT = { name, owner: { login: owner }, full_name: REPOSITORY, default_branch: 'main' };

/** A night of the scheduled workflow on main, or a pull request's run. */
async function night(
  runNumber: number,
  inputs: Record<string, string> = {},
  pullRequest?: { number: number; from: string },
): Promise<StepResult> {
  const event = pullRequest
    ? {
        number: pullRequest.number,
        repository: REPOSITORY_EVENT,
        pull_request: {
          number: pullRequest.number,
          head: {
            ref: 'feature',
            sha: 'b'.repeat(40),
            repo: { full_name: pullRequest.from, fork: pullRequest.from !== REPOSITORY },
          },
          base: { ref: 'main', repo: { full_name: REPOSITORY } },
        },
      }
    : { repository: REPOSITORY_EVENT };
  const result = await lab.step(
    'run-suite-and-wait',
    { ...SAUCE, ...NIGHT, ...inputs },
    {
      env: { GITHUB_API_URL: github.url, GITHUB_WORKFLOW_REF: WORKFLOW_REF },
      event,
      context: {
        repository: REPOSITORY,
        eventName: pullRequest ? 'pull_request' : 'schedule',
        ref: pullRequest ? `refs/pull/${pullRequest.number}/merge` : 'refs/heads/main',
        headRef: pullRequest ? 'feature' : '',
        baseRef: pullRequest ? 'main' : '',
        sha: 'a'.repeat(40),
        token: TOKEN,
        runId: `77${runNumber}`,
        runNumber: String(runNumber),
        job: 'nightly',
      },
      workspace,
    },
  );
  expect(result.unmaskedLog).not.toContain(TOKEN);
  return result;
}

const writes = () => github.requests.filter((request) => request.method === 'POST');

describe('issues: flaky over three nights', () => {
  beforeEach(() => {
    github.requests.length = 0;
  });

  it('night 1 files one issue for the flaky case, found by its marker, and sends its message, the address masked', async () => {
    const hook = await startWebhookReceiver();
    let first: StepResult;
    try {
      first = await night(1, { 'notify-url': hook.url });
      expect(hook.received).toHaveLength(1);
    } finally {
      await hook.close();
    }
    expect(first.masks).toContain(hook.url);
    expect(first.unmaskedLog).not.toContain(hook.secret);
    expect(first.summary).not.toContain(hook.secret);
    expect(JSON.stringify(first.outputs)).not.toContain(hook.secret);
    expect(first.success).toBe(true);
    expect(github.issues).toHaveLength(1);
    const [issue] = github.issues;
    expect(issue?.title).toBe('Flaky: Case 07 (Regression)');
    expect(issue?.labels).toEqual([{ name: 'sauce-actions' }]);
    expect(issue?.body).toMatch(/^<!-- sauce-actions:issue \w+ \w+ -->\n/);
    expect(issue?.body).toContain('Case 07');
    expect(issue?.body).toMatch(/\[job\]\(http:\/\/127\.0\.0\.1:\d+\/tests\/\w+\)/);
    expect(first.summary).toContain(
      'Issues (issues: flaky): the GitHub host files an issue, or comments on the case&#39;s own, for &quot;Case 07&quot;',
    );
    expect(first.stdout).toMatch(
      /issues: filed an issue for "Case 07": https:\/\/github\.com\/.+\/issues\/1/,
    );
  });

  it('nights 2 and 3 comment on it, even once its title was edited and it was closed; it stays closed', async () => {
    github.issues[0]!.title = 'Case 07 is flaky on Safari (edited)';
    await night(2);
    github.issues[0]!.state = 'closed';
    await night(3);
    expect(github.issues).toHaveLength(1);
    expect(github.issues[0]?.state).toBe('closed');
    const comments = github.commentsOf(1);
    expect(comments).toHaveLength(2);
    expect(comments[0]?.body).toMatch(/^Flaky again in \[run \\#2\]\(.+\) on `main` at `aaaaaaaaaaaa`\./);
    expect(comments[1]?.body).toContain('[run \\#3]');
    // Listing by label (every state), then one write a night.
    expect(writes().map((request) => request.path)).toEqual([
      `/repos/${REPOSITORY}/issues/1/comments`,
      `/repos/${REPOSITORY}/issues/1/comments`,
    ]);
    expect(
      github.requests
        .filter((request) => request.method === 'GET')
        .every((request) => request.query.state === 'all' && request.query.labels === 'sauce-actions'),
    ).toBe(true);
  });
});

describe('where nothing is filed', () => {
  beforeEach(() => {
    github.requests.length = 0;
  });

  it("a fork's pull request files nothing, and says so once", async () => {
    const run = await night(20, {}, { number: 31, from: 'someone/sauce-app' });
    expect(writes()).toEqual([]);
    expect(github.requests).toEqual([]);
    const said = warningsOf(run).filter((warning) => /^issues/i.test(warning));
    const why =
      "Issues (issues: flaky): none filed, as the run is for a pull request from a fork, whose cases are its author's to fix.";
    expect(said).toEqual([why]);
    expect(run.summary).toContain(why.replace(/'/g, '&#39;'));
  });

  it('a token without issues: write is said once; the result is unchanged', async () => {
    github.fault({
      method: 'POST',
      path: /\/issues(\/\d+\/comments)?$/,
      status: 403,
      message: 'Resource not accessible by integration',
      times: 5,
    });
    const run = await night(21);
    expect(run.success).toBe(true);
    expect(writes()).toHaveLength(1);
    const said = warningsOf(run).filter((warning) => warning.startsWith('issues:'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('permissions: issues: write');
  });
});
