/** Shared samples and helpers for the authoring tests. */
import { expect } from 'vitest';
import { ApiError } from '../../src/index.ts';
import type { TestCase, TestSchedule, TestSuite } from '../../src/index.ts';
import { AUTOMATION_ORIGIN, SAUCE_AUTH, type RecordedRequest } from '../support/mock.ts';

/** Authoring shares the automation host of the default region. */
export const ORIGIN = AUTOMATION_ORIGIN;
export const PREFIX = '/v1/ai-authoring';

export const CASE_ID = '65f1c0ffee0123456789abcd';
export const SUITE_ID = '3f0b8a52-6a0e-4c1d-9a37-2f4f5c1e7b10';
export const SCHEDULE_ID = '9d6c2e1a-0b7f-4e55-8c21-5e3a1d2f4b68';
export const ARTIFACT_ID = 'b7e2a9c4-1d3f-4a6b-8e5c-0f9d8c7b6a51';

export function testCase(index: number, extra: Partial<TestCase> = {}): TestCase {
  return {
    id: `65f1c0ffee01234567890${String(index).padStart(3, '0')}`,
    orgId: 'org-1',
    teamId: 'team-1',
    creatorUserId: 'user-1',
    lastModifierUserId: 'user-1',
    testSuiteId: SUITE_ID,
    name: `Case ${index}`,
    creationDate: '2026-01-02T03:04:05Z',
    lastUpdateDate: '2026-01-03T03:04:05Z',
    runSettings: {
      testUrl: 'https://shop.example.com',
      primaryTarget: { capabilities: { browserName: 'chrome', platformName: 'Windows 11' }, isRdc: false },
    },
    ...extra,
  };
}

export function testSuite(index: number, extra: Partial<TestSuite> = {}): TestSuite {
  return {
    id: `3f0b8a52-6a0e-4c1d-9a37-2f4f5c1e7${String(index).padStart(3, '0')}`,
    orgId: 'org-1',
    teamId: 'team-1',
    name: `Suite ${index}`,
    tags: ['smoke'],
    creationDate: '2026-01-02T03:04:05Z',
    lastUpdate: '2026-01-03T03:04:05Z',
    creatorUserId: 'user-1',
    creatorUserName: 'alice',
    lastModifierUserId: 'user-1',
    lastModifierUserName: 'alice',
    testCaseCount: 3,
    runCount: 0,
    ...extra,
  };
}

export function testSchedule(index: number, extra: Partial<TestSchedule> = {}): TestSchedule {
  return {
    id: `9d6c2e1a-0b7f-4e55-8c21-5e3a1d2f4${String(index).padStart(3, '0')}`,
    orgId: 'org-1',
    teamId: 'team-1',
    name: `Nightly ${index}`,
    creationDate: '2026-01-02T03:04:05Z',
    lastUpdateDate: '2026-01-03T03:04:05Z',
    creatorUserId: 'user-1',
    creatorUserName: 'alice',
    lastModifierUserId: 'user-1',
    lastModifierUserName: 'alice',
    testSuiteIds: [SUITE_ID],
    settings: {
      cron: '0 2 * * *',
      timezone: 'Europe/Berlin',
      runningUserId: 'user-1',
      maxRuns: 10,
      buildName: 'nightly',
    },
    state: {
      stateName: 'ENABLED',
      lastRunDate: null,
      nextRunDate: '2026-01-04T01:00:00Z',
      remainingRuns: 10,
      runCount: 0,
    },
    ...extra,
  };
}

/** Checks that a request carried the account's Basic header. */
export function expectAuthenticated(request: RecordedRequest | undefined): void {
  expect(request).toBeDefined();
  expect(request!.headers.authorization).toBe(SAUCE_AUTH);
}

/** Awaits a promise that must fail with an ApiError, and checks the error holds no secret. */
export async function apiErrorOf(promise: Promise<unknown>): Promise<ApiError> {
  const failure = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(ApiError);
  const error = failure as ApiError;
  const everything = `${error.message} ${String(error)} ${JSON.stringify(error)} ${error.stack ?? ''}`;
  expect(everything).not.toContain('secret-access-key');
  expect(everything).not.toContain(SAUCE_AUTH.slice('Basic '.length));
  return error;
}
