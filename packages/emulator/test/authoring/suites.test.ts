import { describe, expect, it } from 'vitest';
import { withEmulator } from '../support/emulator.ts';
import {
  DEMO_USER_ID,
  ISO,
  NIGHTLY_SCHEDULE_ID,
  QA_TEAM_ID,
  REGRESSION_CASE_IDS,
  REGRESSION_SUITE_ID,
  SEED_CASES,
  SMOKE_CASE_IDS,
  SMOKE_SUITE_ID,
  UNASSIGNED_CASE_IDS,
  UNKNOWN_HEX,
  UNKNOWN_UUID,
  UUID,
} from './fixtures.ts';
import { authoringClient } from './http.ts';

describe('authoring test suites', () => {
  const handle = withEmulator({ jobDurationMs: 50 });
  const call = authoringClient(() => handle.url);
  const create = async (body: unknown) => {
    const answer = await call('POST', '/testsuites', { body });
    expect(answer.status).toBe(201);
    return answer.body.data as { id: string; [member: string]: unknown };
  };
  const caseSuite = async (caseId: string) =>
    (await call('GET', `/testcases/${caseId}`)).body.data.testSuiteId;

  it('lists suites with the seed table fields, without runCount', async () => {
    const answer = await call('GET', '/testsuites');
    expect(answer.status).toBe(200);
    expect(answer.body.data.total).toBe(2);
    const [smoke, regression] = answer.body.data.items;
    expect(smoke).toEqual({
      id: SMOKE_SUITE_ID,
      orgId: expect.any(String),
      teamId: expect.any(String),
      name: 'Smoke',
      tags: ['smoke', 'checkout'],
      creationDate: expect.stringMatching(ISO),
      lastUpdate: expect.stringMatching(ISO),
      creatorUserId: DEMO_USER_ID,
      creatorUserName: 'Demo User',
      lastModifierUserId: DEMO_USER_ID,
      lastModifierUserName: 'Demo User',
      testCaseCount: 3,
    });
    expect(regression).toMatchObject({
      id: REGRESSION_SUITE_ID,
      name: 'Regression',
      testCaseCount: REGRESSION_CASE_IDS.length,
    });
  });

  it('creates a suite (201) that takes its cases, with runCount', async () => {
    const suite = await create({ name: 'Profile', testCases: [UNASSIGNED_CASE_IDS[0]] });
    expect(suite).toMatchObject({
      id: expect.stringMatching(UUID),
      name: 'Profile',
      testCaseCount: 1,
      runCount: 0,
      creatorUserId: DEMO_USER_ID,
      creationDate: expect.stringMatching(ISO),
    });
    expect(await caseSuite(UNASSIGNED_CASE_IDS[0])).toBe(suite.id);
    const got = await call('GET', `/testsuites/${suite.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(suite);
  });

  it('moves a case out of its former suite when a new suite takes it', async () => {
    await create({ name: 'Login only', testCases: [SMOKE_CASE_IDS[0]] });
    expect((await call('GET', `/testsuites/${SMOKE_SUITE_ID}`)).body.data.testCaseCount).toBe(2);
  });

  it('answers 404 when creating a suite with unknown cases, and creates nothing', async () => {
    const answer = await call('POST', '/testsuites', { body: { name: 'Ghost', testCases: [UNKNOWN_HEX] } });
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('NOT_FOUND');
    expect((await call('GET', '/testsuites')).body.data.total).toBe(2);
  });

  it.each([
    ['no name', { testCases: [] }],
    ['a name that is not text', { name: 3 }],
    ['an invalid case id', { name: 'x', testCases: ['123'] }],
    ['a case list that is not a list', { name: 'x', testCases: SMOKE_CASE_IDS[0] }],
  ])('refuses to create a suite with %s (400)', async (_what, body) => {
    const answer = await call('POST', '/testsuites', { body });
    expect(answer.status).toBe(400);
  });

  it('filters by ids, search, dates, creator and team, and pages', async () => {
    const profile = await create({ name: 'Profile checks' });
    const both = await call('GET', '/testsuites', { query: { ids: [SMOKE_SUITE_ID, profile.id] } });
    expect(both.body.data.total).toBe(2);
    const one = await call('GET', '/testsuites', { query: { ids: profile.id } });
    expect(one.body.data.items.map((suite: { id: string }) => suite.id)).toEqual([profile.id]);
    const search = await call('GET', '/testsuites', { query: { search: 'sMoK' } });
    expect(search.body.data.items.map((suite: { id: string }) => suite.id)).toEqual([SMOKE_SUITE_ID]);
    const early = await call('GET', '/testsuites', { query: { endDate: '2026-01-02' } });
    expect(early.body.data.items.map((suite: { id: string }) => suite.id)).toEqual([
      SMOKE_SUITE_ID,
      REGRESSION_SUITE_ID,
    ]);
    const earliest = await call('GET', '/testsuites', { query: { endDate: '2025-12-31' } });
    expect(earliest.body.data.items.map((suite: { id: string }) => suite.id)).toEqual([REGRESSION_SUITE_ID]);
    const late = await call('GET', '/testsuites', { query: { startDate: '2026-01-02T09:00:01Z' } });
    expect(late.body.data.items.map((suite: { id: string }) => suite.id)).toEqual([profile.id]);
    const byUser = await call('GET', '/testsuites', { query: { userId: DEMO_USER_ID } });
    expect(byUser.body.data.total).toBe(3);
    const byTeam = await call('GET', '/testsuites', { query: { teamId: QA_TEAM_ID } });
    expect(byTeam.body.data.total).toBe(0);
    const paged = await call('GET', '/testsuites', { query: { skip: 1, limit: 1 } });
    expect(paged.body.data).toMatchObject({ total: 3, items: [{ id: SMOKE_SUITE_ID }] });
    const countOnly = await call('GET', '/testsuites', { query: { limit: 0 } });
    expect(countOnly.body.data).toEqual({ items: [], total: 3 });
  });

  it.each([{ ids: 'nope' }, { skip: -2 }, { limit: 'ten' }, { startDate: '01/02/2026' }])(
    'answers 400 to the invalid query %o',
    async (query) => {
      expect((await call('GET', '/testsuites', { query })).status).toBe(400);
    },
  );

  it('answers 400 to an invalid suite id and 404 to an unknown one', async () => {
    expect((await call('GET', '/testsuites/123')).status).toBe(400);
    expect((await call('GET', `/testsuites/${UNKNOWN_UUID}`)).status).toBe(404);
    expect((await call('POST', `/testsuites/${UNKNOWN_UUID}`, { body: { testCaseIds: [] } })).status).toBe(
      404,
    );
    expect((await call('DELETE', `/testsuites/${UNKNOWN_UUID}`)).status).toBe(404);
  });

  it('update replaces the case list: cases left out become unassigned', async () => {
    const answer = await call('POST', `/testsuites/${SMOKE_SUITE_ID}`, {
      body: { name: 'Smoke v2', testCaseIds: [SMOKE_CASE_IDS[0], UNASSIGNED_CASE_IDS[0]] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ name: 'Smoke v2', testCaseCount: 2, runCount: 0 });
    expect(await caseSuite(UNASSIGNED_CASE_IDS[0])).toBe(SMOKE_SUITE_ID);
    expect(await caseSuite(SMOKE_CASE_IDS[1])).toBeNull();
    expect(await caseSuite(SMOKE_CASE_IDS[2])).toBeNull();
  });

  it('update without a name keeps it', async () => {
    const answer = await call('POST', `/testsuites/${SMOKE_SUITE_ID}`, { body: { testCaseIds: [] } });
    expect(answer.body.data).toMatchObject({ name: 'Smoke', testCaseCount: 0 });
  });

  it.each([
    ['unknown', { testCaseIds: [UNKNOWN_HEX] }],
    ['invalid', { testCaseIds: ['xyz'] }],
    ['missing', { name: 'Only a name' }],
    ['repeated', { testCaseIds: [SMOKE_CASE_IDS[0], SMOKE_CASE_IDS[0]] }],
  ])('update with %s cases answers 400 and changes nothing', async (_what, body) => {
    const answer = await call('POST', `/testsuites/${SMOKE_SUITE_ID}`, { body });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('BAD_REQUEST');
    const suite = (await call('GET', `/testsuites/${SMOKE_SUITE_ID}`)).body.data;
    expect(suite).toMatchObject({ name: 'Smoke', testCaseCount: 3 });
  });

  it('delete without deleteTestCases leaves the cases, unassigned, and drops the suite from schedules', async () => {
    const answer = await call('DELETE', `/testsuites/${SMOKE_SUITE_ID}`);
    expect(answer.status).toBe(204);
    expect((await call('GET', `/testsuites/${SMOKE_SUITE_ID}`)).status).toBe(404);
    for (const caseId of SMOKE_CASE_IDS) expect(await caseSuite(caseId)).toBeNull();
    const schedule = await call('GET', `/test-schedules/${NIGHTLY_SCHEDULE_ID}`);
    expect(schedule.body.data.testSuiteIds).toEqual([]);
  });

  it('delete with deleteTestCases false in the body also keeps the cases', async () => {
    const answer = await call('DELETE', `/testsuites/${SMOKE_SUITE_ID}`, {
      body: { deleteTestCases: false },
    });
    expect(answer.status).toBe(204);
    expect((await call('GET', '/testcases', { query: { limit: 0 } })).body.data.total).toBe(SEED_CASES);
  });

  it('delete with deleteTestCases true deletes the cases too', async () => {
    const answer = await call('DELETE', `/testsuites/${SMOKE_SUITE_ID}`, { body: { deleteTestCases: true } });
    expect(answer.status).toBe(204);
    for (const caseId of SMOKE_CASE_IDS) expect((await call('GET', `/testcases/${caseId}`)).status).toBe(404);
    expect((await call('GET', '/testcases', { query: { limit: 0 } })).body.data.total).toBe(
      SEED_CASES - SMOKE_CASE_IDS.length,
    );
  });

  it('reads deleteTestCases from the query as well, and refuses a non-boolean (400)', async () => {
    const bad = await call('DELETE', `/testsuites/${SMOKE_SUITE_ID}`, { body: { deleteTestCases: 'yes' } });
    expect(bad.status).toBe(400);
    const answer = await call('DELETE', `/testsuites/${SMOKE_SUITE_ID}`, {
      query: { deleteTestCases: 'true' },
    });
    expect(answer.status).toBe(204);
    expect((await call('GET', '/testcases', { query: { limit: 0 } })).body.data.total).toBe(
      SEED_CASES - SMOKE_CASE_IDS.length,
    );
  });

  it('accepts a DELETE that announces JSON but sends no body', async () => {
    const answer = await call('DELETE', `/testsuites/${SMOKE_SUITE_ID}`, { rawBody: '' });
    expect(answer.status).toBe(204);
  });
});
