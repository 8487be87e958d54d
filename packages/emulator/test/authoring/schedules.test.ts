import { describe, expect, it } from 'vitest';
import { withEmulator } from '../support/emulator.ts';
import {
  DEMO_USER_ID,
  ISO,
  NIGHTLY_SCHEDULE_ID,
  SERVICE_USER_ID,
  SMOKE_SUITE_ID,
  UNKNOWN_UUID,
  UUID,
  WEEKLY_SCHEDULE_ID,
} from './fixtures.ts';
import { authoringClient } from './http.ts';

describe('authoring test schedules', () => {
  const handle = withEmulator({ jobDurationMs: 50 });
  const call = authoringClient(() => handle.url);
  const settings = { cron: '30 8 * * *', timezone: 'America/New_York', runningUserId: SERVICE_USER_ID };
  const create = async (body: unknown) => {
    const answer = await call('POST', '/test-schedules', { body });
    expect(answer.status).toBe(201);
    return answer.body.data;
  };

  it('lists the seeded schedules with every field of the seed table', async () => {
    const answer = await call('GET', '/test-schedules');
    expect(answer.status).toBe(200);
    expect(answer.body.data.total).toBe(2);
    const nightly = answer.body.data.items.find((item: { id: string }) => item.id === NIGHTLY_SCHEDULE_ID);
    expect(nightly).toEqual({
      id: NIGHTLY_SCHEDULE_ID,
      orgId: expect.any(String),
      teamId: expect.any(String),
      name: 'Nightly smoke',
      creationDate: expect.stringMatching(ISO),
      lastUpdateDate: expect.stringMatching(ISO),
      creatorUserId: DEMO_USER_ID,
      creatorUserName: 'Demo User',
      lastModifierUserId: DEMO_USER_ID,
      lastModifierUserName: 'Demo User',
      testSuiteIds: [SMOKE_SUITE_ID],
      settings: {
        cron: '0 2 * * *',
        timezone: 'Europe/Berlin',
        runningUserId: SERVICE_USER_ID,
        buildName: 'Nightly smoke',
      },
      state: {
        stateName: 'ENABLED',
        lastRunDate: null,
        nextRunDate: expect.stringMatching(ISO),
        remainingRuns: null,
        runCount: 0,
      },
    });
    // 02:00 in Berlin is 00:00 or 01:00 UTC, depending on daylight saving time.
    const next = new Date(nightly.state.nextRunDate);
    expect([0, 1]).toContain(next.getUTCHours());
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3600 * 1000);
  });

  it('gives a disabled schedule no next run, and counts down remaining runs', async () => {
    const weekly = (await call('GET', `/test-schedules/${WEEKLY_SCHEDULE_ID}`)).body.data;
    expect(weekly.state).toMatchObject({ stateName: 'DISABLED', nextRunDate: null, remainingRuns: 10 });
  });

  it('creates a schedule (201) with the next run worked out from cron and time zone', async () => {
    const schedule = await create({
      name: 'Morning',
      settings: { ...settings, maxRuns: 5, scTunnelName: 'demo-tunnel', buildName: 'Morning run' },
      testSuiteIds: [SMOKE_SUITE_ID],
      stateName: 'ENABLED',
    });
    expect(schedule).toMatchObject({
      id: expect.stringMatching(UUID),
      name: 'Morning',
      creatorUserId: DEMO_USER_ID,
      testSuiteIds: [SMOKE_SUITE_ID],
      settings: { ...settings, maxRuns: 5, scTunnelName: 'demo-tunnel', buildName: 'Morning run' },
      state: { stateName: 'ENABLED', remainingRuns: 5, runCount: 0, lastRunDate: null },
    });
    const next = new Date(schedule.state.nextRunDate);
    const newYork = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      hour: '2-digit',
      minute: '2-digit',
      hour12: false,
    }).format(next);
    expect(newYork).toBe('08:30');
    expect((await call('GET', `/test-schedules/${schedule.id}`)).body.data).toEqual(schedule);
  });

  it('creates a schedule from an empty body with defaults', async () => {
    const schedule = await create({});
    expect(schedule).toMatchObject({
      name: 'Untitled schedule',
      testSuiteIds: [],
      settings: { cron: '0 0 * * *', timezone: 'UTC', runningUserId: DEMO_USER_ID },
      state: { stateName: 'ENABLED' },
    });
    expect(schedule.state.nextRunDate).toMatch(/T00:00:00\.000Z$/);
  });

  it('keeps the next run inside startDate and endDate', async () => {
    const future = await create({
      settings: { ...settings, cron: '0 12 * * *', timezone: 'UTC', startDate: '2099-05-01T00:00:00Z' },
    });
    expect(future.state.nextRunDate).toBe('2099-05-01T12:00:00.000Z');
    const over = await create({ settings: { ...settings, endDate: '2020-01-01T00:00:00Z' } });
    expect(over.state.nextRunDate).toBeNull();
  });

  it.each([
    ['an invalid cron', { settings: { ...settings, cron: 'every minute' } }, 'cron'],
    ['an unknown time zone', { settings: { ...settings, timezone: 'Mars/Olympus' } }, 'timezone'],
    ['an unknown running user', { settings: { ...settings, runningUserId: UNKNOWN_UUID } }, 'runningUserId'],
    ['an unknown suite', { settings, testSuiteIds: [UNKNOWN_UUID] }, UNKNOWN_UUID],
    ['a state other than ENABLED or DISABLED', { settings, stateName: 'PAUSED' }, 'stateName'],
    ['settings without cron', { settings: { timezone: 'UTC', runningUserId: DEMO_USER_ID } }, 'cron'],
    ['a maxRuns below 1', { settings: { ...settings, maxRuns: 0 } }, 'maxRuns'],
    [
      'an end before the start',
      { settings: { ...settings, startDate: '2030-01-02T00:00:00Z', endDate: '2030-01-01T00:00:00Z' } },
      'endDate',
    ],
    ['a startDate that is no date', { settings: { ...settings, startDate: 'soon' } }, 'startDate'],
  ])('refuses to create a schedule with %s (400)', async (_what, body, named) => {
    const answer = await call('POST', '/test-schedules', { body });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('BAD_REQUEST');
    expect(answer.body.error.detail).toContain(named);
    expect((await call('GET', '/test-schedules', { query: { limit: 0 } })).body.data.total).toBe(2);
  });

  it('updates members given, and null clears the optional settings', async () => {
    const schedule = await create({
      name: 'Full',
      settings: {
        ...settings,
        startDate: '2026-01-01T00:00:00Z',
        endDate: '2099-01-01T00:00:00Z',
        maxRuns: 3,
        scTunnelName: 'demo-tunnel',
        buildName: 'Full build',
      },
    });
    const answer = await call('POST', `/test-schedules/${schedule.id}`, {
      body: {
        name: 'Trimmed',
        settings: {
          cron: '15 * * * *',
          startDate: null,
          endDate: null,
          maxRuns: null,
          scTunnelName: null,
          buildName: null,
        },
        testSuiteIds: [SMOKE_SUITE_ID],
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ name: 'Trimmed', testSuiteIds: [SMOKE_SUITE_ID] });
    expect(answer.body.data.settings).toEqual({
      cron: '15 * * * *',
      timezone: 'America/New_York',
      runningUserId: SERVICE_USER_ID,
    });
    expect(answer.body.data.state).toMatchObject({ stateName: 'ENABLED', remainingRuns: null });
    expect(new Date(answer.body.data.state.nextRunDate).getUTCMinutes()).toBe(15);
  });

  it('moves between ENABLED and DISABLED', async () => {
    const disabled = await call('POST', `/test-schedules/${NIGHTLY_SCHEDULE_ID}`, {
      body: { stateName: 'DISABLED' },
    });
    expect(disabled.body.data.state).toMatchObject({ stateName: 'DISABLED', nextRunDate: null });
    const enabled = await call('POST', `/test-schedules/${NIGHTLY_SCHEDULE_ID}`, {
      body: { stateName: 'ENABLED' },
    });
    expect(enabled.body.data.state).toMatchObject({
      stateName: 'ENABLED',
      nextRunDate: expect.stringMatching(ISO),
    });
    const paused = await call('POST', `/test-schedules/${NIGHTLY_SCHEDULE_ID}`, {
      body: { stateName: 'PAUSED' },
    });
    expect(paused.status).toBe(400);
  });

  it('renames, and an empty update changes only who modified it last', async () => {
    const renamed = await call('POST', `/test-schedules/${WEEKLY_SCHEDULE_ID}`, {
      body: { name: 'Monday smoke' },
    });
    expect(renamed.body.data).toMatchObject({
      name: 'Monday smoke',
      settings: { cron: '0 6 * * 1', maxRuns: 10 },
    });
    const empty = await call('POST', `/test-schedules/${WEEKLY_SCHEDULE_ID}`);
    expect(empty.status).toBe(200);
    expect(empty.body.data.name).toBe('Monday smoke');
  });

  it.each([
    ['an invalid cron', { settings: { cron: '61 * * * *' } }],
    ['an unknown running user', { settings: { runningUserId: UNKNOWN_UUID } }],
    ['an unknown suite', { testSuiteIds: [UNKNOWN_UUID] }],
    ['an invalid suite id', { testSuiteIds: ['x'] }],
    ['a null cron', { settings: { cron: null } }],
  ])('refuses an update with %s (400) and keeps the schedule', async (_what, body) => {
    const answer = await call('POST', `/test-schedules/${NIGHTLY_SCHEDULE_ID}`, { body });
    expect(answer.status).toBe(400);
    const kept = (await call('GET', `/test-schedules/${NIGHTLY_SCHEDULE_ID}`)).body.data;
    expect(kept.settings.cron).toBe('0 2 * * *');
    expect(kept.testSuiteIds).toEqual([SMOKE_SUITE_ID]);
  });

  it('filters by ids, search, suites, dates, creator and team, and pages', async () => {
    const other = await create({ name: 'Other', settings });
    const byIds = await call('GET', '/test-schedules', { query: { ids: [other.id, WEEKLY_SCHEDULE_ID] } });
    expect(byIds.body.data.total).toBe(2);
    const search = await call('GET', '/test-schedules', { query: { search: 'NIGHT' } });
    expect(search.body.data.items.map((item: { id: string }) => item.id)).toEqual([NIGHTLY_SCHEDULE_ID]);
    const bySuite = await call('GET', '/test-schedules', {
      query: { testSuiteIds: [SMOKE_SUITE_ID, UNKNOWN_UUID] },
    });
    expect(bySuite.body.data.total).toBe(2);
    const noSuite = await call('GET', '/test-schedules', { query: { testSuiteIds: UNKNOWN_UUID } });
    expect(noSuite.body.data.total).toBe(0);
    const dated = await call('GET', '/test-schedules', {
      query: { startDate: '2026-01-04', endDate: '2026-01-04' },
    });
    expect(dated.body.data.items.map((item: { id: string }) => item.id)).toEqual([WEEKLY_SCHEDULE_ID]);
    const byUser = await call('GET', '/test-schedules', { query: { userId: SERVICE_USER_ID } });
    expect(byUser.body.data.total).toBe(0);
    const byTeam = await call('GET', '/test-schedules', { query: { teamId: other.teamId } });
    expect(byTeam.body.data.total).toBe(3);
    const paged = await call('GET', '/test-schedules', { query: { skip: 2, limit: 5 } });
    expect(paged.body.data).toMatchObject({ total: 3, items: [{ id: NIGHTLY_SCHEDULE_ID }] });
    const invalid = await call('GET', '/test-schedules', { query: { testSuiteIds: 'x' } });
    expect(invalid.status).toBe(400);
  });

  it('deletes a schedule (204); unknown ids answer 404, invalid ones 400', async () => {
    expect((await call('DELETE', `/test-schedules/${WEEKLY_SCHEDULE_ID}`)).status).toBe(204);
    expect((await call('GET', `/test-schedules/${WEEKLY_SCHEDULE_ID}`)).status).toBe(404);
    expect((await call('DELETE', `/test-schedules/${WEEKLY_SCHEDULE_ID}`)).status).toBe(404);
    expect((await call('POST', `/test-schedules/${UNKNOWN_UUID}`, { body: {} })).status).toBe(404);
    expect((await call('GET', '/test-schedules/abc')).status).toBe(400);
  });
});
