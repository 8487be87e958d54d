/**
 * A step's comment on a pull request, kept as one comment per step identity and updated in place
 * by each run: found by a hidden marker among the pull request's comments (page by page), then
 * updated, or else created, through GitHub's REST interface with `@actions/github`, which loads
 * only when a comment is written. Every request has a timeout under the caller's signal; only a
 * rate limit is waited out (bounded), and a create is never sent again after a failure, since
 * GitHub may have made the comment.
 */
import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '../step/logger.ts';
import { redactSecrets } from '../step/secrets.ts';
import { commentLimit, fitText, MAX_COMMENT_LENGTH } from './budget.ts';
import { markdownCode, markdownLink, markdownText } from './markdown.ts';
import type { PullRequestComment } from './result.ts';

/** Where the comment goes; the host reads these from the runner's environment and event. */
interface CommentTarget {
  token: string;
  /** `owner/name`. */
  repository: string;
  pullRequest: number;
  /** GitHub's REST address (`GITHUB_API_URL`). */
  apiUrl: string;
}

/** The run that writes the comment, for the marker and the line under the comment. */
export interface CommentRun {
  /** The workflow's name (`GITHUB_WORKFLOW`). */
  workflow?: string;
  /** The job's id in the workflow (`GITHUB_JOB`). */
  job?: string;
  /** The run's page, linked under the comment. */
  runUrl?: string;
  runNumber?: string;
  runAttempt?: string;
}

export interface CommentOptions {
  /** The step's cancellation, with the host's bound on the whole comment. */
  signal: AbortSignal;
  /** Each request's own limit; default 30 s. */
  requestTimeoutMs?: number;
  /** Longest rate-limit wait accepted; a longer `Retry-After` fails at once. Default 30 s. */
  maxRateLimitWaitMs?: number;
  /** Pages of 100 comments searched for the marker at most; default 30. */
  maxPages?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  logger?: Pick<Logger, 'debug'>;
}

interface WrittenComment {
  outcome: 'created' | 'updated' | 'unchanged';
  id: number;
  url: string;
}

/** A request of the comment that failed: its HTTP status, when GitHub answered. */
export class CommentRequestError extends Error {
  readonly status: number | undefined;

  constructor(message: string, status: number | undefined, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CommentRequestError';
    this.status = status;
  }
}

const REQUEST_TIMEOUT_MS = 30_000;
const MAX_RATE_LIMIT_WAIT_MS = 30_000;
const RATE_LIMIT_RETRIES = 2;
const PER_PAGE = 100;
const MAX_PAGES = 30;

/**
 * The hidden line that finds the comment again: the action, and a hash of the workflow, the job
 * and the step's identity (a hash, so that no value can end the HTML comment or vary in escaping).
 */
export function commentMarker(
  comment: Pick<PullRequestComment, 'action' | 'identity'>,
  run: CommentRun,
): string {
  const parts = [
    ['workflow', run.workflow ?? ''],
    ['job', run.job ?? ''],
    ...Object.entries(comment.identity).sort(([a], [b]) => a.localeCompare(b)),
  ];
  const hash = createHash('sha256')
    .update(JSON.stringify([comment.action, parts]))
    .digest('hex');
  return `<!-- sauce-actions:pr-comment ${comment.action.replace(/[^a-z0-9-]/gi, '')} ${hash.slice(0, 16)} -->`;
}

/** The comment as written: the marker, the action's body, and a line naming the run that wrote it. */
export function commentText(comment: PullRequestComment, run: CommentRun): string {
  const where = [
    run.runUrl !== undefined
      ? markdownLink(`workflow run ${run.runNumber ?? ''}`.trim(), run.runUrl)
      : 'a workflow run',
    ...(run.runAttempt !== undefined && run.runAttempt !== '1' ? [`attempt ${run.runAttempt}`] : []),
    ...(run.workflow ? [`workflow ${markdownText(run.workflow)}`] : []),
    ...(run.job ? [`job ${markdownCode(run.job)}`] : []),
  ];
  const footer = redactSecrets(
    `<sub>Written by ${markdownCode(comment.action)} in ${where.join(', ')}; updated in place on every run.</sub>`,
  );
  // The marker is left as it is: redacting a short secret out of its hash would lose the comment.
  const marker = commentMarker(comment, run);
  const frame = (body: string): string => `${marker}\n${body}\n\n${footer}\n`;
  // The body is cut at its line ends, the marker and the footer always kept.
  const room = MAX_COMMENT_LENGTH - frame('').length;
  const body = fitText(`${redactSecrets(comment.body.trim())}\n`, commentLimit(room)).text;
  return frame(body.trimEnd());
}

