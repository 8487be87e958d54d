/**
 * The series of a run: which runs are earlier runs of this one, for the history of test runs. The
 * same server, repository and workflow, whatever the branch, number or attempt; never another
 * repository's, workflow's or system's.
 */
import { describe, expect, it } from 'vitest';
import { githubContext, gitlabContext } from '../../src/step/ci-context.ts';
import { runIdentityOf } from '../../src/step/run-identity.ts';

const GITHUB = {
  GITHUB_ACTIONS: 'true',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: 'acme/app',
  GITHUB_RUN_ID: '8801',
  GITHUB_RUN_NUMBER: '42',
  GITHUB_WORKFLOW_REF: 'acme/app/.github/workflows/nightly.yml@refs/heads/main',
};
const GITLAB = {
  GITLAB_CI: 'true',
  CI_SERVER_URL: 'https://gitlab.example.com',
  CI_PROJECT_ID: '311',
  CI_PIPELINE_ID: '90210',
};
const JENKINS = { JENKINS_URL: 'https://ci.example.com/', JOB_NAME: 'apps/app/main', BUILD_NUMBER: '42' };
const CIRCLE = {
  CIRCLECI: 'true',
  CIRCLE_WORKFLOW_ID: '5f1c2e3a-0b6d-4e8f-9a1b-2c3d4e5f6a7b',
  CIRCLE_PROJECT_USERNAME: 'Acme',
  CIRCLE_PROJECT_REPONAME: 'app',
};
const NIGHTLY = 'github:https://github.com/acme/app/.github/workflows/nightly.yml';

describe('the series of a run', () => {
  it.each<[string, Record<string, string>, unknown, string | undefined]>([
    ["GitHub: server, repository and the workflow's file", GITHUB, undefined, NIGHTLY],
    [
      'GitHub: the same on a branch, a pull request, another run and attempt',
      {
        ...GITHUB,
        GITHUB_RUN_ID: '9911',
        GITHUB_RUN_ATTEMPT: '3',
        GITHUB_WORKFLOW_REF: 'Acme/App/.github/workflows/nightly.yml@refs/pull/7/merge',
        GITHUB_REPOSITORY: 'Acme/App',
      },
      undefined,
      NIGHTLY,
    ],
    [
      "GitHub, a `workflow_run` report: the triggering workflow's",
      {
        ...GITHUB,
        GITHUB_EVENT_NAME: 'workflow_run',
        GITHUB_WORKFLOW_REF: 'acme/app/.github/workflows/report.yml@refs/heads/main',
      },
      { workflow_run: { id: 8700, run_number: 41, path: '.github/workflows/nightly.yml' } },
      NIGHTLY,
    ],
    [
      "GitHub: a workflow reference of another repository's file: none",
      { ...GITHUB, GITHUB_WORKFLOW_REF: 'other/app/.github/workflows/nightly.yml@refs/heads/main' },
      undefined,
      undefined,
    ],
    [
      'GitHub without a workflow reference: none',
      { ...GITHUB, GITHUB_WORKFLOW_REF: '' },
      undefined,
      undefined,
    ],
    [
      'GitHub: a workflow reference that climbs out: none',
      { ...GITHUB, GITHUB_WORKFLOW_REF: 'acme/app/../x.yml@refs/heads/main' },
      undefined,
      undefined,
    ],
    ['GitLab: server and project', GITLAB, undefined, 'gitlab:https://gitlab.example.com/projects/311'],
    [
      'Jenkins: a multibranch job without its branch',
      { ...JENKINS, BRANCH_NAME: 'main' },
      undefined,
      'jenkins:https://ci.example.com/job/apps/app',
    ],
    ['Jenkins: a job of one branch', JENKINS, undefined, 'jenkins:https://ci.example.com/job/apps/app/main'],
    ['CircleCI: the project', CIRCLE, undefined, 'circleci:acme/app'],
    ['CircleCI without a project: none', { ...CIRCLE, CIRCLE_PROJECT_REPONAME: '' }, undefined, undefined],
    ['a terminal: none', { HOME: '/home/user' }, undefined, undefined],
  ])('%s', (_, env, event, series) => {
    expect(runIdentityOf(env, event).series).toBe(series);
  });

  it('tells apart repositories, workflows, servers and systems', () => {
    const seriesOf = (env: Record<string, string>): string | undefined => runIdentityOf(env).series;
    const all = [
      seriesOf(GITHUB),
      seriesOf({
        ...GITHUB,
        GITHUB_REPOSITORY: 'acme/web',
        GITHUB_WORKFLOW_REF: 'acme/web/.github/workflows/nightly.yml@main',
      }),
      seriesOf({ ...GITHUB, GITHUB_WORKFLOW_REF: 'acme/app/.github/workflows/ci.yml@refs/heads/main' }),
      seriesOf({ ...GITHUB, GITHUB_SERVER_URL: 'https://ghe.example.com' }),
      seriesOf(GITLAB),
      seriesOf({ ...GITLAB, CI_PROJECT_ID: '312' }),
    ];
    expect(all.every((series) => series !== undefined)).toBe(true);
    expect(new Set(all).size).toBe(all.length);
  });
});

describe("the repository's default branch", () => {
  it("is the GitHub event's `repository.default_branch`, and none without one", () => {
    expect(githubContext(GITHUB, { repository: { default_branch: 'trunk' } }).defaultBranch).toBe('trunk');
    expect(githubContext(GITHUB, { repository: { default_branch: 7 } }).defaultBranch).toBeUndefined();
    expect(githubContext(GITHUB, undefined).defaultBranch).toBeUndefined();
  });

  it("is GitLab's `CI_DEFAULT_BRANCH`", () => {
    expect(gitlabContext({ ...GITLAB, CI_DEFAULT_BRANCH: 'main' }).defaultBranch).toBe('main');
    expect(gitlabContext({ ...GITLAB, CI_DEFAULT_BRANCH: ' ' }).defaultBranch).toBeUndefined();
  });
});
