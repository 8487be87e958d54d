import { describe, expect, it } from 'vitest';
import {
  ciContextOf,
  ciSystemOf,
  circleContext,
  githubContext,
  gitlabContext,
  jenkinsContext,
  repositoryAddress,
  triggeringRunOf,
  type CiContext,
} from '../../src/step/ci-context.ts';

const SHA = '0123456789abcdef0123456789abcdef01234567';
const HEAD_SHA = 'fedcba9876543210fedcba9876543210fedcba98';

const GITHUB = {
  GITHUB_ACTIONS: 'true',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: 'octo/app',
  GITHUB_RUN_ID: '1234',
  GITHUB_SHA: SHA,
};

const PULL_REQUEST_EVENT = {
  pull_request: {
    number: 42,
    title: 'Faster\ncheckout',
    html_url: 'https://github.com/octo/app/pull/42',
    head: { sha: HEAD_SHA, ref: 'feature/checkout' },
  },
};

describe('the GitHub runner', () => {
  it.each<[string, Record<string, string>, unknown, CiContext]>([
    [
      'a push to a branch',
      { ...GITHUB, GITHUB_EVENT_NAME: 'push', GITHUB_REF_TYPE: 'branch', GITHUB_REF_NAME: 'main' },
      { head_commit: {} },
      {
        system: 'github',
        commit: SHA,
        branch: 'main',
        repository: 'https://github.com/octo/app',
        runUrl: 'https://github.com/octo/app/actions/runs/1234',
        event: 'push',
      },
    ],
    [
      'a tag',
      { ...GITHUB, GITHUB_EVENT_NAME: 'push', GITHUB_REF_TYPE: 'tag', GITHUB_REF_NAME: 'v1.2.0' },
      {},
      {
        system: 'github',
        commit: SHA,
        tag: 'v1.2.0',
        repository: 'https://github.com/octo/app',
        runUrl: 'https://github.com/octo/app/actions/runs/1234',
        event: 'push',
      },
    ],
    [
      'a pull request: its head commit and source branch, not the merge commit',
      {
        ...GITHUB,
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_REF_TYPE: 'branch',
        GITHUB_REF_NAME: '42/merge',
        GITHUB_HEAD_REF: 'feature/checkout',
      },
      PULL_REQUEST_EVENT,
      {
        system: 'github',
        commit: HEAD_SHA,
        branch: 'feature/checkout',
        pullRequest: { number: 42, title: 'Faster checkout', url: 'https://github.com/octo/app/pull/42' },
        repository: 'https://github.com/octo/app',
        runUrl: 'https://github.com/octo/app/actions/runs/1234',
        event: 'pull_request',
      },
    ],
    [
      'pull_request_target, the branch from the payload',
      {
        ...GITHUB,
        GITHUB_EVENT_NAME: 'pull_request_target',
        GITHUB_REF_TYPE: 'branch',
        GITHUB_REF_NAME: 'main',
      },
      PULL_REQUEST_EVENT,
      expect.objectContaining({ commit: HEAD_SHA, branch: 'feature/checkout', event: 'pull_request_target' }),
    ],
    [
      'a pull request payload on another event is not a pull request',
      {
        ...GITHUB,
        GITHUB_EVENT_NAME: 'workflow_dispatch',
        GITHUB_REF_TYPE: 'branch',
        GITHUB_REF_NAME: 'main',
      },
      PULL_REQUEST_EVENT,
      expect.not.objectContaining({ pullRequest: expect.anything() }),
    ],
    [
      'values of the wrong form are left out',
      {
        GITHUB_ACTIONS: 'true',
        GITHUB_SERVER_URL: 'javascript:alert(1)',
        GITHUB_REPOSITORY: 'octo/app',
        GITHUB_RUN_ID: '12; rm',
        GITHUB_SHA: 'not-a-sha',
        GITHUB_EVENT_NAME: 'pull_request',
      },
      { pull_request: { number: -3, title: 7, head: { sha: 'zz' } } },
      { system: 'github', event: 'pull_request' },
    ],
    [
      'no event file',
      { ...GITHUB, GITHUB_EVENT_NAME: 'pull_request', GITHUB_HEAD_REF: 'x' },
      undefined,
      expect.objectContaining({ commit: SHA, event: 'pull_request' }),
    ],
  ])('%s', (_name, env, event, expected) => {
    expect(githubContext(env, event)).toEqual(expected);
  });
});