/** The pull request of an event's payload: a `pull_request` event, or a comment on a pull request. */
export function pullRequestOf(payload: unknown): number | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const event = payload as {
    pull_request?: { number?: unknown };
    issue?: { number?: unknown; pull_request?: unknown };
  };
  const number = event.pull_request?.number ?? (event.issue?.pull_request ? event.issue.number : undefined);
  return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

interface IssueComment {
  id: number;
  body?: string | null;
  html_url: string;
}

/**
 * The toolkit's client of GitHub's REST interface at `apiUrl`, its own log at debug level. Retries
 * are the `sender`'s: the toolkit's client has none, and a create must never be repeated.
 */
export async function githubClient(
  target: { token: string; apiUrl: string },
  logger: Pick<Logger, 'debug'> | undefined,
) {
  const { getOctokit } = await import('@actions/github');
  const quiet = (message: string): void => logger?.debug(message);
  return getOctokit(target.token, {
    baseUrl: target.apiUrl.replace(/\/+$/, ''),
    userAgent: 'sauce-actions',
    log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
  });
}

/** Creates the comment, or updates the one holding the same marker; never a second one. */
export async function writePullRequestComment(
  target: CommentTarget,
  comment: { marker: string; text: string },
  options: CommentOptions,
): Promise<WrittenComment> {
  const { marker, text } = comment;
  const [owner = '', repo = ''] = target.repository.split('/');
  const octokit = await githubClient(target, options.logger);
  const send = sender(options);

  let found: IssueComment | undefined;
  let next: string | undefined =
    `GET /repos/${enc(owner)}/${enc(repo)}/issues/${target.pullRequest}/comments?per_page=${PER_PAGE}`;
  for (let page = 1; next !== undefined && page <= (options.maxPages ?? MAX_PAGES); page += 1) {
    const route: string = next;
    const response = await send('list the comments of the pull request', 'GET', (signal) =>
      octokit.request(route, { request: { signal } }),
    );
    const comments: IssueComment[] = Array.isArray(response.data) ? (response.data as IssueComment[]) : [];
    // The marker opens the comment: a reply quoting it does not start with it.
    found = comments.find((comment) => comment.body?.startsWith(marker) === true);
    if (found) break;
    const link = /<([^>]+)>;\s*rel="next"/.exec(String(response.headers.link ?? ''))?.[1];
    // The token goes with every request: a next page elsewhere than GitHub's address is not followed.
    next = link !== undefined && sameOrigin(link, target.apiUrl) ? `GET ${link}` : undefined;
  }
  // Past the page limit (thousands of comments) a new comment is made: a bounded wait matters more.

  if (found) {
    if (found.body === text) return { outcome: 'unchanged', id: found.id, url: found.html_url };
    const id = found.id;
    const response = await send('update the comment', 'PATCH', (signal) =>
      octokit.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', {
        owner,
        repo,
        comment_id: id,
        body: text,
        request: { signal },
      }),
    );
    return { outcome: 'updated', id, url: response.data.html_url };
  }
  const response = await send('create the comment', 'POST', (signal) =>
    octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      owner,
      repo,
      issue_number: target.pullRequest,
      body: text,
      request: { signal },
    }),
  );
  return { outcome: 'created', id: Number(response.data.id), url: response.data.html_url };
}

const enc = encodeURIComponent;

function sameOrigin(url: string, base: string): boolean {
  try {
    return new URL(url).origin === new URL(base).origin;
  } catch {
    return false;
  }
}

export type Send = <T>(
  what: string,
  method: 'GET' | 'PATCH' | 'POST',
  call: (signal: AbortSignal) => Promise<T>,
) => Promise<T>;

/**
 * Sends one request under its own timeout and the caller's signal. A rate limit (429, or a 403
 * with `Retry-After`) is waited out when the wait is short, up to twice; a GET or a PATCH is sent
 * once more after a 5xx or a cut connection; a POST never, as it may have been done.
 */
