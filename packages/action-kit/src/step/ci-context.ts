/**
 * What the CI system says about a run: the commit it builds, the branch or tag, the pull request,
 * the repository and the run's own address. Each host reads it once (the GitHub runner from its
 * `GITHUB_*` variables and event payload, the command line from the variables of GitLab CI,
 * Jenkins or CircleCI) and hands it to the action in its deps; reading it is a pure function of
 * the environment and the event, so that every system's variables are tested by tables.
 */

type CiSystem = 'github' | 'gitlab' | 'jenkins' | 'circleci';

export interface CiPullRequest {
  number: number;
  /** One line. */
  title?: string;
  /** Its web address. */
  url?: string;
  /** Its head is a fork's (or a fork's since deleted): its token cannot write, its cases are its author's. */
  fromFork?: boolean;
}

export interface CiContext {
  /** Absent when no CI system was recognised: a terminal. */
  system?: CiSystem;
  /** The full hash of the commit built; for a pull request, its head commit. */
  commit?: string;
  /** The branch built; for a pull request, its source branch. */
  branch?: string;
  /** The repository's default branch, where the system says (GitHub's event, GitLab's `CI_DEFAULT_BRANCH`). */
  defaultBranch?: string;
  tag?: string;
  pullRequest?: CiPullRequest;
  /** The repository's web address, without credentials. */
  repository?: string;
  /** The web address of the run (workflow run, pipeline, build). */
  runUrl?: string;
  /** What started the run, in the system's words (`push`, `pull_request`, `merge_request_event`). */
  event?: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** `owner/name`, as `GITHUB_REPOSITORY` names a repository. */
export const REPOSITORY_SLUG_FORM = /^[^/\s]+\/[^/\s]+$/;

/** A file's path inside the repository, as GitHub writes a workflow's; undefined for anything else. */
export function repositoryPath(path: string | undefined): string | undefined {
  return path !== undefined && /^[\w.-]+(\/[\w.-]+)*$/.test(path) && !path.includes('..') ? path : undefined;
}

/** A commit as CI systems name it: a full or abbreviated hexadecimal hash. */
export const COMMIT_FORM = /^[0-9a-f]{7,64}$/i;

/** Which system the environment belongs to, by the variable each one always sets. */
export function ciSystemOf(env: Env): CiSystem | undefined {
  if (env.GITHUB_ACTIONS === 'true') return 'github';
  if (env.GITLAB_CI === 'true') return 'gitlab';
  if (env.CIRCLECI === 'true') return 'circleci';
  if (value(env.JENKINS_URL) !== undefined) return 'jenkins';
  return undefined;
}

/** The context of whichever system the environment belongs to; `event` is GitHub's payload. */
export function ciContextOf(env: Env, event?: unknown): CiContext {
  switch (ciSystemOf(env)) {
    case 'github':
      return githubContext(env, event);
    case 'gitlab':
      return gitlabContext(env);
    case 'circleci':
      return circleContext(env);
    case 'jenkins':
      return jenkinsContext(env);
    default:
      return {};
  }
}

/** The pull-request events, whose payload has `pull_request` and whose `GITHUB_SHA` is a merge commit. */
const GITHUB_PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target']);

/** GitHub Actions: `GITHUB_*` variables, and the event's payload for a pull request. */
export function githubContext(env: Env, event: unknown): CiContext {
  const server = address(env.GITHUB_SERVER_URL);
  const slug = value(env.GITHUB_REPOSITORY);
  const repository = server && slug && REPOSITORY_SLUG_FORM.test(slug) ? `${server}/${slug}` : undefined;
  const runId = value(env.GITHUB_RUN_ID);
  const eventName = value(env.GITHUB_EVENT_NAME);
  const payload = objectOf(objectOf(event)?.pull_request);
  const pullRequest =
    eventName !== undefined && GITHUB_PULL_REQUEST_EVENTS.has(eventName) && payload
      ? withFork(
          pullRequestOf(payload.number, payload.title, payload.html_url),
          forkOf(objectOf(payload.head)?.repo, objectOf(payload.base)?.repo),
        )
      : undefined;
  const refType = value(env.GITHUB_REF_TYPE);
  const refName = value(env.GITHUB_REF_NAME);
  const head = objectOf(payload?.head);
  return definedOnly({
    system: 'github',
    commit: commitOf(pullRequest ? head?.sha : undefined) ?? commitOf(env.GITHUB_SHA),
    branch: pullRequest
      ? (value(env.GITHUB_HEAD_REF) ?? textOf(head?.ref))
      : refType === 'branch'
        ? refName
        : undefined,
    defaultBranch: textOf(objectOf(objectOf(event)?.repository)?.default_branch),
    tag: refType === 'tag' ? refName : undefined,
    pullRequest,
    repository,
    runUrl: repository && runId && /^\d+$/.test(runId) ? `${repository}/actions/runs/${runId}` : undefined,
    event: eventName,
  });
}

/**
 * The workflow run a `workflow_run` event reports on. A workflow on that event runs with the base
 * repository's token even for a pull request from a fork, so a report of the triggering run's
 * results is published from it: gathered by that run's number and attempt, on its head commit and
 * pull request (none in the event for a fork: the `pull-request` input names it).
 */
export interface TriggeringRun {
  id: string;
  /** Its identity's key (`runIdentityOf`), which names the builds of its test runs. */
  key?: string;
  runNumber: string;
  runAttempt: string;
  /** Its head commit: the check run goes there. */
  headSha?: string;
  /** Its pull request, when the event names one (never for a fork's). */
  pullRequest?: number;
  /** Its workflow's file (`.github/workflows/ci.yml`), which check-run annotations point at. */
  path?: string;
  /** Its page. */
  url?: string;
  /** When it was created (ms since the epoch): a report's search reads no further back. */
  createdAtMs?: number;
  /** It ran for a pull request from a fork. */
  fromFork?: boolean;
}

/** The triggering run of a `workflow_run` event's payload; undefined for any other event. */
export function triggeringRunOf(env: Env, event: unknown): TriggeringRun | undefined {
  if (value(env.GITHUB_EVENT_NAME) !== 'workflow_run') return undefined;
  const run = objectOf(objectOf(event)?.workflow_run);
  const id = wholeNumber(run?.id);
  const runNumber = wholeNumber(run?.run_number);
  if (run === undefined || id === undefined || runNumber === undefined) return undefined;
  const [first] = Array.isArray(run.pull_requests) ? (run.pull_requests as unknown[]) : [];
  const pullRequest = Number(wholeNumber(objectOf(first)?.number) ?? NaN);
  return definedOnly({
    id,
    runNumber,
    runAttempt: wholeNumber(run.run_attempt) ?? '1',
    headSha: commitOf(run.head_sha),
    pullRequest: Number.isSafeInteger(pullRequest) && pullRequest > 0 ? pullRequest : undefined,
    // Anything but a path inside the repository is no file to annotate.
    path: repositoryPath(textOf(run.path)),
    url: address(textOf(run.html_url)),
    createdAtMs: instantOf(run.created_at),
    fromFork:
      String(run.event ?? '').startsWith('pull_request') && forkOf(run.head_repository, run.repository)
        ? true
        : undefined,
  });
}

/**
 * An ISO 8601 time with a zone (`2026-12-01T03:00:00Z`, `…+01:00`), as CI systems give a run's
 * creation, in ms since the epoch; undefined for anything else, which then bounds nothing.
 */
export function instantOf(raw: unknown): number | undefined {
  const text = textOf(raw);
  if (
    text === undefined ||
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/.test(text)
  ) {
    return undefined;
  }
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}

/** A positive whole number, as a number or its digits; its digits. */
function wholeNumber(raw: unknown): string | undefined {
  const text = typeof raw === 'number' ? String(raw) : textOf(raw);
  return text !== undefined && /^[1-9]\d{0,18}$/.test(text) ? text : undefined;
}

/** GitLab CI: `CI_*` variables; a merge request pipeline has `CI_MERGE_REQUEST_*`. */
export function gitlabContext(env: Env): CiContext {
  const repository = address(env.CI_PROJECT_URL);
  const iid = value(env.CI_MERGE_REQUEST_IID);
  const mergeRequestProject = address(env.CI_MERGE_REQUEST_PROJECT_URL) ?? repository;
  const pullRequest =
    iid !== undefined
      ? pullRequestOf(
          iid,
          env.CI_MERGE_REQUEST_TITLE,
          mergeRequestProject ? `${mergeRequestProject}/-/merge_requests/${iid}` : undefined,
        )
      : undefined;
  const tag = value(env.CI_COMMIT_TAG);
  return definedOnly({
    system: 'gitlab',
    // A merged-results pipeline builds a merge commit; the source branch's head is the commit.
    commit: commitOf(env.CI_MERGE_REQUEST_SOURCE_BRANCH_SHA) ?? commitOf(env.CI_COMMIT_SHA),
    branch:
      value(env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME) ??
      value(env.CI_COMMIT_BRANCH) ??
      (tag === undefined ? value(env.CI_COMMIT_REF_NAME) : undefined),
    defaultBranch: value(env.CI_DEFAULT_BRANCH),
    tag,
    pullRequest,
    repository,
    runUrl: address(env.CI_PIPELINE_URL),
    event: value(env.CI_PIPELINE_SOURCE),
  });
}

/** Jenkins: the Git plugin's `GIT_*` variables, and a multibranch pipeline's `CHANGE_*` and `TAG_NAME`. */
export function jenkinsContext(env: Env): CiContext {
  const pullRequest =
    value(env.CHANGE_ID) !== undefined
      ? pullRequestOf(env.CHANGE_ID, env.CHANGE_TITLE, env.CHANGE_URL)
      : undefined;
  const tag = value(env.TAG_NAME);
  // A multibranch pull request's BRANCH_NAME is `PR-24`; CHANGE_BRANCH names its source branch.
  const branch = pullRequest
    ? value(env.CHANGE_BRANCH)
    : (value(env.BRANCH_NAME) ?? value(env.GIT_LOCAL_BRANCH) ?? remoteBranch(env.GIT_BRANCH));
  return definedOnly({
    system: 'jenkins',
    commit: commitOf(env.GIT_COMMIT),
    branch: tag !== undefined && branch === tag ? undefined : branch,
    tag,
    pullRequest,
    repository: repositoryAddress(env.GIT_URL),
    runUrl: address(env.BUILD_URL),
  });
}

/** CircleCI: `CIRCLE_*` variables; a pull request is known by its address (`CIRCLE_PULL_REQUEST`). */
export function circleContext(env: Env): CiContext {
  const url = address(env.CIRCLE_PULL_REQUEST);
  const number = value(env.CIRCLE_PR_NUMBER) ?? (url ? /\/(\d+)\/?$/.exec(url)?.[1] : undefined);
  return definedOnly({
    system: 'circleci',
    commit: commitOf(env.CIRCLE_SHA1),
    branch: value(env.CIRCLE_BRANCH),
    tag: value(env.CIRCLE_TAG),
    pullRequest: number !== undefined ? pullRequestOf(number, undefined, url) : undefined,
    repository: repositoryAddress(env.CIRCLE_REPOSITORY_URL),
    runUrl: address(env.CIRCLE_BUILD_URL),
  });
}

/**
 * A repository's clone address as a web address: credentials removed, `git@host:path` written
 * `https://host/path`, without the trailing `.git`; `undefined` for anything else.
 */
export function repositoryAddress(raw: string | undefined): string | undefined {
  const text = value(raw);
  if (text === undefined) return undefined;
  const scp = /^[\w.-]+@([\w.-]+):(?!\/\/)([^\s]+)$/.exec(text);
  const url = address(scp ? `https://${scp[1]}/${scp[2]}` : text.replace(/^(git|ssh):\/\//, 'https://'));
  return url?.replace(/\.git$/, '');
}

function pullRequestOf(number: unknown, title: unknown, url: unknown): CiPullRequest | undefined {
  const parsed = typeof number === 'number' ? number : Number(value(String(number ?? '')) ?? NaN);
  if (!Number.isSafeInteger(parsed) || parsed <= 0) return undefined;
  const oneLineTitle = textOf(title)?.replace(/\s+/g, ' ');
  const link = typeof url === 'string' ? address(url) : undefined;
  return definedOnly({ number: parsed, title: oneLineTitle, url: link });
}

/**
 * Whether a head repository (of an event's payload) is another than the base: a fork, marked so
 * or by its name; `null`, a fork since deleted. Unknown (absent) is not a fork.
 */
function forkOf(head: unknown, base: unknown): boolean {
  if (head === null) return true;
  const repo = objectOf(head);
  if (repo?.fork === true) return true;
  const headName = textOf(repo?.full_name);
  const baseName = textOf(objectOf(base)?.full_name);
  return headName !== undefined && baseName !== undefined && headName !== baseName;
}

function withFork(pullRequest: CiPullRequest | undefined, fork: boolean): CiPullRequest | undefined {
  return pullRequest && fork ? { ...pullRequest, fromFork: true } : pullRequest;
}

/** `origin/main` as Jenkins' Git plugin writes it, without the remote. */
function remoteBranch(raw: string | undefined): string | undefined {
  const text = value(raw);
  return text?.replace(/^(refs\/remotes\/)?origin\//, '');
}

function commitOf(raw: unknown): string | undefined {
  const text = textOf(raw);
  return text !== undefined && COMMIT_FORM.test(text) ? text.toLowerCase() : undefined;
}

/** An http(s) address without its credentials, query or fragment; `undefined` for anything else. */
function address(raw: string | undefined): string | undefined {
  const text = value(raw);
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

function value(raw: string | undefined): string | undefined {
  const text = raw?.trim();
  return text ? text : undefined;
}

function textOf(raw: unknown): string | undefined {
  return typeof raw === 'string' ? value(raw) : undefined;
}

function objectOf(raw: unknown): Record<string, unknown> | undefined {
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw)
    ? (raw as Record<string, unknown>)
    : undefined;
}

/** The readers of CI variables that the run's identity shares. */
export { address as webAddress, value as nonBlank, wholeNumber };

/** With `exactOptionalPropertyTypes`, an absent member is left out rather than set to `undefined`. */
function definedOnly<T extends object>(record: { [K in keyof T]: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(record).filter(([, member]) => member !== undefined)) as T;
}
