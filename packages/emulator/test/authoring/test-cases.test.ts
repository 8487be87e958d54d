import { describe, expect, it } from 'vitest';
import { basic, withEmulator } from '../support/emulator.ts';
import {
  DEMO_USER_ID,
  HEX,
  ISO,
  QA_TEAM_ID,
  REGRESSION_CASE_IDS,
  REGRESSION_SUITE_ID,
  SEED_CASES,
  SERVICE_USER_ID,
  SMOKE_CASE_IDS,
  SMOKE_SUITE_ID,
  UNASSIGNED_CASE_IDS,
  UNKNOWN_HEX,
  UNKNOWN_UUID,
} from './fixtures.ts';
import { authoringClient } from './http.ts';

describe('authoring test cases', () => {
  const handle = withEmulator({ jobDurationMs: 50 });
  const call = authoringClient(() => handle.url);
  const ids = (answer: { body: { data: { items: { id: string }[] } } }) =>
    answer.body.data.items.map((item) => item.id).sort();

  it('lists every seeded case with the seed table fields, newest first', async () => {
    const answer = await call('GET', '/testcases');
    expect(answer.status).toBe(200);
    expect(answer.body.data.total).toBe(SEED_CASES);
    const items = answer.body.data.items;
    expect(items).toHaveLength(SEED_CASES);
    const dates = items.map((item: { creationDate: string }) => item.creationDate);
    expect([...dates].sort().reverse()).toEqual(dates);
    const login = items.find((item: { id: string }) => item.id === SMOKE_CASE_IDS[0]);
    expect(login).toMatchObject({
      id: expect.stringMatching(HEX),
      orgId: expect.any(String),
      teamId: expect.any(String),
      creatorUserId: DEMO_USER_ID,
      lastModifierUserId: DEMO_USER_ID,
      testSuiteId: SMOKE_SUITE_ID,
      name: 'Login works',
      creationDate: expect.stringMatching(ISO),
      lastUpdateDate: expect.stringMatching(ISO),
      runSettings: {
        testUrl: expect.any(String),
        primaryTarget: {
          capabilities: { browserName: 'chrome', browserVersion: 'latest', platformName: 'Windows 11' },
          isRdc: false,
        },
      },
    });
    // Revisions, user names and the emulator's outcome switch are not part of list items.
    expect(login).not.toHaveProperty('revisions');
    expect(login).not.toHaveProperty('creatorUserName');
    expect(login).not.toHaveProperty('expectedOutcome');
    // Regression's cases, Case 01 to Case 12, one run target each, come last (the oldest).
    const regression = items.slice(-REGRESSION_CASE_IDS.length);
    expect(regression.map((item: { name: string }) => item.name).reverse()).toEqual(
      Array.from({ length: 12 }, (_, index) => `Case ${String(index + 1).padStart(2, '0')}`),
    );
    for (const item of regression) {
      expect(item.testSuiteId).toBe(REGRESSION_SUITE_ID);
      expect(item.runSettings.primaryTarget.capabilities.browserName).toEqual(expect.any(String));
      expect(item.runSettings).not.toHaveProperty('additionalTargets');
      expect(item).not.toHaveProperty('expectedOutcome');
    }
  });

  it('searches names case-insensitively', async () => {
    const answer = await call('GET', '/testcases', { query: { search: 'CHECKOUT' } });
    expect(ids(answer)).toEqual([SMOKE_CASE_IDS[2]]);
  });

  it('bounds the creation date inclusively, a date-only end covering its day', async () => {
    const both = await call('GET', '/testcases', {
      query: { startDate: '2026-01-12T10:00:00.000Z', endDate: '2026-01-20T10:00:00.000Z' },
    });
    expect(ids(both)).toEqual([SMOKE_CASE_IDS[1], SMOKE_CASE_IDS[2]].sort());
    const day = await call('GET', '/testcases', {
      query: { startDate: '2026-02-03', endDate: '2026-02-03' },
    });
    expect(ids(day)).toEqual([UNASSIGNED_CASE_IDS[0]]);
  });

  it('filters by creator and team', async () => {
    const byUser = await call('GET', '/testcases', { query: { userId: SERVICE_USER_ID } });
    expect(ids(byUser)).toEqual([UNASSIGNED_CASE_IDS[0]]);
    const byTeam = await call('GET', '/testcases', { query: { teamId: QA_TEAM_ID } });
    expect(ids(byTeam)).toEqual([UNASSIGNED_CASE_IDS[0]]);
    const nobody = await call('GET', '/testcases', { query: { userId: UNKNOWN_UUID } });
    expect(nobody.body.data).toEqual({ items: [], total: 0 });
  });

  it('filters by one suite, several, or null for unassigned cases', async () => {
    const smoke = await call('GET', '/testcases', { query: { testSuiteId: SMOKE_SUITE_ID } });
    expect(ids(smoke)).toEqual([...SMOKE_CASE_IDS].sort());
    const unassigned = await call('GET', '/testcases', { query: { testSuiteId: 'null' } });
    expect(ids(unassigned)).toEqual([...UNASSIGNED_CASE_IDS].sort());
    const both = await call('GET', '/testcases', { query: { testSuiteId: [SMOKE_SUITE_ID, 'null'] } });
    expect(both.body.data.total).toBe(5);
    const regression = await call('GET', '/testcases', { query: { testSuiteId: REGRESSION_SUITE_ID } });
    expect(ids(regression)).toEqual([...REGRESSION_CASE_IDS].sort());
    const other = await call('GET', '/testcases', { query: { testSuiteId: [UNKNOWN_UUID] } });
    expect(other.body.data.total).toBe(0);
  });

  it('pages with skip and limit; limit 0 answers only the total', async () => {
    const all = await call('GET', '/testcases');
    const page = await call('GET', '/testcases', { query: { skip: 1, limit: 2 } });
    expect(page.body.data.total).toBe(SEED_CASES);
    expect(page.body.data.items).toEqual(all.body.data.items.slice(1, 3));
    const countOnly = await call('GET', '/testcases', { query: { limit: 0 } });
    expect(countOnly.body.data).toEqual({ items: [], total: SEED_CASES });
    const beyond = await call('GET', '/testcases', { query: { skip: 20 } });
    expect(beyond.body.data).toEqual({ items: [], total: SEED_CASES });
  });

  it.each([
    ['skip', { skip: -1 }],
    ['skip', { skip: 'x' }],
    ['limit', { limit: 1.5 }],
    ['limit', { limit: -1 }],
    ['startDate', { startDate: 'yesterday' }],
    ['endDate', { endDate: '2026-13-01' }],
    ['userId', { userId: 'not-a-uuid' }],
    ['teamId', { teamId: '123' }],
    ['testSuiteId', { testSuiteId: 'nope' }],
  ])('answers 400 to an invalid %s', async (member, query) => {
    const answer = await call('GET', '/testcases', { query });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('BAD_REQUEST');
    expect(answer.body.error.detail).toContain(member);
  });

  it('gets one case with revisions and user names', async () => {
    const answer = await call('GET', `/testcases/${SMOKE_CASE_IDS[2]}`);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      id: SMOKE_CASE_IDS[2],
      name: 'Checkout fails',
      creatorUserName: 'Demo User',
      lastModifierUserName: 'Demo User',
    });
    expect(answer.body.data.revisions).toEqual([
      expect.objectContaining({
        id: expect.stringMatching(HEX),
        revisionNumber: 1,
        creatorUserId: DEMO_USER_ID,
      }),
    ]);
  });

  it('answers 400 to an invalid id and 404 to an unknown one', async () => {
    const invalid = await call('GET', '/testcases/not-hex');
    expect(invalid.status).toBe(400);
    const unknown = await call('GET', `/testcases/${UNKNOWN_HEX}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error: { code: 'NOT_FOUND', detail: expect.stringContaining(UNKNOWN_HEX) },
    });
  });

  it('deletes a case (204), after which it is gone', async () => {
    const deleted = await call('DELETE', `/testcases/${UNASSIGNED_CASE_IDS[1]}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBe('');
    expect((await call('GET', `/testcases/${UNASSIGNED_CASE_IDS[1]}`)).status).toBe(404);
    expect((await call('GET', '/testcases', { query: { limit: 0 } })).body.data.total).toBe(SEED_CASES - 1);
    expect((await call('DELETE', `/testcases/${UNASSIGNED_CASE_IDS[1]}`)).status).toBe(404);
    expect((await call('DELETE', '/testcases/xyz')).status).toBe(400);
  });

  it('renames a case, recording who changed it and when', async () => {
    const before = await call('GET', `/testcases/${SMOKE_CASE_IDS[0]}`);
    const answer = await call('POST', `/testcases/${SMOKE_CASE_IDS[0]}/rename`, {
      body: { name: 'Sign-in works' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ name: 'Sign-in works', lastModifierUserName: 'Demo User' });
    expect(answer.body.data.revisions).toHaveLength(1);
    expect(Date.parse(answer.body.data.lastUpdateDate)).toBeGreaterThan(
      Date.parse(before.body.data.lastUpdateDate),
    );
    const after = await call('GET', `/testcases/${SMOKE_CASE_IDS[0]}`);
    expect(after.body.data.name).toBe('Sign-in works');
  });

  it.each([
    ['no name', {}],
    ['an empty name', { name: '' }],
    ['a blank name', { name: '   ' }],
    ['a name that is not text', { name: 5 }],
  ])('refuses a rename with %s (400)', async (_what, body) => {
    const answer = await call('POST', `/testcases/${SMOKE_CASE_IDS[0]}/rename`, { body });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('BAD_REQUEST');
  });

  it('refuses a body that is not JSON (400) and renames of unknown cases (404)', async () => {
    const broken = await call('POST', `/testcases/${SMOKE_CASE_IDS[0]}/rename`, { rawBody: '{"name":' });
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe('BAD_REQUEST');
    const unknown = await call('POST', `/testcases/${UNKNOWN_HEX}/rename`, { body: { name: 'x' } });
    expect(unknown.status).toBe(404);
  });

  it('answers 401 without, or with wrong, credentials and never repeats them', async () => {
    const none = await call('GET', '/testcases', { auth: null });
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('UNAUTHORIZED');
    const wrong = await call('GET', `/testcases/${SMOKE_CASE_IDS[0]}`, {
      auth: basic('demo', 'secret-guess-123'),
    });
    expect(wrong.status).toBe(401);
    expect(JSON.stringify(wrong.body)).not.toContain('secret-guess-123');
    const bearer = await call('DELETE', `/testcases/${SMOKE_CASE_IDS[0]}`, {
      auth: 'Bearer demo-access-key',
    });
    expect(bearer.status).toBe(401);
    // Nothing was deleted by the refused request.
    expect((await call('GET', `/testcases/${SMOKE_CASE_IDS[0]}`)).status).toBe(200);
  });

  it('answers unknown paths under the prefix with a JSON 404', async () => {
    const answer = await call('GET', '/nothing-here');
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('NOT_FOUND');
  });
});
