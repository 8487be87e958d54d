import { describe, expect, it } from 'vitest';
import { githubRunKey, runIdentityOf, runToken, RUN_TOKEN_LENGTH } from '../../src/step/run-identity.ts';
import { reportedRun } from '../../src/test-run/build-names.ts';

const GITHUB = {
  GITHUB_ACTIONS: 'true',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: 'acme/app',
  GITHUB_RUN_ID: '8801',
  GITHUB_RUN_NUMBER: '42',
  GITHUB_RUN_ATTEMPT: '2',
};
const GITLAB = {
  GITLAB_CI: 'true',
  CI_SERVER_URL: 'https://gitlab.example.com',
  CI_PROJECT_ID: '311',
  CI_PROJECT_PATH: 'group/app',
  CI_PIPELINE_ID: '90210',
  CI_PIPELINE_IID: '42',
};
const JENKINS = { JENKINS_URL: 'https://ci.example.com/', JOB_NAME: 'apps/app/main', BUILD_NUMBER: '42' };
const CIRCLE = { CIRCLECI: 'true', CIRCLE_WORKFLOW_ID: '5f1c2e3a-0b6d-4e8f-9a1b-2c3d4e5f6a7b' };

describe('the identity of a run, by CI system', () => {
  it.each<[string, Record<string, string>, unknown, ReturnType<typeof runIdentityOf>]>([
    [
      'GitHub: server, repository and run id; the number and attempt shown',
      GITHUB,
      undefined,
      { key: 'github:https://github.com/acme/app/runs/8801', runNumber: '42', runAttempt: '2' },
    ],
    [
      'GitHub Enterprise Server, a first attempt with no attempt variable',
      {
        ...GITHUB,
        GITHUB_SERVER_URL: 'https://ghe.example.com/',
        GITHUB_REPOSITORY: 'Acme/App',
        GITHUB_RUN_ATTEMPT: '',
      },
      undefined,
      { key: 'github:https://ghe.example.com/acme/app/runs/8801', runNumber: '42', runAttempt: '1' },
    ],
    ['GitHub without a run id: none', { ...GITHUB, GITHUB_RUN_ID: '' }, undefined, {}],
    ['GitHub with a run id that is no number: none', { ...GITHUB, GITHUB_RUN_ID: '88 01' }, undefined, {}],
    ['GitHub without a repository: none', { ...GITHUB, GITHUB_REPOSITORY: 'acme' }, undefined, {}],
    [
      'GitLab: server, project and pipeline id; the pipeline IID shown, no attempt',
      GITLAB,
      undefined,
      { key: 'gitlab:https://gitlab.example.com/projects/311/pipelines/90210', runNumber: '42' },
    ],
    [
      'GitLab without a project id: its path',
      { ...GITLAB, CI_PROJECT_ID: '', CI_PIPELINE_IID: '' },
      undefined,
      { key: 'gitlab:https://gitlab.example.com/group/app/pipelines/90210', runNumber: '90210' },
    ],
    ['GitLab without a pipeline id: none', { ...GITLAB, CI_PIPELINE_ID: '' }, undefined, {}],
    [
      "GitLab: the pipeline's creation, which a report's search reads no further back than",
      { ...GITLAB, CI_PIPELINE_CREATED_AT: '2026-12-01T03:00:00Z' },
      undefined,
      {
        key: 'gitlab:https://gitlab.example.com/projects/311/pipelines/90210',
        runNumber: '42',
        createdAtMs: Date.UTC(2026, 11, 1, 3),
      },
    ],
    ...['2026-12-01 03:00:00', '2026-12-01T03:00:00', 'yesterday', '2026-13-01T03:00:00Z', ''].map(
      (created): [string, Record<string, string>, unknown, ReturnType<typeof runIdentityOf>] => [
        `GitLab with a creation time of ${JSON.stringify(created)}: none`,
        { ...GITLAB, CI_PIPELINE_CREATED_AT: created },
        undefined,
        { key: 'gitlab:https://gitlab.example.com/projects/311/pipelines/90210', runNumber: '42' },
      ],
    ),
    [
      'Jenkins: server, job (with its folders) and build number',
      JENKINS,
      undefined,
      { key: 'jenkins:https://ci.example.com/job/apps/app/main/42', runNumber: '42' },
    ],
    ['Jenkins without a job name: none', { ...JENKINS, JOB_NAME: ' ' }, undefined, {}],
    [
      "CircleCI: the workflow's id, shared by its parallel jobs; no number",
      { ...CIRCLE, CIRCLE_BUILD_NUM: '977', CIRCLE_NODE_INDEX: '2' },
      undefined,
      { key: 'circleci:workflow/5f1c2e3a-0b6d-4e8f-9a1b-2c3d4e5f6a7b' },
    ],
    ['CircleCI without a workflow id: none', { CIRCLECI: 'true', CIRCLE_BUILD_NUM: '977' }, undefined, {}],
    ['a terminal: none', { HOME: '/home/user', BUILD_NUMBER: '42' }, undefined, {}],
  ])('%s', (_, env, event, expected) => {
    // The series is a table of its own, below.
    const { series: _series, ...identity } = runIdentityOf(env, event);
    expect(identity).toEqual(expected);
  });

  it('tells apart runs of one number in two repositories, and two workflows of one repository', () => {
    const app = runIdentityOf(GITHUB).key;
    const other = runIdentityOf({
      ...GITHUB,
      GITHUB_REPOSITORY: 'acme/other-repo',
      GITHUB_RUN_ID: '8790',
    }).key;
    // Another workflow of the same repository counts its runs from 1 as well, under its own run id.
    const nightly = runIdentityOf({ ...GITHUB, GITHUB_RUN_ID: '8802' }).key;
    // The same run id on another server is another run.
    const enterprise = runIdentityOf({ ...GITHUB, GITHUB_SERVER_URL: 'https://ghe.example.com' }).key;
    const keys = [app, other, nightly, enterprise];
    expect(new Set(keys).size).toBe(4);
    expect(new Set(keys.map((key) => runToken(key!))).size).toBe(4);
  });

  it('is the same in every attempt and every job of a run', () => {
    const first = runIdentityOf({ ...GITHUB, GITHUB_RUN_ATTEMPT: '1', GITHUB_JOB: 'shard' });
    const second = runIdentityOf({ ...GITHUB, GITHUB_RUN_ATTEMPT: '2', GITHUB_JOB: 'report' });
    expect(first.key).toBe(second.key);
    expect([first.runAttempt, second.runAttempt]).toEqual(['1', '2']);
    const gitlabJobs = ['1', '2'].map((job) =>
      runIdentityOf({ ...GITLAB, CI_JOB_ID: job, CI_NODE_INDEX: job }),
    );
    expect(gitlabJobs[0]).toEqual(gitlabJobs[1]);
  });

  it('tells apart systems whose numbers and ids coincide', () => {
    const keys = [
      runIdentityOf({
        ...GITLAB,
        CI_SERVER_URL: 'https://github.com',
        CI_PROJECT_ID: '',
        CI_PROJECT_PATH: 'acme/app',
        CI_PIPELINE_ID: '8801',
      }).key,
      runIdentityOf(GITHUB).key,
      runIdentityOf({
        ...JENKINS,
        JENKINS_URL: 'https://github.com',
        JOB_NAME: 'acme/app',
        BUILD_NUMBER: '8801',
      }).key,
    ];
    expect(new Set(keys).size).toBe(3);
  });

  it("of a workflow_run event: the triggering run's key, of the same repository, for the report", () => {
    const report = runIdentityOf(
      { ...GITHUB, GITHUB_EVENT_NAME: 'workflow_run', GITHUB_RUN_ID: '9100', GITHUB_RUN_NUMBER: '7' },
      { workflow_run: { id: 8801, run_number: 42, run_attempt: 2 } },
    );
    const shards = runIdentityOf(GITHUB);
    expect(report.key).not.toBe(shards.key);
    expect(report.triggeredBy).toEqual({ id: '8801', key: shards.key, runNumber: '42', runAttempt: '2' });
  });

  it('of a workflow_run event with no repository: the triggering run, without a key', () => {
    const report = runIdentityOf(
      { ...GITHUB, GITHUB_REPOSITORY: '', GITHUB_EVENT_NAME: 'workflow_run' },
      { workflow_run: { id: 8801, run_number: 42 } },
    );
    expect(report).toEqual({ triggeredBy: { id: '8801', runNumber: '42', runAttempt: '1' } });
  });

  it("of a workflow_run event: the triggering run's creation, which the report then searches from", () => {
    const event = { workflow_run: { id: 8801, run_number: 42, created_at: '2026-12-01T02:59:58Z' } };
    const report = runIdentityOf(
      { ...GITHUB, GITHUB_EVENT_NAME: 'workflow_run', GITHUB_RUN_ID: '9100' },
      event,
    );
    expect(report.triggeredBy?.createdAtMs).toBe(Date.UTC(2026, 11, 1, 2, 59, 58));
    expect(reportedRun(report).createdAtMs).toBe(Date.UTC(2026, 11, 1, 2, 59, 58));
    // The report's own run is newer than the run it reports: its time is never the bound.
    const unknown = { workflow_run: { id: 8801, run_number: 42 } };
    const own = runIdentityOf({ ...GITHUB, GITHUB_EVENT_NAME: 'workflow_run' }, unknown);
    expect(reportedRun({ ...own, createdAtMs: Date.now() }).createdAtMs).toBeUndefined();
  });
});

describe('runToken', () => {
  it('is 8 characters of lowercase base 32, the same for one key, and differs for another', () => {
    const key = githubRunKey('https://github.com', 'acme/app', '8801')!;
    expect(runToken(key)).toMatch(new RegExp(`^[a-z2-7]{${RUN_TOKEN_LENGTH}}$`));
    expect(runToken(key)).toBe(runToken(`${key}`));
    expect(runToken(key)).not.toBe(runToken(githubRunKey('https://github.com', 'acme/other-repo', '8801')!));
  });

  it("is the first 40 bits of the key's SHA-256 in RFC 4648 base 32", () => {
    // sha256("abc") begins ba 78 16 bf 8f: 10111 01001 11100 00001 01101 01111 11100 01111.
    expect(runToken('abc')).toBe('xj4bnp4p');
  });
});
