/**
 * A stand-in for the part of GitHub's REST interface a step uses to keep a pull-request comment:
 * list an issue's comments (paginated with `per_page`, `page` and a `Link` header, as GitHub does),
 * create one, update one; to keep issues: list them by label, create one, comment on one; and to write a check run: create one, update it (annotations appended,
 * at most 50 a request, a summary of at most 65,535 characters, as GitHub refuses more with 422).
 * It checks the token of every request, records every request, and can be told to refuse
 * requests, for the tests of `pr-comment` and `check-name` (`GITHUB_API_URL` points at it).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInComment {
  id: number;
  issue: number;
  body: string;
  html_url: string;
  user: { login: string; type: string };
}

export interface StandInCheckAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: string;
  title?: string;
  message: string;
  raw_details?: string;
}

export interface StandInCheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  details_url?: string;
  html_url: string;
  output: { title: string; summary: string };
  /** Every annotation of every request, in the order they came. */
  annotations: StandInCheckAnnotation[];
}

export interface StandInIssue {
  number: number;
  title: string;
  body: string;
  labels: { name: string }[];
  state: 'open' | 'closed';
  html_url: string;
}

export interface StandInRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Whether the `Authorization` header held the expected token. */
  authorized: boolean;
  /** The status answered. */
  status: number;
  body?: unknown;
}

/** A refusal of the next `times` requests of a method whose path matches. */
export interface StandInFault {
  method: string;
  path?: RegExp;
  status: number;
  message?: string;
  /** The answer's body instead of `{ message }`. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Holds the answer back this long (a silent GitHub), then answers. */
  delayMs?: number;
  times?: number;
}

export interface GitHubApiStandIn {
  /** `GITHUB_API_URL` for the step. */
  url: string;
  requests: StandInRequest[];
  /** Every issue's comments, oldest first. */
  comments: StandInComment[];
  commentsOf(issue: number): StandInComment[];
  /** Every check run, oldest first. */
  checkRuns: StandInCheckRun[];
  checkRunsOf(headSha: string): StandInCheckRun[];
  /** Every issue, oldest first. */
  issues: StandInIssue[];
  /** Adds a comment as a person would (the step's own are `github-actions[bot]`'s). */
  addComment(issue: number, body: string): StandInComment;
  fault(fault: StandInFault): void;
  close(): Promise<void>;
}

const DEFAULT_PER_PAGE = 30;

