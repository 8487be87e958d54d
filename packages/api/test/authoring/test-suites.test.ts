import { afterEach, describe, expect, it } from 'vitest';
import { collect } from '../../src/core/resources/pagination.ts';
import { mockClient, type MockSetup } from '../support/mock.ts';
import { apiErrorOf, CASE_ID, expectAuthenticated, ORIGIN, PREFIX, SUITE_ID, testSuite } from './fixtures.ts';

describe('authoring test suites', () => {
  let setup: MockSetup;
  afterEach(async () => {
    await setup.agent.close();
  });

  it('lists one page with every filter in the query', async () => {
    setup = mockClient();
    const items = [testSuite(1)];
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testsuites`, { body: { data: { items, total: 1 } } });
    const page = await setup.client.authoring.testSuites.list({
      ids: SUITE_ID,
      search: 'smoke',
      startDate: '2026-01-01T00:00:00Z',
      endDate: new Date('2026-03-01T12:00:00Z'),
      userId: 'user-1',
      teamId: 'team-1',
      skip: 0,
      limit: 50,
    });
    expect(page).toEqual({ items, total: 1 });
    const [request] = setup.requests;
    expectAuthenticated(request);
    expect(request!.method).toBe('GET');
    expect(request!.pathname).toBe(`${PREFIX}/testsuites`);
    expect(Object.fromEntries(request!.query)).toEqual({
      ids: SUITE_ID,
      search: 'smoke',
      startDate: '2026-01-01T00:00:00Z',
      endDate: '2026-03-01T12:00:00.000Z',
      userId: 'user-1',
      teamId: 'team-1',
      skip: '0',
      limit: '50',
    });
  });

  it('repeats ids given as an array', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testsuites`, { body: { data: { items: [], total: 0 } } });
    await setup.client.authoring.testSuites.list({ ids: ['s-1', 's-2'] });
    expect(setup.requests[0]!.query.getAll('ids')).toEqual(['s-1', 's-2']);
    expect(setup.requests[0]!.query.has('skip')).toBe(false);
  });

  it('iterates over every page and stops at maxItems', async () => {
    setup = mockClient();
    const all = [1, 2, 3].map((i) => testSuite(i));
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testsuites`, {
      body: { data: { items: all.slice(0, 2), total: 3 } },
    });
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testsuites`, { body: { data: { items: all.slice(2), total: 3 } } });
    const items = await collect(setup.client.authoring.testSuites.iterate({ search: 'S' }, { pageSize: 2 }));
    expect(items.map((s) => s.name)).toEqual(['Suite 1', 'Suite 2', 'Suite 3']);
    expect(setup.requests.map((r) => r.query.get('skip'))).toEqual(['0', '2']);
    expect(setup.requests.every((r) => r.query.get('search') === 'S')).toBe(true);

    setup.reply(ORIGIN, 'GET', `${PREFIX}/testsuites`, {
      body: { data: { items: all.slice(0, 2), total: 3 } },
    });
    const first = await collect(setup.client.authoring.testSuites.iterate({}, { pageSize: 2, maxItems: 1 }));
    expect(first.map((s) => s.name)).toEqual(['Suite 1']);
    expect(setup.requests).toHaveLength(3);
  });

  it('iterates in wide pages, paging on by what the service serves and its total', async () => {
    setup = mockClient();
    const all = Array.from({ length: 150 }, (_, i) => testSuite(i + 1));
    // A service that serves 100 whatever is asked: two pages, every item.
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testsuites`, {
      body: { data: { items: all.slice(0, 100), total: 150 } },
    });
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testsuites`, {
      body: { data: { items: all.slice(100), total: 150 } },
    });
    const items = await collect(setup.client.authoring.testSuites.iterate({}));
    expect(items).toHaveLength(150);
    expect(setup.requests.map((r) => [r.query.get('skip'), r.query.get('limit')])).toEqual([
      ['0', '1000'],
      ['100', '1000'],
    ]);
  });

  it('asks a service that refuses a wide page for pages of 100, and keeps to them', async () => {
    setup = mockClient();
    const all = Array.from({ length: 150 }, (_, i) => testSuite(i + 1));
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testsuites`, {
      status: 400,
      body: { error: { code: 'invalid_query', detail: 'limit must be at most 100' } },
    });
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testsuites`, {
      body: { data: { items: all.slice(0, 100), total: 150 } },
    });
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testsuites`, {
      body: { data: { items: all.slice(100), total: 150 } },
    });
    const items = await collect(setup.client.authoring.testSuites.iterate({}));
    expect(items).toHaveLength(150);
    expect(setup.requests.map((r) => [r.query.get('skip'), r.query.get('limit')])).toEqual([
      ['0', '1000'],
      ['0', '100'],
      ['100', '100'],
    ]);
  });

  it('fails on a 400 that a page of 100 meets too', async () => {
    setup = mockClient();
    for (let k = 0; k < 2; k++) {
      setup.reply(ORIGIN, 'GET', `${PREFIX}/testsuites`, {
        status: 400,
        body: { error: { code: 'invalid_query', detail: 'bad teamId' } },
      });
    }
    await expect(collect(setup.client.authoring.testSuites.iterate({ teamId: 'x' }))).rejects.toMatchObject({
      status: 400,
    });
    expect(setup.requests.map((r) => r.query.get('limit'))).toEqual(['1000', '100']);
  });

  it('creates a suite and reads the 201', async () => {
    setup = mockClient();
    const created = testSuite(1, { name: 'Smoke', testCaseCount: 2 });
    setup.reply(ORIGIN, 'POST', `${PREFIX}/testsuites`, { status: 201, body: { data: created } });
    const result = await setup.client.authoring.testSuites.create({
      name: 'Smoke',
      testCases: [CASE_ID, 'c2'],
    });
    expect(result).toEqual(created);
    const [request] = setup.requests;
    expectAuthenticated(request);
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe(`${PREFIX}/testsuites`);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.json).toEqual({ name: 'Smoke', testCases: [CASE_ID, 'c2'] });
  });

  it('gets one suite', async () => {
    setup = mockClient();
    const suite = testSuite(4, { runCount: 12 });
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testsuites/${SUITE_ID}`, { body: { data: suite } });
    const result = await setup.client.authoring.testSuites.get(SUITE_ID);
    expect(result.runCount).toBe(12);
    expect(result).toEqual(suite);
    const [request] = setup.requests;
    expectAuthenticated(request);
    expect(request!.method).toBe('GET');
    expect(request!.path).toBe(`${PREFIX}/testsuites/${SUITE_ID}`);
  });

  it('updates a suite with POST on its path', async () => {
    setup = mockClient();
    const updated = testSuite(1, { name: 'Smoke 2', testCaseCount: 1 });
    setup.reply(ORIGIN, 'POST', `${PREFIX}/testsuites/${SUITE_ID}`, { body: { data: updated } });
    const result = await setup.client.authoring.testSuites.update(SUITE_ID, {
      name: 'Smoke 2',
      testCaseIds: [CASE_ID],
    });
    expect(result).toEqual(updated);
    const [request] = setup.requests;
    expectAuthenticated(request);
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe(`${PREFIX}/testsuites/${SUITE_ID}`);
    expect(request!.json).toEqual({ name: 'Smoke 2', testCaseIds: [CASE_ID] });
  });

  it('deletes a suite, with the deleteTestCases body only when asked', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'DELETE', `${PREFIX}/testsuites/${SUITE_ID}`, { status: 204 });
    setup.reply(ORIGIN, 'DELETE', `${PREFIX}/testsuites/${SUITE_ID}`, { status: 204 });
    setup.reply(ORIGIN, 'DELETE', `${PREFIX}/testsuites/${SUITE_ID}`, { status: 204 });
    await expect(setup.client.authoring.testSuites.delete(SUITE_ID)).resolves.toBeUndefined();
    await setup.client.authoring.testSuites.delete(SUITE_ID, { deleteTestCases: true });
    await setup.client.authoring.testSuites.delete(SUITE_ID, { deleteTestCases: false });
    const [plain, withCases, withoutCases] = setup.requests;
    for (const request of setup.requests) {
      expectAuthenticated(request);
      expect(request.method).toBe('DELETE');
      expect(request.path).toBe(`${PREFIX}/testsuites/${SUITE_ID}`);
    }
    expect(plain!.body).toBe('');
    expect(plain!.headers['content-type']).toBeUndefined();
    expect(withCases!.json).toEqual({ deleteTestCases: true });
    expect(withoutCases!.json).toEqual({ deleteTestCases: false });
  });

  it('runs a suite with a build name and reads the suite run', async () => {
    setup = mockClient();
    const run = {
      id: 'srun-1',
      buildName: 'nightly - 1',
      runCount: 3,
      orgId: 'org-1',
      teamId: 'team-1',
      userId: 'u',
    };
    setup.reply(ORIGIN, 'POST', `${PREFIX}/testsuites/${SUITE_ID}/run`, { body: { data: run } });
    const result = await setup.client.authoring.testSuites.run(SUITE_ID, { buildName: 'nightly' });
    expect(result).toEqual(run);
    expect(result.runCount).toBe(3);
    const [request] = setup.requests;
    expectAuthenticated(request);
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe(`${PREFIX}/testsuites/${SUITE_ID}/run`);
    expect(request!.json).toEqual({ buildName: 'nightly' });
  });

  it('runs a suite without a build name as an empty JSON body', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'POST', `${PREFIX}/testsuites/${SUITE_ID}/run`, {
      body: { data: { id: 'srun-2', buildName: 'Smoke', runCount: 1 } },
    });
    const result = await setup.client.authoring.testSuites.run(SUITE_ID);
    expect(result.buildName).toBe('Smoke');
    expect(setup.requests[0]!.json).toEqual({});
  });

  it('reports a missing suite on run, without secrets', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'POST', `${PREFIX}/testsuites/${SUITE_ID}/run`, {
      status: 404,
      body: { error: { code: 'NOT_FOUND', detail: 'test suite not found' } },
    });
    const error = await apiErrorOf(setup.client.authoring.testSuites.run(SUITE_ID, { buildName: 'b' }));
    expect(error.message).toBe(
      `runSuite: 404 test suite not found (POST ${PREFIX}/testsuites/${SUITE_ID}/run)`,
    );
    expect(error.status).toBe(404);
    expect(error.code).toBe('NOT_FOUND');
    // A run is not idempotent: the failed request is not repeated.
    expect(setup.requests).toHaveLength(1);
  });

  it('reports a rejected update', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'POST', `${PREFIX}/testsuites/${SUITE_ID}`, {
      status: 400,
      body: { error: { code: 'INVALID_TEST_CASES', detail: 'unknown test cases: x' } },
    });
    const error = await apiErrorOf(
      setup.client.authoring.testSuites.update(SUITE_ID, { testCaseIds: ['x'] }),
    );
    expect(error.message).toBe(
      `updateTestSuite: 400 unknown test cases: x (POST ${PREFIX}/testsuites/${SUITE_ID})`,
    );
  });
});