describe('the run a workflow_run event reports on', () => {
  const run = {
    id: 9001,
    run_number: 12,
    run_attempt: 2,
    head_sha: HEAD_SHA,
    path: '.github/workflows/e2e.yml',
    html_url: 'https://github.com/octo/app/actions/runs/9001',
    pull_requests: [{ number: 42 }],
  };
  const env = { ...GITHUB, GITHUB_EVENT_NAME: 'workflow_run' };

  it.each<[string, Record<string, string>, unknown, ReturnType<typeof triggeringRunOf>]>([
    [
      'a pull request of the repository',
      env,
      { workflow_run: run },
      {
        id: '9001',
        runNumber: '12',
        runAttempt: '2',
        headSha: HEAD_SHA,
        pullRequest: 42,
        path: '.github/workflows/e2e.yml',
        url: 'https://github.com/octo/app/actions/runs/9001',
      },
    ],
    [
      "a fork's pull request: none listed",
      env,
      { workflow_run: { ...run, pull_requests: [], run_attempt: undefined } },
      {
        id: '9001',
        runNumber: '12',
        runAttempt: '1',
        headSha: HEAD_SHA,
        path: '.github/workflows/e2e.yml',
        url: 'https://github.com/octo/app/actions/runs/9001',
      },
    ],
    [
      'a path that leaves the repository',
      env,
      { workflow_run: { ...run, path: '../../etc/passwd', html_url: 'javascript:alert(1)' } },
      { id: '9001', runNumber: '12', runAttempt: '2', headSha: HEAD_SHA, pullRequest: 42 },
    ],
    ['another event', { ...GITHUB, GITHUB_EVENT_NAME: 'push' }, { workflow_run: run }, undefined],
    ['no run number', env, { workflow_run: { ...run, run_number: 'x' } }, undefined],
  ])('%s', (_, variables, event, expected) => {
    expect(triggeringRunOf(variables, event)).toEqual(expected);
  });
});

describe('GitLab CI', () => {
  const base = {
    GITLAB_CI: 'true',
    CI_COMMIT_SHA: SHA,
    CI_PROJECT_URL: 'https://gitlab.example.com/group/app',
    CI_PIPELINE_URL: 'https://gitlab.example.com/group/app/-/pipelines/77',
  };
  it.each<[string, Record<string, string>, CiContext]>([
    [
      'a branch pipeline',
      { ...base, CI_COMMIT_BRANCH: 'main', CI_COMMIT_REF_NAME: 'main', CI_PIPELINE_SOURCE: 'push' },
      {
        system: 'gitlab',
        commit: SHA,
        branch: 'main',
        repository: 'https://gitlab.example.com/group/app',
        runUrl: 'https://gitlab.example.com/group/app/-/pipelines/77',
        event: 'push',
      },
    ],
    [
      'a tag pipeline',
      { ...base, CI_COMMIT_TAG: 'v2.0.0', CI_COMMIT_REF_NAME: 'v2.0.0' },
      {
        system: 'gitlab',
        commit: SHA,
        tag: 'v2.0.0',
        repository: 'https://gitlab.example.com/group/app',
        runUrl: 'https://gitlab.example.com/group/app/-/pipelines/77',
      },
    ],
    [
      'a merged-results merge request pipeline',
      {
        ...base,
        CI_PIPELINE_SOURCE: 'merge_request_event',
        CI_COMMIT_REF_NAME: 'feature',
        CI_MERGE_REQUEST_IID: '9',
        CI_MERGE_REQUEST_TITLE: 'Draft: new login',
        CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature',
        CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: HEAD_SHA,
        CI_MERGE_REQUEST_PROJECT_URL: 'https://gitlab.example.com/group/app',
      },
      {
        system: 'gitlab',
        commit: HEAD_SHA,
        branch: 'feature',
        pullRequest: {
          number: 9,
          title: 'Draft: new login',
          url: 'https://gitlab.example.com/group/app/-/merge_requests/9',
        },
        repository: 'https://gitlab.example.com/group/app',
        runUrl: 'https://gitlab.example.com/group/app/-/pipelines/77',
        event: 'merge_request_event',
      },
    ],
  ])('%s', (_name, env, expected) => {
    expect(gitlabContext(env)).toEqual(expected);
  });
});

