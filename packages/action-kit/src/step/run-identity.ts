/**
 * Which CI run a step belongs to: a key unique across CI systems, servers, repositories and
 * workflows, the same in every job of the run (its shards, its report) and in every attempt of it,
 * with the number and attempt people know the run by. Test runs are found again in the service by
 * build names made from it, so a run number alone (which every repository and workflow counts from
 * 1) must never be enough. Each host reads it once; a pure function of the environment and the
 * event, tested by tables.
 */
import { createHash } from 'node:crypto';
import {
  ciSystemOf,
  instantOf,
  nonBlank,
  REPOSITORY_SLUG_FORM,
  repositoryPath,
  triggeringRunOf,
  webAddress,
  wholeNumber,
  type TriggeringRun,
} from './ci-context.ts';

type Env = Readonly<Record<string, string | undefined>>;

export interface RunIdentity {
  /** Unique to the run, whichever system, server, repository or workflow: `github:https://github.com/acme/app/runs/123`. */
  key: string;
  /** The run's number as its system shows it (GitHub's run number, GitLab's pipeline IID, Jenkins' build number). */
  runNumber?: string;
  /** GitHub's attempt of the run; systems that run a pipeline again as a new one have none. */
  runAttempt?: string;
  /** When the run was created (ms since the epoch), where the system says: GitLab's `CI_PIPELINE_CREATED_AT`. */
  createdAtMs?: number;
  /**
   * Which runs are earlier runs of this one, whatever their branch, number or attempt: the same
   * server, repository and workflow (`github:https://github.com/acme/app/.github/workflows/ci.yml`).
   * A history of test runs is read by it, so it never names another repository's or workflow's.
   */
  series?: string;
}

/** The run's identity, and with a `workflow_run` event the triggering run's key; empty when none is known (a terminal). */
export function runIdentityOf(
  env: Env,
  event?: unknown,
): Partial<RunIdentity> & { triggeredBy?: TriggeringRun } {
  const identity = runOf(env, event);
  const series = identity.key !== undefined ? seriesOf(env, event) : undefined;
  return series !== undefined ? { ...identity, series } : identity;
}

function runOf(env: Env, event: unknown): Partial<RunIdentity> & { triggeredBy?: TriggeringRun } {
  switch (ciSystemOf(env)) {
    case 'github':
      return githubIdentity(env, event);
    case 'gitlab': {
      const gitlab = identity(
        gitlabPipelineKey(env.CI_SERVER_URL, gitlabProject(env), env.CI_PIPELINE_ID),
        wholeNumber(env.CI_PIPELINE_IID) ?? wholeNumber(env.CI_PIPELINE_ID),
      );
      const createdAtMs = instantOf(env.CI_PIPELINE_CREATED_AT);
      return gitlab.key !== undefined && createdAtMs !== undefined ? { ...gitlab, createdAtMs } : gitlab;
    }
    case 'jenkins':
      return identity(
        jenkinsBuildKey(env.JENKINS_URL, env.JOB_NAME, env.BUILD_NUMBER),
        wholeNumber(env.BUILD_NUMBER),
      );
    case 'circleci': {
      // Every job of a workflow (its parallel runs too) shares the workflow's id; no number does.
      const workflow = nonBlank(env.CIRCLE_WORKFLOW_ID);
      return identity(workflow && /^[\w-]+$/.test(workflow) ? `circleci:workflow/${workflow}` : undefined);
    }
    default:
      return {};
  }
}

/** The series of the run (`RunIdentity.series`), by what each system keeps the same from run to run. */
function seriesOf(env: Env, event: unknown): string | undefined {
  switch (ciSystemOf(env)) {
    case 'github': {
      const origin = webAddress(env.GITHUB_SERVER_URL);
      const slug = nonBlank(env.GITHUB_REPOSITORY)?.toLowerCase();
      // A `workflow_run` report's results are the triggering workflow's: its history is that one's.
      const workflow = triggeringRunOf(env, event)?.path ?? workflowFile(env.GITHUB_WORKFLOW_REF, slug);
      if (!origin || !slug || !REPOSITORY_SLUG_FORM.test(slug) || !workflow) return undefined;
      return `github:${origin}/${slug}/${workflow}`;
    }
    case 'gitlab': {
      const origin = webAddress(env.CI_SERVER_URL);
      const project = gitlabProject(env);
      return origin && project && !/\s/.test(project) ? `gitlab:${origin}/${project}` : undefined;
    }
    case 'jenkins': {
      // A multibranch pipeline's job is one per branch (`app/main`, `app/PR-24`): the series is the pipeline.
      const origin = webAddress(env.JENKINS_URL);
      const job = nonBlank(env.JOB_NAME);
      const branch = nonBlank(env.BRANCH_NAME);
      const pipeline =
        branch !== undefined && job?.endsWith(`/${branch}`) ? job.slice(0, -branch.length - 1) : job;
      return origin && pipeline ? `jenkins:${origin}/job/${pipeline}` : undefined;
    }
    case 'circleci': {
      const owner = nonBlank(env.CIRCLE_PROJECT_USERNAME);
      const name = nonBlank(env.CIRCLE_PROJECT_REPONAME);
      return owner && name && !/[\s/]/.test(owner + name)
        ? `circleci:${owner}/${name}`.toLowerCase()
        : undefined;
    }
    default:
      return undefined;
  }
}

