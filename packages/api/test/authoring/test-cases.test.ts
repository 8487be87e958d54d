import { afterEach, describe, expect, it } from 'vitest';
import { collect } from '../../src/core/resources/pagination.ts';
import { ResponseShapeError } from '../../src/core/resources/shape.ts';
import { mockClient, type MockSetup } from '../support/mock.ts';
import { apiErrorOf, CASE_ID, expectAuthenticated, ORIGIN, PREFIX, SUITE_ID, testCase } from './fixtures.ts';

describe('authoring test cases', () => {
  let setup: MockSetup;
  afterEach(async () => {
    await setup.agent.close();
  });

  it('lists one page with every filter in the query', async () => {
    setup = mockClient();
    const items = [testCase(1), testCase(2)];
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testcases`, { body: { data: { items, total: 7 } } });
    const page = await setup.client.authoring.testCases.list({
      search: 'checkout',
      startDate: new Date('2026-01-01T00:00:00Z'),
      endDate: '2026-02-01',
      userId: 'user-1',
      teamId: 'team-1',
      testSuiteId: SUITE_ID,
      skip: 20,
      limit: 2,
    });
    expect(page).toEqual({ items, total: 7 });
    const [request] = setup.requests;
    expectAuthenticated(request);
    expect(request!.method).toBe('GET');
    expect(request!.pathname).toBe(`${PREFIX}/testcases`);
    expect(Object.fromEntries(request!.query)).toEqual({
      search: 'checkout',
      startDate: '2026-01-01T00:00:00.000Z',
      endDate: '2026-02-01',
      userId: 'user-1',
      teamId: 'team-1',
      testSuiteId: SUITE_ID,
      skip: '20',
      limit: '2',
    });
    expect(request!.body).toBe('');
  });

  it('sends testSuiteId null for unassigned cases, repeats it for an array, and limit 0 for the total', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testcases`, { body: { data: { items: [], total: 4 } } });
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testcases`, { body: { data: { items: [], total: 9 } } });
    const unassigned = await setup.client.authoring.testCases.list({ testSuiteId: null, limit: 0 });
    const several = await setup.client.authoring.testCases.list({ testSuiteId: ['a', 'b', null] });
    expect(unassigned.total).toBe(4);
    expect(several.total).toBe(9);
    const [first, second] = setup.requests;
    expect(first!.query.getAll('testSuiteId')).toEqual(['null']);
    expect(first!.query.get('limit')).toBe('0');
    expect(second!.query.getAll('testSuiteId')).toEqual(['a', 'b', 'null']);
    expect(second!.query.has('limit')).toBe(false);
  });

  it('iterates over every page with skip and limit', async () => {
    setup = mockClient();
    const all = [1, 2, 3, 4, 5].map((i) => testCase(i));
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testcases`, {
      body: { data: { items: all.slice(0, 2), total: 5 } },
    });
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testcases`, {
      body: { data: { items: all.slice(2, 4), total: 5 } },
    });
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testcases`, { body: { data: { items: all.slice(4), total: 5 } } });
    const items = await collect(
      setup.client.authoring.testCases.iterate({ search: 'shop', testSuiteId: null }, { pageSize: 2 }),
    );
    expect(items.map((item) => item.id)).toEqual(all.map((item) => item.id));
    expect(setup.requests.map((r) => [r.query.get('skip'), r.query.get('limit')])).toEqual([
      ['0', '2'],
      ['2', '2'],
      ['4', '2'],
    ]);
    for (const request of setup.requests) {
      expect(request.query.get('search')).toBe('shop');
      expect(request.query.get('testSuiteId')).toBe('null');
      expectAuthenticated(request);
    }
  });

  it('gets one case with revisions and user names, passing unknown fields through', async () => {
    setup = mockClient();
    const detail = {
      ...testCase(1),
      revisions: [{ id: 'rev-1', steps: 4 }],
      creatorUserName: 'alice',
      lastModifierUserName: 'bob',
      futureField: { kept: true },
    };
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testcases/${CASE_ID}`, { body: { data: detail } });
    const result = await setup.client.authoring.testCases.get(CASE_ID);
    expect(result).toEqual(detail);
    expect(result.revisions?.[0]).toEqual({ id: 'rev-1', steps: 4 });
    expect(result.lastModifierUserName).toBe('bob');
    const [request] = setup.requests;
    expectAuthenticated(request);
    expect(request!.method).toBe('GET');
    expect(request!.path).toBe(`${PREFIX}/testcases/${CASE_ID}`);
  });

  it('deletes a case and reads the empty 204', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'DELETE', `${PREFIX}/testcases/${CASE_ID}`, { status: 204 });
    await expect(setup.client.authoring.testCases.delete(CASE_ID)).resolves.toBeUndefined();
    const [request] = setup.requests;
    expectAuthenticated(request);
    expect(request!.method).toBe('DELETE');
    expect(request!.path).toBe(`${PREFIX}/testcases/${CASE_ID}`);
    expect(request!.body).toBe('');
  });

  it('runs a case with build name, targets and tunnel, and reads the case run', async () => {
    setup = mockClient();
    const run = {
      id: 'run-1',
      orgId: 'org-1',
      teamId: 'team-1',
      userId: 'user-1',
      testCaseId: CASE_ID,
      build: 'release 1.2 - 1',
      jobs: [
        {
          id: 'job-1',
          sauceJobId: 'abc123',
          name: 'Case 1',
          target: { capabilities: { browserName: 'chrome' } },
          url: 'https://app.saucelabs.com/tests/abc123',
          isRdc: false,
          success: null,
          error: null,
        },
      ],
      creationDate: '2026-01-02T03:04:05Z',
      testUrl: 'https://shop.example.com',
    };
    setup.reply(ORIGIN, 'POST', `${PREFIX}/testcases/${CASE_ID}/run`, { body: { data: run } });
    const targets = [{ capabilities: { browserName: 'chrome', platformName: 'Windows 11' } }];
    const result = await setup.client.authoring.testCases.run(CASE_ID, {
      buildName: 'release 1.2',
      targets,
      scTunnelName: 'demo-tunnel',
    });
    expect(result).toEqual(run);
    expect(result.jobs[0]?.sauceJobId).toBe('abc123');
    const [request] = setup.requests;
    expectAuthenticated(request);
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe(`${PREFIX}/testcases/${CASE_ID}/run`);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.json).toEqual({ buildName: 'release 1.2', targets, scTunnelName: 'demo-tunnel' });
  });

  it('runs a given revision through the path, with an empty body and a null tunnel', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'POST', `${PREFIX}/testcases/${CASE_ID}/run/rev-7`, {
      body: { data: { id: 'run-2', testCaseId: CASE_ID, build: 'b', jobs: [] } },
    });
    setup.reply(ORIGIN, 'POST', `${PREFIX}/testcases/${CASE_ID}/run`, {
      body: { data: { id: 'run-3', testCaseId: CASE_ID, build: 'b', jobs: [] } },
    });
    const revision = await setup.client.authoring.testCases.run(CASE_ID, { revisionId: 'rev-7' });
    const noTunnel = await setup.client.authoring.testCases.run(CASE_ID, { scTunnelName: null });
    expect(revision.id).toBe('run-2');
    expect(noTunnel.id).toBe('run-3');
    const [first, second] = setup.requests;
    expect(first!.path).toBe(`${PREFIX}/testcases/${CASE_ID}/run/rev-7`);
    expect(first!.json).toEqual({});
    expect(second!.json).toEqual({ scTunnelName: null });
  });

  it('renames a case', async () => {
    setup = mockClient();
    const renamed = { ...testCase(1), name: 'Checkout works', revisions: [] };
    setup.reply(ORIGIN, 'POST', `${PREFIX}/testcases/${CASE_ID}/rename`, { body: { data: renamed } });
    const result = await setup.client.authoring.testCases.rename(CASE_ID, 'Checkout works');
    expect(result.name).toBe('Checkout works');
    expect(result).toEqual(renamed);
    const [request] = setup.requests;
    expectAuthenticated(request);
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe(`${PREFIX}/testcases/${CASE_ID}/rename`);
    expect(request!.json).toEqual({ name: 'Checkout works' });
  });

  it('encodes identifiers as one path segment', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testcases/a%2Fb%3Fc`, { body: { data: testCase(1) } });
    await setup.client.authoring.testCases.get('a/b?c');
    expect(setup.requests[0]!.path).toBe(`${PREFIX}/testcases/a%2Fb%3Fc`);
  });

  it('reads the service error of a failed run, without secrets', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'POST', `${PREFIX}/testcases/${CASE_ID}/run`, {
      status: 400,
      body: { error: { code: 'BAD_REQUEST', detail: 'no run targets configured' } },
    });
    const error = await apiErrorOf(setup.client.authoring.testCases.run(CASE_ID));
    expect(error.message).toBe(
      `runTestCase: 400 no run targets configured (POST ${PREFIX}/testcases/${CASE_ID}/run)`,
    );
    expect(error.status).toBe(400);
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.serviceMessage).toBe('no run targets configured');
  });

  it('reports a 404 of a missing case with the operation name', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testcases/${CASE_ID}`, {
      status: 404,
      body: { error: { code: 'NOT_FOUND', detail: 'test case not found' } },
    });
    const error = await apiErrorOf(setup.client.authoring.testCases.get(CASE_ID));
    expect(error.message).toBe(`getTestCase: 404 test case not found (GET ${PREFIX}/testcases/${CASE_ID})`);
    expect(error.isClientError).toBe(true);
  });

  it('rejects a success answer without data', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'GET', `${PREFIX}/testcases`, { body: { items: [], total: 0 } });
    const error = await setup.client.authoring.testCases.list({ limit: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect((error as Error).message).toBe(
      `listTestCases: the answer's \`data\` is missing, where an object was expected (GET ${PREFIX}/testcases?limit=0)`,
    );
  });

  it('uses a configured prefix', async () => {
    setup = mockClient({ authoringPrefix: '/ai-authoring/v1/' });
    setup.reply(ORIGIN, 'GET', `/ai-authoring/v1/testcases/${CASE_ID}`, { body: { data: testCase(1) } });
    await setup.client.authoring.testCases.get(CASE_ID);
    expect(setup.requests[0]!.path).toBe(`/ai-authoring/v1/testcases/${CASE_ID}`);
  });
});