export async function startGitHubApi(options: {
  token: string;
  repository: string;
}): Promise<GitHubApiStandIn> {
  const comments: StandInComment[] = [];
  const checkRuns: StandInCheckRun[] = [];
  const issues: StandInIssue[] = [];
  let nextIssue = 1;
  const requests: StandInRequest[] = [];
  const faults: (StandInFault & { left: number })[] = [];
  let nextId = 1000;
  let url = '';

  const addComment = (issue: number, body: string, login = 'someone'): StandInComment => {
    const id = nextId++;
    const comment: StandInComment = {
      id,
      issue,
      body,
      html_url: `https://github.com/${options.repository}/pull/${issue}#issuecomment-${id}`,
      user: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' },
    };
    comments.push(comment);
    return comment;
  };

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      answer(response, 500, { message: String(error) });
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const address = new URL(request.url ?? '/', url);
    const text = await readBody(request);
    const record: StandInRequest = {
      method: request.method ?? '',
      path: address.pathname,
      query: Object.fromEntries(address.searchParams),
      authorized: request.headers.authorization === `token ${options.token}`,
      status: 0,
      ...(text !== '' ? { body: JSON.parse(text) as unknown } : {}),
    };
    requests.push(record);
    const reply = (status: number, data: unknown, headers: Record<string, string> = {}): void => {
      record.status = status;
      answer(response, status, data, headers);
    };
    if (!record.authorized) return reply(401, { message: 'Bad credentials' });

    const fault = faults.find(
      (rule) => rule.left > 0 && rule.method === record.method && (rule.path?.test(record.path) ?? true),
    );
    if (fault) {
      fault.left -= 1;
      if (fault.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      if (response.destroyed) return;
      return reply(fault.status, fault.body ?? { message: fault.message ?? 'refused' }, fault.headers);
    }

    const repo = `/repos/${options.repository}`;
    const list = new RegExp(`^${repo}/issues/(\\d+)/comments$`).exec(record.path);
    const one = new RegExp(`^${repo}/issues/comments/(\\d+)$`).exec(record.path);
    if (list && record.method === 'GET') {
      const issue = Number(list[1]);
      const perPage = Math.min(100, Number(record.query.per_page ?? DEFAULT_PER_PAGE));
      const page = Number(record.query.page ?? 1);
      const all = comments.filter((comment) => comment.issue === issue);
      const pages = Math.max(1, Math.ceil(all.length / perPage));
      const link =
        page < pages
          ? {
              link: `<${url}${record.path}?per_page=${perPage}&page=${page + 1}>; rel="next", <${url}${record.path}?per_page=${perPage}&page=${pages}>; rel="last"`,
            }
          : {};
      return reply(200, all.slice((page - 1) * perPage, page * perPage), link);
    }
    if (list && record.method === 'POST') {
      const body = (record.body as { body?: unknown } | undefined)?.body;
      if (typeof body !== 'string') return reply(422, { message: 'body is required' });
      return reply(201, addComment(Number(list[1]), body, 'github-actions[bot]'));
    }
    if (record.path === `${repo}/issues`) return issuesRoute(record, reply);
    const checks = new RegExp(`^${repo}/check-runs$`).exec(record.path);
    const check = new RegExp(`^${repo}/check-runs/(\\d+)$`).exec(record.path);
    if ((checks && record.method === 'POST') || (check && record.method === 'PATCH')) {
      const body = (record.body ?? {}) as Partial<StandInCheckRun> & {
        output?: { title?: string; summary?: string; annotations?: StandInCheckAnnotation[] };
      };
      const annotations = body.output?.annotations ?? [];
      if (annotations.length > 50)
        return reply(422, { message: 'Only 50 annotations are allowed per request' });
      if ((body.output?.summary?.length ?? 0) > 65_535) {
        return reply(422, { message: 'output.summary is too long (maximum is 65535 characters)' });
      }
      if (check) {
        const found = checkRuns.find((candidate) => candidate.id === Number(check[1]));
        if (!found) return reply(404, { message: 'Not Found' });
        found.annotations.push(...annotations);
        if (body.output?.title !== undefined) found.output.title = body.output.title;
        if (body.output?.summary !== undefined) found.output.summary = body.output.summary;
        if (body.conclusion !== undefined) found.conclusion = body.conclusion;
        return reply(200, found);
      }
      if (typeof body.name !== 'string' || typeof body.head_sha !== 'string') {
        return reply(422, { message: 'name and head_sha are required' });
      }
      const id = nextId++;
      const created: StandInCheckRun = {
        id,
        name: body.name,
        head_sha: body.head_sha,
        status: body.conclusion !== undefined ? 'completed' : (body.status ?? 'queued'),
        conclusion: body.conclusion ?? null,
        ...(body.details_url !== undefined ? { details_url: body.details_url } : {}),
        html_url: `https://github.com/${options.repository}/runs/${id}`,
        output: { title: body.output?.title ?? '', summary: body.output?.summary ?? '' },
        annotations: [...annotations],
      };
      checkRuns.push(created);
      return reply(201, created);
    }
    if (one && record.method === 'PATCH') {
      const comment = comments.find((candidate) => candidate.id === Number(one[1]));
      const body = (record.body as { body?: unknown } | undefined)?.body;
      if (!comment) return reply(404, { message: 'Not Found' });
      if (typeof body !== 'string') return reply(422, { message: 'body is required' });
      comment.body = body;
      return reply(200, comment);
    }
    return reply(404, { message: 'Not Found' });
  }

  /** Lists issues (by label, open by default or `state=all`, newest first, paginated) or creates one. */
  function issuesRoute(
    record: StandInRequest,
    reply: (status: number, data: unknown, headers?: Record<string, string>) => void,
  ): void {
    if (record.method === 'POST') {
      const body = (record.body ?? {}) as { title?: unknown; body?: unknown; labels?: unknown };
      if (typeof body.title !== 'string' || body.title === '')
        return reply(422, { message: 'title is required' });
      const number = nextIssue++;
      const labels = Array.isArray(body.labels) ? body.labels.map((name) => ({ name: String(name) })) : [];
      const issue: StandInIssue = {
        number,
        title: body.title,
        body: typeof body.body === 'string' ? body.body : '',
        labels,
        state: 'open',
        html_url: `https://github.com/${options.repository}/issues/${number}`,
      };
      issues.push(issue);
      return reply(201, issue);
    }
    if (record.method !== 'GET') return reply(404, { message: 'Not Found' });
    const state = record.query.state ?? 'open';
    const wanted = (record.query.labels ?? '').split(',').filter((name) => name !== '');
    const matching = [...issues]
      .reverse()
      .filter((issue) => state === 'all' || issue.state === state)
      .filter((issue) => wanted.every((name) => issue.labels.some((label) => label.name === name)));
    const perPage = Math.min(100, Number(record.query.per_page ?? DEFAULT_PER_PAGE));
    const page = Number(record.query.page ?? 1);
    return reply(200, matching.slice((page - 1) * perPage, page * perPage));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    comments,
    commentsOf: (issue) => comments.filter((comment) => comment.issue === issue),
    checkRuns,
    issues,
    checkRunsOf: (headSha) => checkRuns.filter((run) => run.head_sha === headSha),
    addComment: (issue, body) => addComment(issue, body),
    fault: (fault) => faults.push({ ...fault, left: fault.times ?? 1 }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return text;
}

function answer(
  response: ServerResponse,
  status: number,
  data: unknown,
  headers: Record<string, string> = {},
): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(data));
}
