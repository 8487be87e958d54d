/**
 * The pull-request comment against a stand-in for GitHub's REST interface: found by its marker on
 * any page, updated rather than duplicated, every request bounded, a create never sent twice.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { startGitHubApi, type GitHubApiStandIn } from '@sauce-actions/action-harness';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  commentFailureText,
  commentMarker,
  commentText,
  CommentRequestError,
  pullRequestOf,
  writePullRequestComment,
  type CommentOptions,
} from '../../src/reporting/pull-request-comment.ts';
import { MAX_COMMENT_LENGTH } from '../../src/reporting/budget.ts';
import type { PullRequestComment } from '../../src/reporting/result.ts';

const TOKEN = 'ghs_unitTestToken0123456789';
const REPOSITORY = 'octo/app';
let github: GitHubApiStandIn;

beforeEach(async () => {
  github = await startGitHubApi({ token: TOKEN, repository: REPOSITORY });
});
afterEach(() => github.close());

const comment: PullRequestComment = {
  action: 'run-suite-and-wait',
  identity: { suite: 'Smoke', shard: '1/2' },
  body: '### Smoke: 3 of 3 jobs passed',
};
const run = {
  workflow: 'CI',
  job: 'e2e',
  runUrl: 'https://github.com/octo/app/actions/runs/5',
  runNumber: '5',
};

function write(
  text: string,
  options: Partial<CommentOptions> = {},
  target: { token?: string; pullRequest?: number } = {},
) {
  return writePullRequestComment(
    {
      token: target.token ?? TOKEN,
      repository: REPOSITORY,
      pullRequest: target.pullRequest ?? 3,
      apiUrl: github.url,
    },
    { marker: commentMarker(comment, run), text },
    { signal: new AbortController().signal, sleep: async () => {}, ...options },
  );
}

const methods = () => github.requests.map((request) => `${request.method} ${request.status}`);

describe('commentMarker', () => {
  it('is the same for the same step identity, workflow and job, whatever the order of the identity', () => {
    const marker = commentMarker(comment, run);
    expect(marker).toMatch(/^<!-- sauce-actions:pr-comment run-suite-and-wait [0-9a-f]{16} -->$/);
    expect(
      commentMarker({ ...comment, identity: { shard: '1/2', suite: 'Smoke' } }, { ...run, runNumber: '6' }),
    ).toBe(marker);
  });

  it.each([
    ['another shard', { ...comment, identity: { suite: 'Smoke', shard: '2/2' } }, run],
    ['another suite', { ...comment, identity: { suite: 'Nightly', shard: '1/2' } }, run],
    ['another job', comment, { ...run, job: 'e2e-ios' }],
    ['another workflow', comment, { ...run, workflow: 'Nightly' }],
    ['another action', { ...comment, action: 'upload-build' }, run],
  ])('differs for %s', (_what, other, otherRun) => {
    expect(commentMarker(other, otherRun)).not.toBe(commentMarker(comment, run));
  });

  it('holds nothing that could end the HTML comment', () => {
    const marker = commentMarker({ ...comment, identity: { suite: '--> <b>x</b>' } }, run);
    expect(marker.slice(4, -3)).not.toContain('--');
    expect(marker.slice(4, -3)).not.toContain('>');
  });
});

describe('commentText', () => {
  it('opens with the marker and ends with a line naming the run', () => {
    const text = commentText(comment, { ...run, runAttempt: '2' });
    expect(text.startsWith(`${commentMarker(comment, run)}\n### Smoke`)).toBe(true);
    expect(text).toContain(
      '<sub>Written by `run-suite-and-wait` in [workflow run 5](https://github.com/octo/app/actions/runs/5), attempt 2, workflow CI, job `e2e`; updated in place on every run.</sub>',
    );
  });

  const row = (n: number): string =>
    `| case ${String(n).padStart(5, '0')} | failed | [job](https://app.example/tests/${n}) |`;
  it.each([
    ['one line twice too long', 'x'.repeat(MAX_COMMENT_LENGTH * 2), 0],
    [
      'a table of 5,000 rows',
      [
        '| case | status | link |',
        '| --- | --- | --- |',
        ...Array.from({ length: 5_000 }, (_, n) => row(n)),
      ].join('\n'),
      1_000,
    ],
  ])(
    'is cut at a line end to the length GitHub accepts, keeping the marker and the last line: %s',
    (_, body, rowsKept) => {
      const text = commentText({ ...comment, body }, run);
      expect(text.length).toBeLessThanOrEqual(MAX_COMMENT_LENGTH);
      expect(text.startsWith(commentMarker(comment, run))).toBe(true);
      expect(text).toContain(
        "The rest of this comment is left out to keep within GitHub's limit of 65,536 characters: the step summary has more.",
      );
      expect(text.trimEnd().endsWith('</sub>')).toBe(true);
      // Every line kept is whole: no row is cut in the middle.
      const rows = text.split('\n').filter((line) => /^\| case \d/.test(line));
      expect(rows.length).toBeGreaterThanOrEqual(rowsKept);
      expect(
        rows.every((line) =>
          /^\| case \d{5} \| failed \| \[job\]\(https:\/\/app\.example\/tests\/\d+\) \|$/.test(line),
        ),
      ).toBe(true);
    },
  );
});

describe('pullRequestOf', () => {
  it.each([
    [{ pull_request: { number: 7 } }, 7],
    [{ issue: { number: 8, pull_request: { url: 'x' } } }, 8],
    [{ issue: { number: 9 } }, undefined],
    [{ ref: 'refs/heads/main' }, undefined],
    [{ pull_request: { number: '7' } }, undefined],
    [undefined, undefined],
  ])('%j: %s', (payload, number) => {
    expect(pullRequestOf(payload)).toBe(number);
  });
});

describe('writePullRequestComment', () => {
  it('creates the comment once, then updates it in place', async () => {
    const first = await write(commentText(comment, run));
    const second = await write(commentText(comment, { ...run, runNumber: '6' }));
    const third = await write(commentText(comment, { ...run, runNumber: '6' }));
    expect([first.outcome, second.outcome, third.outcome]).toEqual(['created', 'updated', 'unchanged']);
    expect(second.id).toBe(first.id);
    expect(github.commentsOf(3)).toHaveLength(1);
    expect(github.commentsOf(3)[0]!.body).toContain('workflow run 6');
    expect(methods()).toEqual(['GET 200', 'POST 201', 'GET 200', 'PATCH 200', 'GET 200']);
    expect(github.requests.every((request) => request.authorized)).toBe(true);
  });

  it("leaves other steps' comments and a reply quoting the marker alone", async () => {
    const other = commentText({ ...comment, identity: { suite: 'Smoke', shard: '2/2' } }, run);
    await write(other);
    github.addComment(3, `> ${commentText(comment, run)}\nWhy did this fail?`);
    await write(commentText(comment, run));
    expect(github.commentsOf(3).map((c) => c.body.slice(0, 12))).toEqual([
      '<!-- sauce-a',
      '> <!-- sauce',
      '<!-- sauce-a',
    ]);
    expect(github.commentsOf(3)[0]!.body).toBe(other);
  });

  it('follows the Link header to the page with its comment', async () => {
    for (let index = 0; index < 250; index += 1) github.addComment(3, `note ${index}`);
    const created = await write(commentText(comment, run));
    github.requests.length = 0;
    const updated = await write(commentText(comment, { ...run, runNumber: '6' }));
    expect(updated).toMatchObject({ outcome: 'updated', id: created.id });
    expect(github.requests.map((request) => `${request.method} ${request.query.page ?? '1'}`)).toEqual([
      'GET 1',
      'GET 2',
      'GET 3',
      'PATCH 1',
    ]);
    expect(github.requests[0]!.query.per_page).toBe('100');
  });

  it('stops at the page limit and creates rather than reading on forever', async () => {
    for (let index = 0; index < 300; index += 1) github.addComment(3, `note ${index}`);
    await write(commentText(comment, run), { maxPages: 2 });
    expect(methods()).toEqual(['GET 200', 'GET 200', 'POST 201']);
  });

  it('waits out a rate limit as Retry-After says, and sends the create once it passes', async () => {
    github.fault({ method: 'POST', status: 429, message: 'slow down', headers: { 'retry-after': '3' } });
    const waits: number[] = [];
    const written = await write(commentText(comment, run), { sleep: async (ms) => void waits.push(ms) });
    expect(written.outcome).toBe('created');
    expect(waits).toEqual([3000]);
    expect(methods()).toEqual(['GET 200', 'POST 429', 'POST 201']);
    expect(github.commentsOf(3)).toHaveLength(1);
  });

  it('fails at once on a rate limit that asks for a longer wait than allowed', async () => {
    github.fault({ method: 'GET', status: 429, headers: { 'retry-after': '600' } });
    await expect(write(commentText(comment, run))).rejects.toThrow(
      'GitHub answered 429 "refused" when asked to list the comments of the pull request (rate limited; GitHub asked to wait 600s)',
    );
    expect(methods()).toEqual(['GET 429']);
  });

  it('never sends a create again after a server error: it may have been done', async () => {
    github.fault({ method: 'POST', status: 502, message: 'Bad Gateway' });
    const error = await write(commentText(comment, run)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CommentRequestError);
    expect((error as CommentRequestError).status).toBe(502);
    expect(methods()).toEqual(['GET 200', 'POST 502']);
  });

  it('sends a list again once after a server error', async () => {
    github.fault({ method: 'GET', status: 503 });
    const written = await write(commentText(comment, run));
    expect(written.outcome).toBe('created');
    expect(methods()).toEqual(['GET 503', 'GET 200', 'POST 201']);
  });

  it('gives up on a request GitHub does not answer within its timeout, and says a create may have been done', async () => {
    // The answer comes ten times later than the timeout: the error says the timeout ended the wait.
    github.fault({ method: 'POST', status: 201, delayMs: 2000 });
    await expect(write(commentText(comment, run), { requestTimeoutMs: 200 })).rejects.toThrow(
      'GitHub did not answer within 0.2s (create the comment); it may have been created all the same',
    );
    expect(methods().filter((method) => method.startsWith('POST'))).toHaveLength(1);
  });

  it('stops when the step is cancelled', async () => {
    github.fault({ method: 'GET', status: 200, delayMs: 2000 });
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 100);
    await expect(write(commentText(comment, run), { signal: cancel.signal })).rejects.toThrow(
      'The step was cancelled before GitHub answered (list the comments of the pull request)',
    );
  });

  it('says when the time allowed for the whole comment ran out, also during a rate-limit wait', async () => {
    github.fault({ method: 'GET', status: 429, headers: { 'retry-after': '5' } });
    await expect(
      write(commentText(comment, run), {
        signal: AbortSignal.timeout(150),
        sleep: (ms, signal) => delay(ms, undefined, { signal }),
      }),
    ).rejects.toThrow(
      'The time allowed for the comment ran out before GitHub answered (list the comments of the pull request)',
    );
  });

  it('does not follow a next page on another host: the token would go with it', async () => {
    for (let index = 0; index < 150; index += 1) github.addComment(3, `note ${index}`);
    const elsewhere = await startGitHubApi({ token: TOKEN, repository: REPOSITORY });
    try {
      github.fault({
        method: 'GET',
        status: 200,
        body: [],
        headers: { link: `<${elsewhere.url}/repos/${REPOSITORY}/issues/3/comments?page=2>; rel="next"` },
      });
      const written = await write(commentText(comment, run));
      expect(written.outcome).toBe('created');
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it('a refused token is a 403 the warning explains; the token is in no message', async () => {
    github.fault({ method: 'POST', status: 403, message: 'Resource not accessible by integration' });
    const error = await write(commentText(comment, run)).catch((caught: unknown) => caught);
    expect((error as CommentRequestError).status).toBe(403);
    const warning = commentFailureText(error);
    expect(warning).toContain(
      'GitHub answered 403 "Resource not accessible by integration" when asked to create the comment',
    );
    expect(warning).toContain('a pull request from a fork gets a read-only token');
    expect(warning).not.toContain(TOKEN);
    expect(methods()).toEqual(['GET 200', 'POST 403']);
  });

  it('a wrong token is a 401 the warning points at', async () => {
    const error = await write(commentText(comment, run), {}, { token: 'ghs_wrong' }).catch(
      (caught: unknown) => caught,
    );
    expect((error as CommentRequestError).status).toBe(401);
    expect(commentFailureText(error)).toContain('Check `github-token`');
    expect(github.requests.map((request) => request.authorized)).toEqual([false]);
  });
});
