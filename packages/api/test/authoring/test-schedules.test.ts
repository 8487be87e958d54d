import { afterEach, describe, expect, it } from 'vitest';
import { collect } from '../../src/core/resources/pagination.ts';
import { mockClient, type MockSetup } from '../support/mock.ts';
import {
  apiErrorOf,
  expectAuthenticated,
  ORIGIN,
  PREFIX,
  SCHEDULE_ID,
  SUITE_ID,
  testSchedule,
} from './fixtures.ts';

describe('authoring test schedules', () => {
  let setup: MockSetup;
  afterEach(async () => {
    await setup.agent.close();
  });

  it('lists one page with every filter in the query', async () => {
    setup = mockClient();
    const items = [testSchedule(1)];
    setup.reply(ORIGIN, 'GET', `${PREFIX}/test-schedules`, { body: { data: { items, total: 1 } } });
    const page = await setup.client.authoring.testSchedules.list({
      ids: ['s-1', 's-2'],
      search: 'nightly',
      startDate: new Date('2026-01-01T00:00:00Z'),
      endDate: '2026-12-31',
      userId: 'user-1',
      teamId: 'team-1',
      skip: 10,
      limit: 5,
      testSuiteIds: [SUITE_ID, 'other'],
    });
    expect(page).toEqual({ items, total: 1 });
    expect(page.items[0]?.state.stateName).toBe('ENABLED');
    const [request] = setup.requests;
    expectAuthenticated(request);
    expect(request!.method).toBe('GET');
    expect(request!.pathname).toBe(`${PREFIX}/test-schedules`);
    const query = request!.query;
    expect(query.getAll('ids')).toEqual(['s-1', 's-2']);
    expect(query.getAll('testSuiteIds')).toEqual([SUITE_ID, 'other']);
    expect(query.get('search')).toBe('nightly');
    expect(query.get('startDate')).toBe('2026-01-01T00:00:00.000Z');
    expect(query.get('endDate')).toBe('2026-12-31');
    expect(query.get('userId')).toBe('user-1');
    expect(query.get('teamId')).toBe('team-1');
    expect(query.get('skip')).toBe('10');
    expect(query.get('limit')).toBe('5');
    expect([...query.keys()]).toHaveLength(11);
  });

  it('sends a single suite id and iterates over every page', async () => {
    setup = mockClient();
    const all = [1, 2, 3].map((i) => testSchedule(i));
    setup.reply(ORIGIN, 'GET', `${PREFIX}/test-schedules`, {
      body: { data: { items: all.slice(0, 1), total: 3 } },
    });
    setup.reply(ORIGIN, 'GET', `${PREFIX}/test-schedules`, {
      body: { data: { items: all.slice(1, 2), total: 3 } },
    });
    setup.reply(ORIGIN, 'GET', `${PREFIX}/test-schedules`, {
      body: { data: { items: all.slice(2), total: 3 } },
    });
    const items = await collect(
      setup.client.authoring.testSchedules.iterate({ testSuiteIds: SUITE_ID }, { pageSize: 1 }),
    );
    expect(items.map((s) => s.id)).toEqual(all.map((s) => s.id));
    expect(setup.requests.map((r) => r.query.get('skip'))).toEqual(['0', '1', '2']);
    expect(setup.requests.every((r) => r.query.getAll('testSuiteIds').join() === SUITE_ID)).toBe(true);
  });

  it('creates a schedule and reads the 201', async () => {
    setup = mockClient();
    const created = testSchedule(1);
    setup.reply(ORIGIN, 'POST', `${PREFIX}/test-schedules`, { status: 201, body: { data: created } });
    const result = await setup.client.authoring.testSchedules.create({
      name: 'Nightly 1',
      settings: {
        cron: '0 2 * * *',
        timezone: 'Europe/Berlin',
        runningUserId: 'user-1',
        startDate: new Date('2026-02-01T00:00:00Z'),
        maxRuns: 10,
        scTunnelName: 'demo-tunnel',
        buildName: 'nightly',
      },
      testSuiteIds: [SUITE_ID],
      stateName: 'ENABLED',
    });
    expect(result).toEqual(created);
    expect(result.settings.cron).toBe('0 2 * * *');
    const [request] = setup.requests;
    expectAuthenticated(request);
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe(`${PREFIX}/test-schedules`);
    expect(request!.json).toEqual({
      name: 'Nightly 1',
      settings: {
        cron: '0 2 * * *',
        timezone: 'Europe/Berlin',
        runningUserId: 'user-1',
        startDate: '2026-02-01T00:00:00.000Z',
        maxRuns: 10,
        scTunnelName: 'demo-tunnel',
        buildName: 'nightly',
      },
      testSuiteIds: [SUITE_ID],
      stateName: 'ENABLED',
    });
  });

  it('gets one schedule with settings and state', async () => {
    setup = mockClient();
    const schedule = testSchedule(2, { state: { stateName: 'DISABLED', remainingRuns: 0, runCount: 10 } });
    setup.reply(ORIGIN, 'GET', `${PREFIX}/test-schedules/${SCHEDULE_ID}`, { body: { data: schedule } });
    const result = await setup.client.authoring.testSchedules.get(SCHEDULE_ID);
    expect(result).toEqual(schedule);
    expect(result.state.stateName).toBe('DISABLED');
    const [request] = setup.requests;
    expectAuthenticated(request);
    expect(request!.method).toBe('GET');
    expect(request!.path).toBe(`${PREFIX}/test-schedules/${SCHEDULE_ID}`);
  });

  it('updates a schedule, sending null for the settings to clear', async () => {
    setup = mockClient();
    const updated = testSchedule(1, { name: 'Weekly' });
    setup.reply(ORIGIN, 'POST', `${PREFIX}/test-schedules/${SCHEDULE_ID}`, { body: { data: updated } });
    const result = await setup.client.authoring.testSchedules.update(SCHEDULE_ID, {
      name: 'Weekly',
      settings: {
        cron: '0 3 * * 1',
        startDate: null,
        endDate: null,
        maxRuns: null,
        scTunnelName: null,
        buildName: null,
      },
      stateName: 'DISABLED',
    });
    expect(result).toEqual(updated);
    const [request] = setup.requests;
    expectAuthenticated(request);
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe(`${PREFIX}/test-schedules/${SCHEDULE_ID}`);
    expect(request!.json).toEqual({
      name: 'Weekly',
      settings: {
        cron: '0 3 * * 1',
        startDate: null,
        endDate: null,
        maxRuns: null,
        scTunnelName: null,
        buildName: null,
      },
      stateName: 'DISABLED',
    });
  });

  it('deletes a schedule', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'DELETE', `${PREFIX}/test-schedules/${SCHEDULE_ID}`, { status: 204 });
    await expect(setup.client.authoring.testSchedules.delete(SCHEDULE_ID)).resolves.toBeUndefined();
    const [request] = setup.requests;
    expectAuthenticated(request);
    expect(request!.method).toBe('DELETE');
    expect(request!.path).toBe(`${PREFIX}/test-schedules/${SCHEDULE_ID}`);
    expect(request!.body).toBe('');
  });

  it('reports a schedule create with unknown suites, without secrets', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'POST', `${PREFIX}/test-schedules`, {
      status: 400,
      body: { error: { code: 'BAD_REQUEST', detail: 'unknown test suites: nope' } },
    });
    const error = await apiErrorOf(
      setup.client.authoring.testSchedules.create({
        settings: { cron: '* * * * *', timezone: 'UTC', runningUserId: 'u' },
        testSuiteIds: ['nope'],
      }),
    );
    expect(error.message).toBe(
      `createTestSchedule: 400 unknown test suites: nope (POST ${PREFIX}/test-schedules)`,
    );
  });

  it('reports a 401 without the credentials', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'DELETE', `${PREFIX}/test-schedules/${SCHEDULE_ID}`, {
      status: 401,
      body: { error: { code: 'UNAUTHORIZED', detail: 'invalid authentication header' } },
    });
    const error = await apiErrorOf(setup.client.authoring.testSchedules.delete(SCHEDULE_ID));
    expect(error.message).toBe(
      `deleteTestSchedule: 401 invalid authentication header (DELETE ${PREFIX}/test-schedules/${SCHEDULE_ID})`,
    );
  });
});
