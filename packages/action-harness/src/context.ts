/** The `GITHUB_*` and `RUNNER_*` variables a runner sets for every step, with plausible defaults. */

export interface RunnerContext {
  workspace: string;
  runnerTemp: string;
  toolCache: string;
  eventPath: string;
  repository: string;
  serverUrl: string;
  runId: string;
  runNumber: string;
  runAttempt: string;
  workflow: string;
  job: string;
  actor: string;
  eventName: string;
  sha: string;
  ref: string;
  /** A pull request's source and target branches (`GITHUB_HEAD_REF`, `GITHUB_BASE_REF`); empty otherwise. */
  headRef: string;
  baseRef: string;
  debug: boolean;
  /** The job's token, `github.token` (a made-up value: nothing checks it but a stand-in API). */
  token: string;
}

export type ContextOverrides = Partial<
  Omit<RunnerContext, 'workspace' | 'runnerTemp' | 'toolCache' | 'eventPath'>
>;

export const DEFAULT_CONTEXT: Omit<RunnerContext, 'workspace' | 'runnerTemp' | 'toolCache' | 'eventPath'> = {
  repository: 'example/sauce-app',
  serverUrl: 'https://github.com',
  runId: '1000',
  runNumber: '1',
  runAttempt: '1',
  workflow: 'ci',
  job: 'build',
  actor: 'octocat',
  eventName: 'push',
  sha: '0000000000000000000000000000000000000000',
  ref: 'refs/heads/main',
  headRef: '',
  baseRef: '',
  debug: false,
  token: 'ghs_harnessToken0000000000000000000000',
};

export function contextVariables(
  context: RunnerContext,
  actionPath: string,
  stepId: string,
): Record<string, string> {
  const refName = context.ref.replace(/^refs\/(heads|tags|pull)\//, '');
  const serverHost = new URL(context.serverUrl).host;
  const apiUrl = serverHost === 'github.com' ? 'https://api.github.com' : `${context.serverUrl}/api/v3`;
  return {
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: context.workspace,
    GITHUB_REPOSITORY: context.repository,
    GITHUB_REPOSITORY_OWNER: context.repository.split('/')[0] ?? '',
    GITHUB_SERVER_URL: context.serverUrl,
    GITHUB_API_URL: apiUrl,
    GITHUB_GRAPHQL_URL: `${apiUrl}/graphql`,
    GITHUB_RUN_ID: context.runId,
    GITHUB_RUN_NUMBER: context.runNumber,
    GITHUB_RUN_ATTEMPT: context.runAttempt,
    GITHUB_WORKFLOW: context.workflow,
    GITHUB_JOB: context.job,
    GITHUB_ACTION: stepId,
    GITHUB_ACTION_PATH: actionPath,
    GITHUB_ACTOR: context.actor,
    GITHUB_EVENT_NAME: context.eventName,
    GITHUB_EVENT_PATH: context.eventPath,
    GITHUB_SHA: context.sha,
    GITHUB_REF: context.ref,
    GITHUB_REF_NAME: refName,
    GITHUB_REF_TYPE: context.ref.startsWith('refs/tags/') ? 'tag' : 'branch',
    GITHUB_HEAD_REF: context.headRef,
    GITHUB_BASE_REF: context.baseRef,
    RUNNER_OS: 'Linux',
    RUNNER_ARCH: 'X64',
    RUNNER_NAME: 'sauce-actions-harness',
    RUNNER_ENVIRONMENT: 'self-hosted',
    RUNNER_TEMP: context.runnerTemp,
    RUNNER_TOOL_CACHE: context.toolCache,
    ...(context.debug ? { RUNNER_DEBUG: '1' } : {}),
  };
}
