import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApiError, SauceClient } from '@sauce-actions/api';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_ACCESS_KEY, DEMO_USER, withEmulator } from '../support/emulator.ts';
import {
  NIGHTLY_SCHEDULE_ID,
  REGRESSION_CASE_IDS,
  REGRESSION_SUITE_ID,
  SCREENSHOT_ARTIFACT_ID,
  SEED_CASES,
  SERVICE_USER_ID,
  SMOKE_CASE_IDS,
  SMOKE_SUITE_ID,
  UNASSIGNED_CASE_IDS,
  UNKNOWN_HEX,
} from './fixtures.ts';

describe('authoring round trips through SauceClient', () => {
  const handle = withEmulator({ jobDurationMs: 50 });
  const client = (accessKey = DEMO_ACCESS_KEY) =>
    new SauceClient({ username: DEMO_USER, accessKey, apiUrl: handle.url, retry: { retries: 0 } }).authoring;
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('lists, filters and iterates test cases', async () => {
    const authoring = client();
    const page = await authoring.testCases.list({ testSuiteId: null });
    expect(page.items.map((item) => item.id).sort()).toEqual([...UNASSIGNED_CASE_IDS].sort());
    expect((await authoring.testCases.list({ limit: 0 })).total).toBe(SEED_CASES);
    const all = [];
    for await (const testCase of authoring.testCases.iterate({}, { pageSize: 2 })) all.push(testCase.id);
    expect(all).toHaveLength(SEED_CASES);
    const smoke = await authoring.testCases.list({
      testSuiteId: [SMOKE_SUITE_ID],
      startDate: new Date('2026-01-10'),
    });
    expect(smoke.total).toBe(2);
  });

  it('gets, renames, runs and deletes a test case', async () => {
    const authoring = client();
    const detail = await authoring.testCases.get(SMOKE_CASE_IDS[0]);
    expect(detail.revisions).toHaveLength(1);
    expect((await authoring.testCases.rename(SMOKE_CASE_IDS[0], 'Sign in')).name).toBe('Sign in');
    const run = await authoring.testCases.run(SMOKE_CASE_IDS[0], { buildName: 'Client', scTunnelName: null });
    expect(run).toMatchObject({ testCaseId: SMOKE_CASE_IDS[0], build: 'Client', jobs: [{ success: null }] });
    const again = await authoring.testCases.run(SMOKE_CASE_IDS[0], {
      buildName: 'Client',
      revisionId: String(detail.revisions?.[0]?.id),
    });
    expect(again.build).toBe('Client - 1');
    await authoring.testCases.delete(UNASSIGNED_CASE_IDS[1]);
    const missing = await authoring.testCases.get(UNASSIGNED_CASE_IDS[1]).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ApiError);
    expect((missing as ApiError).status).toBe(404);
  });

  it('creates, updates, runs and deletes a suite', async () => {
    const authoring = client();
    const suite = await authoring.testSuites.create({
      name: 'Client suite',
      testCases: [UNASSIGNED_CASE_IDS[0]],
    });
    expect(suite).toMatchObject({ name: 'Client suite', testCaseCount: 1, runCount: 0 });
    const updated = await authoring.testSuites.update(suite.id, {
      name: 'Client suite 2',
      testCaseIds: [UNASSIGNED_CASE_IDS[0], SMOKE_CASE_IDS[1]],
    });
    expect(updated.testCaseCount).toBe(2);
    expect((await authoring.testSuites.list({ ids: [suite.id, SMOKE_SUITE_ID] })).total).toBe(2);
    const run = await authoring.testSuites.run(suite.id, { buildName: 'From client' });
    expect(run).toMatchObject({ buildName: 'From client', runCount: 2 });
    await authoring.testSuites.delete(suite.id, { deleteTestCases: true });
    expect((await authoring.testCases.list({ limit: 0 })).total).toBe(SEED_CASES - 2);
    await authoring.testSuites.delete(SMOKE_SUITE_ID);
    expect((await authoring.testCases.list({ testSuiteId: null })).total).toBe(3);
    // Regression keeps its own cases.
    const regression = await authoring.testCases.list({ testSuiteId: [REGRESSION_SUITE_ID] });
    expect(regression.total).toBe(REGRESSION_CASE_IDS.length);
  });

  it('types a suite’s name on create and its case list on update as required, as the service does', async () => {
    const authoring = client();
    const nameless = await authoring.testSuites
      // @ts-expect-error a suite needs a name
      .create({ testCases: [UNASSIGNED_CASE_IDS[0]] })
      .catch((error: unknown) => error);
    expect(nameless).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    const listless = await authoring.testSuites
      // @ts-expect-error an update sends the whole list of test cases
      .update(SMOKE_SUITE_ID, { name: 'Renamed' })
      .catch((error: unknown) => error);
    expect(listless).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect((await authoring.testSuites.get(SMOKE_SUITE_ID)).name).toBe('Smoke');
    // An empty list is a list: it empties the suite.
    const emptied = await authoring.testSuites.update(SMOKE_SUITE_ID, { testCaseIds: [] });
    expect(emptied).toMatchObject({ name: 'Smoke', testCaseCount: 0 });
  });

  it('creates, updates and deletes a schedule', async () => {
    const authoring = client();
    const schedule = await authoring.testSchedules.create({
      name: 'Client schedule',
      settings: { cron: '0 5 * * *', timezone: 'UTC', runningUserId: SERVICE_USER_ID, maxRuns: 2 },
      testSuiteIds: [SMOKE_SUITE_ID],
      stateName: 'DISABLED',
    });
    expect(schedule.state).toMatchObject({ stateName: 'DISABLED', nextRunDate: null, remainingRuns: 2 });
    const enabled = await authoring.testSchedules.update(schedule.id, {
      stateName: 'ENABLED',
      settings: { maxRuns: null },
    });
    expect(enabled.state).toMatchObject({ stateName: 'ENABLED', remainingRuns: null });
    expect(enabled.state.nextRunDate).toMatch(/T05:00:00\.000Z$/);
    const bySuite = await authoring.testSchedules.list({ testSuiteIds: SMOKE_SUITE_ID });
    expect(bySuite.total).toBe(3);
    await authoring.testSchedules.delete(schedule.id);
    expect((await authoring.testSchedules.get(NIGHTLY_SCHEDULE_ID)).name).toBe('Nightly smoke');
  });

  it('downloads the seeded artifact to a folder', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'authoring-artifact-'));
    dirs.push(dir);
    const result = await client().storage.download(SCREENSHOT_ARTIFACT_ID, dir);
    const bytes = await readFile(result.path);
    expect(path.basename(result.path)).toBe('checkout-failure.png');
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('surfaces the service errors as ApiError with their code', async () => {
    const unknown = await client()
      .testSuites.create({ name: 'x', testCases: [UNKNOWN_HEX] })
      .catch((error: unknown) => error);
    expect(unknown).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const denied = await client('wrong-key')
      .testCases.list()
      .catch((error: unknown) => error);
    expect(denied).toMatchObject({ status: 401 });
    expect(String((denied as Error).message)).not.toContain('wrong-key');
  });
});
