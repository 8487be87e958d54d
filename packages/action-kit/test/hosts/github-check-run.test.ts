/** The GitHub host's check run (`check-name`) and its `workflow_run` target, against a stand-in for GitHub. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startGitHubApi, type GitHubApiStandIn } from '@sauce-actions/action-harness';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runOnGitHub } from '../../src/hosts/github-host.ts';
import { clearSecrets, type ActionDefinition, type ActionInputs } from '../../src/index.ts';
import type { CheckRunReport } from '../../src/reporting/check-run.ts';
import { checkSummary, MAX_CHECK_SUMMARY } from '../../src/reporting/check-run.ts';

const TOKEN = 'ghs_checkRunToken4242';
const HEAD = 'c0ffee0000000000000000000000000000000001';
const TRIGGERING_HEAD = 'c0ffee0000000000000000000000000000000002';

let dir: string;
let stdout: string[];
let github: GitHubApiStandIn;

beforeEach(async () => {
  clearSecrets();
  dir = mkdtempSync(path.join(os.tmpdir(), 'github-check-run-'));
  for (const name of ['output', 'summary', 'state']) writeFileSync(path.join(dir, name), '');
  vi.stubEnv('GITHUB_OUTPUT', path.join(dir, 'output'));
  vi.stubEnv('GITHUB_STEP_SUMMARY', path.join(dir, 'summary'));
  vi.stubEnv('GITHUB_STATE', path.join(dir, 'state'));
  github = await startGitHubApi({ token: TOKEN, repository: 'octo/app' });
  vi.stubEnv('GITHUB_API_URL', github.url);
  vi.stubEnv('GITHUB_SERVER_URL', 'https://github.com');
  vi.stubEnv('GITHUB_REPOSITORY', 'octo/app');
  vi.stubEnv('GITHUB_RUN_ID', '77');
  vi.stubEnv('GITHUB_SHA', HEAD);
  vi.stubEnv('GITHUB_WORKFLOW_REF', 'octo/app/.github/workflows/nightly.yml@refs/heads/main');
  vi.stubEnv('GITHUB_EVENT_NAME', 'push');
  vi.stubEnv('GITHUB_WORKFLOW', 'CI');
  vi.stubEnv('GITHUB_JOB', 'report');
  event({});
  stdout = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout.push(String(chunk));
    return true;
  });
});

afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  process.exitCode = undefined;
  await github.close();
  rmSync(dir, { recursive: true, force: true });
});

function event(payload: unknown): void {
  const file = path.join(dir, 'event.json');
  writeFileSync(file, JSON.stringify(payload));
  vi.stubEnv('GITHUB_EVENT_PATH', file);
}

const failedCases = (count: number): CheckRunReport['annotations'] =>
  Array.from({ length: count }, (_, index) => ({
    level: 'failure' as const,
    title: `Case ${index + 1}`,
    message: 'failed',
  }));

function checking(check: Partial<CheckRunReport>, pullRequest?: number): ActionDefinition<ActionInputs> {
  return {
    title: 'Run suite',
    readInputs: () => ({
      connection: {} as ActionInputs['connection'],
      githubToken: TOKEN,
      ...(pullRequest !== undefined ? { pullRequest } : {}),
    }),
    run: async () => ({
      outputs: { total: 3 },
      summary: '<h2>3 jobs</h2>\n',
      annotations: [],
      failure: { kind: 'tests-failed', message: '1 of 3 jobs failed.' },
      ...(pullRequest !== undefined
        ? { comment: { action: 'run-suite-and-wait', identity: { suite: 'Smoke' }, body: 'the comment' } }
        : {}),
      check: {
        name: 'Sauce Labs',
        conclusion: 'failure',
        title: '2 of 3 passed, 1 failed',
        summary: 'the summary',
        annotations: failedCases(1),
        ...check,
      },
    }),
  };
}

describe('check-name on GitHub', () => {
  it('writes one check run on the head commit; 120 annotations in requests of 50; a long summary cut at a line', async () => {
    const summary = Array.from({ length: 3000 }, (_, index) => `| Case ${index} | failed | link |`).join(
      '\n',
    );
    await runOnGitHub(checking({ annotations: failedCases(120), summary }));
    expect(github.checkRuns).toHaveLength(1);
    const [check] = github.checkRuns;
    expect(check).toMatchObject({ name: 'Sauce Labs', head_sha: HEAD, conclusion: 'failure' });
    expect(check!.details_url).toBe('https://github.com/octo/app/actions/runs/77');
    expect(check!.annotations).toHaveLength(120);
    expect(check!.annotations[0]).toMatchObject({ path: '.github/workflows/nightly.yml', title: 'Case 1' });
    const sent = github.requests.filter((request) => /check-runs/.test(request.path));
    expect(sent.map((request) => request.method)).toEqual(['POST', 'PATCH', 'PATCH']);
    expect(check!.output.summary.length).toBeLessThanOrEqual(MAX_CHECK_SUMMARY);
    expect(check!.output.summary).toMatch(
      /\| link \|\n\nThe rest of this check run summary is left out to keep within GitHub's limit of 65,535 characters/,
    );
    // The check run never changes the step's result: the failure, the step's first error, comes before it.
    expect(stdout.join('')).toMatch(
      /::error::1 of 3 jobs failed\.[\s\S]*Created the check run "Sauce Labs" \(failure\)/,
    );
    expect(process.exitCode).toBe(1);
  });

  it.each([
    [403, 'Resource not accessible by integration'],
    [404, 'Not Found'],
  ])('a refusal (%i) is a warning naming `checks: write`', async (status, message) => {
    github.fault({ method: 'POST', path: /check-runs$/, status, message });
    await runOnGitHub(checking({}));
    const log = stdout.join('');
    expect(log).toMatch(/::warning::Could not write the check run: .*permissions: checks: write/);
    expect(log).toContain('::error::1 of 3 jobs failed.');
    expect(process.exitCode).toBe(1);
  });

  it('from a workflow_run event: on the triggering run\u2019s commit, with the comment on the pull request given', async () => {
    vi.stubEnv('GITHUB_EVENT_NAME', 'workflow_run');
    event({
      workflow_run: {
        id: 9001,
        run_number: 12,
        run_attempt: 2,
        head_sha: TRIGGERING_HEAD,
        path: '.github/workflows/e2e.yml',
        html_url: 'https://github.com/octo/app/actions/runs/9001',
        pull_requests: [],
      },
    });
    await runOnGitHub(checking({}, 31));
    expect(github.checkRuns).toHaveLength(1);
    expect(github.checkRuns[0]).toMatchObject({
      head_sha: TRIGGERING_HEAD,
      details_url: 'https://github.com/octo/app/actions/runs/9001',
    });
    expect(github.checkRuns[0]!.annotations[0]!.path).toBe('.github/workflows/e2e.yml');
    expect(github.commentsOf(31)).toHaveLength(1);
  });
});

describe('checkSummary', () => {
  it.each([
    ['short', 'a\nb', 'a\nb'],
    ['exactly at the limit', 'x'.repeat(MAX_CHECK_SUMMARY), 'x'.repeat(MAX_CHECK_SUMMARY)],
  ])('keeps a %s summary whole', (_, summary, kept) => {
    expect(checkSummary(summary)).toBe(kept);
  });

  it('cuts a longer one at a line end, within the limit', () => {
    const summary = `${'line of text\n'.repeat(6000)}`;
    const cut = checkSummary(summary);
    expect(cut.length).toBeLessThanOrEqual(MAX_CHECK_SUMMARY);
    expect(cut.split('\n\nThe rest of this check run summary')[0]!.endsWith('line of text')).toBe(true);
  });
});