/** The workflow's file inside the repository, from `GITHUB_WORKFLOW_REF` (`acme/app/.github/workflows/ci.yml@refs/heads/main`). */
function workflowFile(ref: string | undefined, slug: string | undefined): string | undefined {
  const path = nonBlank(ref)?.split('@')[0];
  if (path === undefined || slug === undefined || !path.toLowerCase().startsWith(`${slug}/`))
    return undefined;
  return repositoryPath(path.slice(slug.length + 1));
}

/** A GitHub workflow run: the server, the repository (`owner/name`) and the run's id, which its attempts share. */
export function githubRunKey(
  server: string | undefined,
  repository: string | undefined,
  runId: string | undefined,
): string | undefined {
  const origin = webAddress(server);
  const slug = nonBlank(repository);
  const id = wholeNumber(runId);
  if (!origin || !slug || !REPOSITORY_SLUG_FORM.test(slug) || !id) return undefined;
  // GitHub's names are case-insensitive: one repository, one key.
  return `github:${origin}/${slug.toLowerCase()}/runs/${id}`;
}

function githubIdentity(env: Env, event: unknown): Partial<RunIdentity> & { triggeredBy?: TriggeringRun } {
  const key = githubRunKey(env.GITHUB_SERVER_URL, env.GITHUB_REPOSITORY, env.GITHUB_RUN_ID);
  const triggering = triggeringRunOf(env, event);
  // A `workflow_run` event's run is of the same repository as the run it starts.
  const triggeringKey =
    triggering && githubRunKey(env.GITHUB_SERVER_URL, env.GITHUB_REPOSITORY, triggering.id);
  const triggeredBy = triggering && (triggeringKey ? { ...triggering, key: triggeringKey } : triggering);
  return {
    ...identity(key, wholeNumber(env.GITHUB_RUN_NUMBER), wholeNumber(env.GITHUB_RUN_ATTEMPT) ?? '1'),
    ...(triggeredBy ? { triggeredBy } : {}),
  };
}

/** The project by its id (`projects/311`), which a rename keeps, else by its path (`group/app`). */
function gitlabProject(env: Env): string | undefined {
  const id = wholeNumber(env.CI_PROJECT_ID);
  return id !== undefined ? `projects/${id}` : nonBlank(env.CI_PROJECT_PATH);
}

/** A GitLab pipeline: pipeline ids are unique to the instance; the project makes the key readable. */
function gitlabPipelineKey(
  server: string | undefined,
  project: string | undefined,
  pipelineId: string | undefined,
): string | undefined {
  const origin = webAddress(server);
  const projectName = nonBlank(project);
  const id = wholeNumber(pipelineId);
  if (!origin || !projectName || /\s/.test(projectName) || !id) return undefined;
  return `gitlab:${origin}/${projectName}/pipelines/${id}`;
}

/** A Jenkins build: the server, the job's full name (folders included) and the build's number. */
function jenkinsBuildKey(
  server: string | undefined,
  job: string | undefined,
  build: string | undefined,
): string | undefined {
  const origin = webAddress(server);
  const jobName = nonBlank(job);
  const number = wholeNumber(build);
  if (!origin || !jobName || !number) return undefined;
  return `jenkins:${origin}/job/${jobName}/${number}`;
}

function identity(key: string | undefined, runNumber?: string, runAttempt?: string): Partial<RunIdentity> {
  if (key === undefined) return {};
  return {
    key,
    ...(runNumber !== undefined ? { runNumber } : {}),
    ...(runAttempt !== undefined ? { runAttempt } : {}),
  };
}

/** Characters of the run's token in a build name. */
export const RUN_TOKEN_LENGTH = 8;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * A short token of the run's key, the same wherever it is computed: the first 40 bits of its
 * SHA-256 in lowercase base 32 (`k3f9x2ab`), which tells apart runs of one number in different
 * repositories, workflows or systems.
 */
export function runToken(key: string): string {
  return shortHash(key, RUN_TOKEN_LENGTH);
}

/** The first `length` characters of a text's SHA-256 in lowercase base 32: 5 bits each. */
export function shortHash(text: string, length: number): string {
  const digest = createHash('sha256').update(text, 'utf8').digest();
  let token = '';
  for (let bit = 0; token.length < length; bit += 5) {
    const byte = bit >> 3;
    const pair = ((digest[byte] ?? 0) << 8) | (digest[byte + 1] ?? 0);
    token += BASE32[(pair >> (11 - (bit & 7))) & 31];
  }
  return token;
}
