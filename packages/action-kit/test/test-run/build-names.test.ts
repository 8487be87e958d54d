import { describe, expect, it } from 'vitest';
import type { WorkflowRun } from '../../src/deps.ts';
import { runIdentityOf, runToken } from '../../src/step/run-identity.ts';
import {
  attemptBuildNames,
  buildMatcher,
  defaultBuildName,
  reportedRun,
} from '../../src/test-run/build-names.ts';

const NOW = new Date('2026-11-23T10:00:00.123Z');
const GITHUB = {
  GITHUB_ACTIONS: 'true',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: 'acme/app',
  GITHUB_RUN_ID: '8801',
  GITHUB_RUN_NUMBER: '42',
  GITHUB_RUN_ATTEMPT: '2',
};
const app = runIdentityOf(GITHUB);
const TOKEN = runToken(app.key!);

describe('defaultBuildName', () => {
  it.each<[string, WorkflowRun, RegExp]>([
    ['GitHub: number, attempt and token', app, /^Smoke #42\.2 · [a-z2-7]{8}$/],
    [
      'GitLab: the pipeline number and the token',
      runIdentityOf({
        GITLAB_CI: 'true',
        CI_SERVER_URL: 'https://gitlab.com',
        CI_PROJECT_ID: '7',
        CI_PIPELINE_ID: '900',
        CI_PIPELINE_IID: '42',
      }),
      /^Smoke #42 · [a-z2-7]{8}$/,
    ],
    [
      'CircleCI: the token alone',
      runIdentityOf({ CIRCLECI: 'true', CIRCLE_WORKFLOW_ID: '5f1c2e3a-0b6d' }),
      /^Smoke · [a-z2-7]{8}$/,
    ],
    ['a terminal: the time', {}, /^Smoke 2026-11-23T10:00:00Z$/],
    // A run number with no identity is not enough to tell the run from another repository's.
    ['a run number alone: the time', { runNumber: '42', runAttempt: '2' }, /^Smoke 2026-11-23T10:00:00Z$/],
  ])('%s', (_, run, form) => {
    expect(defaultBuildName('Smoke', run, NOW)).toMatch(form);
  });

  it('differs between two repositories whose runs have the same number', () => {
    const other = runIdentityOf({ ...GITHUB, GITHUB_REPOSITORY: 'acme/other-repo', GITHUB_RUN_ID: '8790' });
    expect(defaultBuildName('Smoke', other, NOW)).not.toBe(defaultBuildName('Smoke', app, NOW));
  });

  it('keeps the run and its token whole within 100 characters, with room for the suffixes, shortening the label', () => {
    const name = defaultBuildName('S'.repeat(150), app, NOW);
    expect(name.length).toBeLessThanOrEqual(100 - 6);
    expect(name).toMatch(new RegExp(`^S+… #42\\.2 · ${TOKEN}$`));
  });
});

describe('attemptBuildNames', () => {
  it('names every attempt so far, with one token; none without an identity', () => {
    expect(attemptBuildNames('Smoke', { ...app, runAttempt: '3' })).toEqual([
      `Smoke #42.1 · ${TOKEN}`,
      `Smoke #42.2 · ${TOKEN}`,
      `Smoke #42.3 · ${TOKEN}`,
    ]);
    expect(attemptBuildNames('Smoke', { key: 'gitlab:x', runNumber: '5' })).toEqual([
      `Smoke #5 · ${runToken('gitlab:x')}`,
    ]);
    expect(attemptBuildNames('Smoke', { runNumber: '42', runAttempt: '2' })).toBeUndefined();
  });
});

describe('reportedRun', () => {
  it("of a workflow_run event: the triggering run's key, number and attempt; without its key, no identity", () => {
    const report = runIdentityOf(
      { ...GITHUB, GITHUB_EVENT_NAME: 'workflow_run', GITHUB_RUN_ID: '9100', GITHUB_RUN_NUMBER: '7' },
      { workflow_run: { id: 8801, run_number: 42, run_attempt: 2 } },
    );
    expect(attemptBuildNames('Smoke', reportedRun(report))).toEqual(attemptBuildNames('Smoke', app));
    const keyless = { ...report, triggeredBy: { id: '8801', runNumber: '42', runAttempt: '2' } };
    expect(reportedRun(keyless).key).toBeUndefined();
    expect(reportedRun(app)).toBe(app);
  });
});

describe('buildMatcher', () => {
  it('matches the names given and the suffixes the service adds, and no other run', () => {
    const matches = buildMatcher([`Smoke #7.1 · ${TOKEN}`, 'Smoke (a+b) #7.2']);
    expect(
      [
        `Smoke #7.1 · ${TOKEN}`,
        `Smoke #7.1 · ${TOKEN} - 3`,
        `Smoke #7.1 · ${TOKEN} - 3 - 1`,
        'Smoke (a+b) #7.2 - 1',
      ].map(matches),
    ).toEqual([true, true, true, true]);
    expect(
      [
        'Smoke #7.1',
        `Smoke #7.1 · ${runToken('github:https://github.com/acme/other-repo/runs/8790')}`,
        `Smoke #7.11 · ${TOKEN}`,
        `Smoke #7.1 · ${TOKEN}-3`,
        `Smoke #7.1 · ${TOKEN} - x`,
        null,
        undefined,
      ].map(matches),
    ).toEqual([false, false, false, false, false, false, false]);
    expect(buildMatcher([])('')).toBe(false);
  });
});