describe('Jenkins', () => {
  const base = {
    JENKINS_URL: 'https://ci.example.com/',
    GIT_COMMIT: SHA,
    BUILD_URL: 'https://ci.example.com/job/app/15/',
  };
  it.each<[string, Record<string, string>, CiContext]>([
    [
      'a freestyle job: the remote branch without its remote, the clone address without its credentials',
      { ...base, GIT_BRANCH: 'origin/main', GIT_URL: 'https://bot:s3cret@git.example.com/app.git' },
      {
        system: 'jenkins',
        commit: SHA,
        branch: 'main',
        repository: 'https://git.example.com/app',
        runUrl: 'https://ci.example.com/job/app/15',
      },
    ],
    [
      'a multibranch pull request: CHANGE_BRANCH, not PR-24',
      {
        ...base,
        BRANCH_NAME: 'PR-24',
        CHANGE_ID: '24',
        CHANGE_TITLE: 'Fix crash',
        CHANGE_URL: 'https://github.com/octo/app/pull/24',
        CHANGE_BRANCH: 'fix-crash',
        GIT_URL: 'git@github.com:octo/app.git',
      },
      {
        system: 'jenkins',
        commit: SHA,
        branch: 'fix-crash',
        pullRequest: { number: 24, title: 'Fix crash', url: 'https://github.com/octo/app/pull/24' },
        repository: 'https://github.com/octo/app',
        runUrl: 'https://ci.example.com/job/app/15',
      },
    ],
    [
      'a multibranch tag: the tag, not a branch of the same name',
      { ...base, BRANCH_NAME: 'v3.1', TAG_NAME: 'v3.1' },
      { system: 'jenkins', commit: SHA, tag: 'v3.1', runUrl: 'https://ci.example.com/job/app/15' },
    ],
    [
      'a change that is not a number (Gerrit) is no pull request',
      { ...base, CHANGE_ID: '12/3456/2', BRANCH_NAME: 'main' },
      expect.not.objectContaining({ pullRequest: expect.anything() }),
    ],
  ])('%s', (_name, env, expected) => {
    expect(jenkinsContext(env)).toEqual(expected);
  });
});

describe('CircleCI', () => {
  it.each<[string, Record<string, string>, CiContext]>([
    [
      'a branch',
      {
        CIRCLECI: 'true',
        CIRCLE_SHA1: SHA,
        CIRCLE_BRANCH: 'main',
        CIRCLE_REPOSITORY_URL: 'git@github.com:octo/app.git',
        CIRCLE_BUILD_URL: 'https://circleci.com/gh/octo/app/88',
      },
      {
        system: 'circleci',
        commit: SHA,
        branch: 'main',
        repository: 'https://github.com/octo/app',
        runUrl: 'https://circleci.com/gh/octo/app/88',
      },
    ],
    [
      'a pull request, its number from its address',
      {
        CIRCLECI: 'true',
        CIRCLE_SHA1: SHA,
        CIRCLE_BRANCH: 'feature',
        CIRCLE_PULL_REQUEST: 'https://github.com/octo/app/pull/31',
      },
      {
        system: 'circleci',
        commit: SHA,
        branch: 'feature',
        pullRequest: { number: 31, url: 'https://github.com/octo/app/pull/31' },
      },
    ],
    [
      "a fork's pull request: CIRCLE_PR_NUMBER",
      { CIRCLECI: 'true', CIRCLE_PR_NUMBER: '5', CIRCLE_TAG: 'v1' },
      { system: 'circleci', tag: 'v1', pullRequest: { number: 5 } },
    ],
  ])('%s', (_name, env, expected) => {
    expect(circleContext(env)).toEqual(expected);
  });
});

describe('which system', () => {
  it.each<[Record<string, string>, string | undefined]>([
    [{ GITHUB_ACTIONS: 'true', GITLAB_CI: 'true' }, 'github'],
    [{ GITLAB_CI: 'true' }, 'gitlab'],
    [{ CIRCLECI: 'true', JENKINS_URL: 'https://ci' }, 'circleci'],
    [{ JENKINS_URL: 'https://ci' }, 'jenkins'],
    [{ JENKINS_URL: ' ' }, undefined],
    [{ CI: 'true' }, undefined],
  ])('%o is %s', (env, system) => {
    expect(ciSystemOf(env)).toBe(system);
  });

  it('reads nothing on a terminal, and reads the event only on GitHub', () => {
    expect(ciContextOf({ GIT_COMMIT: SHA })).toEqual({});
    expect(ciContextOf({ ...GITHUB, GITHUB_EVENT_NAME: 'pull_request' }, PULL_REQUEST_EVENT)).toMatchObject({
      pullRequest: { number: 42 },
    });
    expect(ciContextOf({ GITLAB_CI: 'true', CI_COMMIT_SHA: SHA }, PULL_REQUEST_EVENT)).toEqual({
      system: 'gitlab',
      commit: SHA,
    });
  });
});

describe('repository addresses', () => {
  it.each([
    ['https://github.com/octo/app.git', 'https://github.com/octo/app'],
    ['https://user:token@github.com/octo/app', 'https://github.com/octo/app'],
    ['git@github.com:octo/app.git', 'https://github.com/octo/app'],
    ['ssh://git@git.example.com/group/app.git', 'https://git.example.com/group/app'],
    ['file:///srv/repos/app.git', undefined],
    ['', undefined],
  ])('%s is %s', (raw, expected) => {
    expect(repositoryAddress(raw)).toBe(expected);
  });
});