export function sender(options: CommentOptions): Send {
  const timeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const maxWaitMs = options.maxRateLimitWaitMs ?? MAX_RATE_LIMIT_WAIT_MS;
  const sleep = options.sleep ?? ((ms: number, signal: AbortSignal) => delay(ms, undefined, { signal }));
  return async (what, method, call) => {
    let rateLimited = 0;
    let failed = 0;
    for (;;) {
      const timeout = AbortSignal.timeout(timeoutMs);
      try {
        return await call(AbortSignal.any([options.signal, timeout]));
      } catch (error) {
        if (options.signal.aborted) throw stopped(what, options.signal, error);
        if (timeout.aborted) {
          const maybe = method === 'POST' ? '; it may have been created all the same' : '';
          throw new CommentRequestError(
            `GitHub did not answer within ${timeoutMs / 1000}s (${what})${maybe}`,
            undefined,
            { cause: error },
          );
        }
        const answer = answerOf(error);
        const waitMs = answer ? rateLimitWaitMs(answer) : undefined;
        if (waitMs !== undefined && waitMs <= maxWaitMs && rateLimited < RATE_LIMIT_RETRIES) {
          rateLimited += 1;
          options.logger?.debug(
            `GitHub rate limit (${answer?.status}): waiting ${Math.ceil(waitMs / 1000)}s to ${what}.`,
          );
          await sleep(waitMs, options.signal).catch((aborted: unknown) => {
            throw stopped(what, options.signal, aborted);
          });
          continue;
        }
        const transient = answer === undefined || answer.status >= 500;
        if (transient && method !== 'POST' && failed === 0) {
          failed += 1;
          await sleep(1000, options.signal).catch((aborted: unknown) => {
            throw stopped(what, options.signal, aborted);
          });
          continue;
        }
        throw new CommentRequestError(failureText(what, answer, error, waitMs), answer?.status, {
          cause: error,
        });
      }
    }
  };
}

/** The caller's signal ended the comment: the step was cancelled, or the comment's own time ran out. */
function stopped(what: string, signal: AbortSignal, cause: unknown): CommentRequestError {
  const reason = signal.reason as { name?: unknown } | undefined;
  const why =
    reason?.name === 'TimeoutError' ? 'The time allowed for the comment ran out' : 'The step was cancelled';
  return new CommentRequestError(`${why} before GitHub answered (${what})`, undefined, { cause });
}

interface Answer {
  status: number;
  headers: Record<string, string | number | undefined>;
  message: string;
}

/** The answer of a request that failed, or undefined when GitHub did not answer (octokit's 500 without a response). */
function answerOf(error: unknown): Answer | undefined {
  const failed = error as {
    status?: unknown;
    response?: { status?: unknown; headers?: unknown; data?: unknown };
  };
  const status = failed.response?.status ?? failed.status;
  if (typeof status !== 'number' || failed.response === undefined) return undefined;
  const data = failed.response.data as { message?: unknown } | undefined;
  return {
    status,
    headers: (failed.response.headers ?? {}) as Answer['headers'],
    message: typeof data?.message === 'string' ? data.message : '',
  };
}

/** How long a rate-limited answer asks to wait, or undefined when the answer is not a rate limit. */
function rateLimitWaitMs(answer: Answer): number | undefined {
  const retryAfter = Number(answer.headers['retry-after']);
  const exhausted = String(answer.headers['x-ratelimit-remaining']) === '0';
  if (
    answer.status !== 429 &&
    !(answer.status === 403 && (answer.headers['retry-after'] !== undefined || exhausted))
  ) {
    return undefined;
  }
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return retryAfter * 1000;
  const reset = Number(answer.headers['x-ratelimit-reset']);
  if (exhausted && Number.isFinite(reset)) return Math.max(0, reset * 1000 - Date.now());
  return 60_000;
}

function failureText(
  what: string,
  answer: Answer | undefined,
  error: unknown,
  waitMs: number | undefined,
): string {
  if (answer === undefined) {
    const cause = (error as { cause?: { message?: unknown } }).cause?.message ?? (error as Error).message;
    return `Could not reach GitHub to ${what}: ${String(cause)}`;
  }
  const limited =
    waitMs !== undefined ? ` (rate limited; GitHub asked to wait ${Math.ceil(waitMs / 1000)}s)` : '';
  return `GitHub answered ${answer.status}${answer.message ? ` "${answer.message}"` : ''} when asked to ${what}${limited}`;
}

/** Why the comment was not written, for the step's warning: what to change, where that is known. */
export function commentFailureText(error: unknown): string {
  const message = redactSecrets(error instanceof Error ? error.message : String(error));
  const status = error instanceof CommentRequestError ? error.status : undefined;
  const unchanged = " The step's result is unchanged.";
  if (status === 403 || status === 404) {
    return `Could not write the pull-request comment: ${message}. The token may not write to this pull request: a pull request from a fork gets a read-only token; otherwise give the job \`permissions: pull-requests: write\` (or pass a token that has it in \`github-token\`).${unchanged}`;
  }
  if (status === 401) {
    return `Could not write the pull-request comment: ${message}. Check \`github-token\` (its default is the workflow's token).${unchanged}`;
  }
  return `Could not write the pull-request comment: ${message}.${unchanged}`;
}
