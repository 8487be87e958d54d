import { describe, expect, it } from 'vitest';
import { withEmulator } from '../support/emulator.ts';
import {
  DEMO_USER_ID,
  HEX,
  ISO,
  REGRESSION_CASE_IDS,
  REGRESSION_SUITE_ID,
  SMOKE_CASE_IDS,
  SMOKE_SUITE_ID,
  UNASSIGNED_CASE_IDS,
  UNKNOWN_HEX,
  UNKNOWN_UUID,
  UUID,
} from './fixtures.ts';
import { authoringClient } from './http.ts';
import { runJobs } from './jobs.ts';

describe('authoring runs', () => {
  const handle = withEmulator({ jobDurationMs: 50 });
  const call = authoringClient(() => handle.url);

  const { automationJobs, finishedJobs } = runJobs(() => handle.url);

  it('runs a case: one automation job per target, answered as a case run', async () => {
    const answer = await call('POST', `/testcases/${SMOKE_CASE_IDS[0]}/run`, { body: {} });
    expect(answer.status).toBe(200);
    const run = answer.body.data;
    expect(run).toEqual({
      id: expect.stringMatching(HEX),
      orgId: expect.any(String),
      teamId: expect.any(String),
      userId: DEMO_USER_ID,
      testCaseId: SMOKE_CASE_IDS[0],
      build: 'Login works',
      jobs: [
        {
          id: expect.stringMatching(HEX),
          sauceJobId: expect.any(String),
          name: 'Login works',
          target: expect.objectContaining({
            capabilities: expect.objectContaining({ browserName: 'chrome' }),
          }),
          url: expect.stringContaining(run.jobs[0].sauceJobId),
          isRdc: false,
          success: null,
          error: null,
        },
      ],
      creationDate: expect.stringMatching(ISO),
      testUrl: 'https://shop.example.com/login',
    });
    const [job] = await finishedJobs('Login works', 1);
    expect(job).toMatchObject({
      id: run.jobs[0].sauceJobId,
      name: 'Login works',
      passed: true,
      browser: 'chrome',
    });
  });

  it('runs a case without a body, with its own build name, on given targets', async () => {
    const targets = [
      { capabilities: { browserName: 'firefox', browserVersion: '120', platformName: 'Linux' } },
      { capabilities: { browserName: 'MicrosoftEdge', platformName: 'Windows 10' }, isRdc: true },
    ];
    const answer = await call('POST', `/testcases/${SMOKE_CASE_IDS[2]}/run`, {
      body: { buildName: 'Release 7', targets, scTunnelName: null },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.build).toBe('Release 7');
    expect(answer.body.data.jobs.map((job: { target: unknown }) => job.target)).toEqual(targets);
    expect(answer.body.data.jobs.map((job: { isRdc: boolean }) => job.isRdc)).toEqual([false, true]);
    const jobs = await finishedJobs('Release 7', 2);
    expect(jobs.map((job) => job.browser).sort()).toEqual(['MicrosoftEdge', 'firefox']);
    // "Checkout fails" is meant to fail, on every target.
    expect(jobs.every((job) => job.passed === false)).toBe(true);
    const bare = await call('POST', `/testcases/${SMOKE_CASE_IDS[1]}/run`);
    expect(bare.status).toBe(200);
    expect(bare.body.data.build).toBe('Search finds products');
  });

  it('runs a case on a running tunnel of the user, and refuses an unknown one (400)', async () => {
    const ok = await call('POST', `/testcases/${SMOKE_CASE_IDS[0]}/run`, {
      body: { scTunnelName: 'demo-tunnel' },
    });
    expect(ok.status).toBe(200);
    const before = (await automationJobs()).length;
    const bad = await call('POST', `/testcases/${SMOKE_CASE_IDS[0]}/run`, {
      body: { scTunnelName: 'no-such-tunnel' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.detail).toContain('no-such-tunnel');
    expect((await automationJobs()).length).toBe(before);
  });

  it('makes build names unique: X, X - 1, X - 2', async () => {
    const builds = [];
    for (let i = 0; i < 3; i++) {
      const answer = await call('POST', `/testcases/${SMOKE_CASE_IDS[0]}/run`, {
        body: { buildName: 'Nightly' },
      });
      builds.push(answer.body.data.build);
    }
    expect(builds).toEqual(['Nightly', 'Nightly - 1', 'Nightly - 2']);
    const suite = await call('POST', `/testsuites/${SMOKE_SUITE_ID}/run`, { body: { buildName: 'Nightly' } });
    expect(suite.body.data.buildName).toBe('Nightly - 3');
  });

  it('caps case run builds at 100 characters and suite run builds at 255', async () => {
    const long = 'b'.repeat(300);
    const first = await call('POST', `/testcases/${SMOKE_CASE_IDS[0]}/run`, { body: { buildName: long } });
    expect(first.body.data.build).toBe('b'.repeat(100));
    const second = await call('POST', `/testcases/${SMOKE_CASE_IDS[0]}/run`, { body: { buildName: long } });
    expect(second.body.data.build).toBe(`${'b'.repeat(96)} - 1`);
    const suite = await call('POST', `/testsuites/${SMOKE_SUITE_ID}/run`, { body: { buildName: long } });
    expect(suite.body.data.buildName).toBe('b'.repeat(255));
  });

  it('runs a case revision, and answers 404 to an unknown revision', async () => {
    const detail = (await call('GET', `/testcases/${SMOKE_CASE_IDS[0]}`)).body.data;
    const revision = detail.revisions[0].id;
    const ok = await call('POST', `/testcases/${SMOKE_CASE_IDS[0]}/run/${revision}`, { body: {} });
    expect(ok.status).toBe(200);
    expect(ok.body.data.jobs).toHaveLength(1);
    const unknown = await call('POST', `/testcases/${SMOKE_CASE_IDS[0]}/run/${UNKNOWN_HEX}`, { body: {} });
    expect(unknown.status).toBe(404);
    const invalid = await call('POST', `/testcases/${SMOKE_CASE_IDS[0]}/run/rev-1`, { body: {} });
    expect(invalid.status).toBe(400);
  });

  it.each([
    ['a case with no run targets', UNASSIGNED_CASE_IDS[1], {}, 400],
    ['empty targets', SMOKE_CASE_IDS[0], { targets: [] }, 400],
    ['a target without capabilities', SMOKE_CASE_IDS[0], { targets: [{ isRdc: false }] }, 400],
    ['a build name that is not text', SMOKE_CASE_IDS[0], { buildName: 7 }, 400],
    ['an invalid case id', 'abc', {}, 400],
    ['an unknown case', UNKNOWN_HEX, {}, 404],
  ])('refuses to run %s', async (_what, caseId, body, status) => {
    const answer = await call('POST', `/testcases/${caseId}/run`, { body });
    expect(answer.status).toBe(status);
    expect(answer.body.error.code).toBe(status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST');
  });

  it('a case with no targets of its own runs on targets given in the body', async () => {
    const answer = await call('POST', `/testcases/${UNASSIGNED_CASE_IDS[1]}/run`, {
      body: { targets: [{ capabilities: { browserName: 'chrome', platformName: 'Linux' } }] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.jobs).toHaveLength(1);
  });

  it('runs Smoke: three jobs in one build, "Checkout fails" failing and the others passing', async () => {
    const answer = await call('POST', `/testsuites/${SMOKE_SUITE_ID}/run`);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      id: expect.stringMatching(UUID),
      buildName: 'Smoke',
      runCount: 3,
      orgId: expect.any(String),
      teamId: expect.any(String),
      userId: DEMO_USER_ID,
    });
    const jobs = await finishedJobs('Smoke', 3);
    const outcome = Object.fromEntries(jobs.map((job) => [job.name, job.passed]));
    expect(outcome).toEqual({ 'Login works': true, 'Search finds products': true, 'Checkout fails': false });
    const suite = (await call('GET', `/testsuites/${SMOKE_SUITE_ID}`)).body.data;
    expect(suite.runCount).toBe(1);
    const named = await call('POST', `/testsuites/${SMOKE_SUITE_ID}/run`, { body: { buildName: 'RC 1' } });
    expect(named.body.data.buildName).toBe('RC 1');
    await finishedJobs('RC 1', 3);
  });

  it('runs Regression: twelve jobs, Case 07 failing the first time in a build and passing after', async () => {
    const outcomes = async (build: string) =>
      Object.fromEntries((await finishedJobs(build, 12)).map((job) => [job.name, job.passed]));
    const passedBut = (name: string | undefined) =>
      Object.fromEntries(
        Array.from({ length: 12 }, (_, index) => `Case ${String(index + 1).padStart(2, '0')}`).map((each) => [
          each,
          each !== name,
        ]),
      );

    const first = await call('POST', `/testsuites/${REGRESSION_SUITE_ID}/run`, {
      body: { buildName: 'Nightly 42' },
    });
    expect(first.body.data).toMatchObject({ buildName: 'Nightly 42', runCount: 12 });
    expect(await outcomes('Nightly 42')).toEqual(passedBut('Case 07'));

    // Again in the same build: the service names it `Nightly 42 - 1`, and Case 07 passes.
    const second = await call('POST', `/testsuites/${REGRESSION_SUITE_ID}/run`, {
      body: { buildName: 'Nightly 42' },
    });
    expect(second.body.data.buildName).toBe('Nightly 42 - 1');
    expect(await outcomes('Nightly 42 - 1')).toEqual(passedBut(undefined));

    // A retry of the case alone, sent with the build the first run was given, passes too.
    const retry = await call('POST', `/testcases/${REGRESSION_CASE_IDS[6]}/run`, {
      body: { buildName: 'Nightly 42' },
    });
    expect(retry.body.data.build).toBe('Nightly 42 - 2');
    expect((await finishedJobs('Nightly 42 - 2', 1))[0]).toMatchObject({ name: 'Case 07', passed: true });

    // Another build starts fresh, whether the suite or the case alone runs first.
    expect(
      (await call('POST', `/testsuites/${REGRESSION_SUITE_ID}/run`, { body: { buildName: 'Nightly 43' } }))
        .status,
    ).toBe(200);
    expect(await outcomes('Nightly 43')).toEqual(passedBut('Case 07'));
    await call('POST', `/testcases/${REGRESSION_CASE_IDS[6]}/run`, { body: { buildName: 'Case 07 only' } });
    expect((await finishedJobs('Case 07 only', 1))[0]).toMatchObject({ passed: false });
    await call('POST', `/testcases/${REGRESSION_CASE_IDS[6]}/run`, { body: { buildName: 'Case 07 only' } });
    expect((await finishedJobs('Case 07 only - 1', 1))[0]).toMatchObject({ passed: true });
  });

  it('refuses a suite run with cases that have no run targets, naming them, and starts nothing', async () => {
    await call('POST', `/testsuites/${SMOKE_SUITE_ID}`, {
      body: { testCaseIds: [SMOKE_CASE_IDS[0], UNASSIGNED_CASE_IDS[1]] },
    });
    const before = (await automationJobs()).length;
    const answer = await call('POST', `/testsuites/${SMOKE_SUITE_ID}/run`, {
      body: { buildName: 'Partial' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('BAD_REQUEST');
    expect(answer.body.error.detail).toContain(UNASSIGNED_CASE_IDS[1]);
    expect(answer.body.error.detail).toContain('Newsletter signup draft');
    expect(answer.body.error.detail).not.toContain(SMOKE_CASE_IDS[0]);
    expect((await automationJobs()).length).toBe(before);
    expect((await call('GET', `/testsuites/${SMOKE_SUITE_ID}`)).body.data.runCount).toBe(0);
    // Once every case has a target, the suite runs them all.
    await call('POST', `/testsuites/${SMOKE_SUITE_ID}`, { body: { testCaseIds: [SMOKE_CASE_IDS[0]] } });
    const ran = await call('POST', `/testsuites/${SMOKE_SUITE_ID}/run`, { body: { buildName: 'Partial' } });
    expect(ran.body.data).toMatchObject({ buildName: 'Partial', runCount: 1 });
    await finishedJobs('Partial', 1);
  });

  it('refuses a suite run with no jobs to run (400), and unknown or invalid suites', async () => {
    const empty = await call('POST', '/testsuites', { body: { name: 'Empty' } });
    const answer = await call('POST', `/testsuites/${empty.body.data.id}/run`, { body: {} });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('BAD_REQUEST');
    const draftsOnly = await call('POST', '/testsuites', {
      body: { name: 'Drafts', testCases: [UNASSIGNED_CASE_IDS[1]] },
    });
    expect((await call('POST', `/testsuites/${draftsOnly.body.data.id}/run`)).status).toBe(400);
    expect((await call('POST', `/testsuites/${UNKNOWN_UUID}/run`)).status).toBe(404);
    expect((await call('POST', '/testsuites/smoke/run')).status).toBe(400);
    const tunnel = await call('POST', `/testsuites/${SMOKE_SUITE_ID}/run`, {
      body: { scTunnelName: 'gone' },
    });
    expect(tunnel.status).toBe(400);
    expect((await call('GET', `/testsuites/${SMOKE_SUITE_ID}`)).body.data.runCount).toBe(0);
  });

  it('runs nothing without credentials', async () => {
    const before = (await automationJobs()).length;
    const answer = await call('POST', `/testsuites/${SMOKE_SUITE_ID}/run`, { auth: null });
    expect(answer.status).toBe(401);
    expect((await automationJobs()).length).toBe(before);
  });
});
