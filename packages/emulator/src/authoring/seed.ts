/** What the authoring part of the seed holds, and the default seed (see the interface contract). */
import type { ExpectedOutcome, RunSettings, ScheduleSettings, StateName } from './model.ts';

interface AuthoringSeedUser {
  id: string;
  /** Automation account name; authoring and automation share accounts. */
  username: string;
  name: string;
  teamId: string;
}

interface AuthoringSeedTestCase {
  /** 24-character hex. */
  id: string;
  name: string;
  testSuiteId?: string | null;
  /** Defaults to the first user. */
  creatorUserId?: string;
  /** ISO 8601; defaults to the emulator's start. */
  creationDate?: string;
  runSettings?: RunSettings;
  /** How the case's simulated jobs end; default `pass`. */
  expectedOutcome?: ExpectedOutcome;
}

interface AuthoringSeedTestSuite {
  /** UUID. */
  id: string;
  name: string;
  tags?: string[];
  creatorUserId?: string;
  creationDate?: string;
}

interface AuthoringSeedTestSchedule {
  id: string;
  name: string;
  testSuiteIds: string[];
  settings: ScheduleSettings;
  stateName?: StateName;
  creatorUserId?: string;
  creationDate?: string;
}

interface AuthoringSeedArtifact {
  /** UUID. */
  id: string;
  fileName: string;
  contentType?: string;
  /** The file's bytes, base64-encoded. */
  contentBase64: string;
}

export interface AuthoringSeed {
  orgId?: string;
  users?: AuthoringSeedUser[];
  testCases?: AuthoringSeedTestCase[];
  testSuites?: AuthoringSeedTestSuite[];
  testSchedules?: AuthoringSeedTestSchedule[];
  artifacts?: AuthoringSeedArtifact[];
}

export const DEFAULT_ORG_ID = '7c0c7e7a-3f55-4a9e-9d43-2f1b8e5a6c01';
export const DEMO_TEAM_ID = '5b7e2f0c-1d3a-4c6b-8e9f-0a1b2c3d4e01';
export const QA_TEAM_ID = '5b7e2f0c-1d3a-4c6b-8e9f-0a1b2c3d4e02';
export const DEMO_USER_ID = '9f1d2c3b-4a5e-4f60-8a7b-1c2d3e4f5a01';
export const SERVICE_USER_ID = '9f1d2c3b-4a5e-4f60-8a7b-1c2d3e4f5a02';
export const SMOKE_SUITE_ID = '3e0a6b2d-8c41-4f7a-9b5e-6d2c1a0f9e01';
export const SMOKE_CASE_IDS = [
  '65a1f0c0e4b0a1b2c3d4e501',
  '65a1f0c0e4b0a1b2c3d4e502',
  '65a1f0c0e4b0a1b2c3d4e503',
] as const;
export const UNASSIGNED_CASE_IDS = ['65a1f0c0e4b0a1b2c3d4e504', '65a1f0c0e4b0a1b2c3d4e505'] as const;
export const REGRESSION_SUITE_ID = '3e0a6b2d-8c41-4f7a-9b5e-6d2c1a0f9e02';
/** `Case 01` … `Case 12`, in order. */
export const REGRESSION_CASE_IDS = Array.from(
  { length: 12 },
  (_, index) => `65a1f0c0e4b0a1b2c3d4e6${(index + 1).toString(16).padStart(2, '0')}`,
);
/** The flaky one: it fails the first time it runs in a build and passes on later runs in that build. */
const FLAKY_CASE_NAME = 'Case 07';
export const NIGHTLY_SCHEDULE_ID = 'a4c2e9f1-7b3d-4e5a-8f6c-2d1e0b9a8c01';
export const WEEKLY_SCHEDULE_ID = 'a4c2e9f1-7b3d-4e5a-8f6c-2d1e0b9a8c02';
export const SCREENSHOT_ARTIFACT_ID = 'c8e1d2f3-a4b5-4c6d-9e7f-8a9b0c1d2e01';

/** A 1×1 PNG. */
const SCREENSHOT_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const TEST_URL = 'https://shop.example.com';

function target(browserName: string, browserVersion: string, platformName: string) {
  return { capabilities: { browserName, browserVersion, platformName, 'sauce:options': {} }, isRdc: false };
}

/** Regression's targets, in turn. */
function regressionTarget(index: number) {
  switch (index % 4) {
    case 0:
      return target('chrome', 'latest', 'Windows 11');
    case 1:
      return target('firefox', 'latest', 'Windows 11');
    case 2:
      return target('safari', '17', 'macOS 14');
    default:
      return target('MicrosoftEdge', 'latest', 'Windows 10');
  }
}

/** `Regression`: twelve cases of one target each, every one passing but `Case 07`, which is flaky. */
function regressionCases(): AuthoringSeedTestCase[] {
  return REGRESSION_CASE_IDS.map((id, index) => {
    const number = String(index + 1).padStart(2, '0');
    const name = `Case ${number}`;
    return {
      id,
      name,
      testSuiteId: REGRESSION_SUITE_ID,
      // Older than the other cases, so that the first page of a newest-first list stays theirs.
      creationDate: `2025-12-${number}T10:00:00.000Z`,
      runSettings: {
        testUrl: `${TEST_URL}/regression/${number}`,
        primaryTarget: regressionTarget(index),
      },
      ...(name === FLAKY_CASE_NAME ? { expectedOutcome: 'flaky' as const } : {}),
    };
  });
}

export function defaultAuthoringSeed(): AuthoringSeed {
  return {
    orgId: DEFAULT_ORG_ID,
    users: [
      { id: DEMO_USER_ID, username: 'demo', name: 'Demo User', teamId: DEMO_TEAM_ID },
      // A service account to run schedules as, in another team, so user and team filters have a choice.
      { id: SERVICE_USER_ID, username: 'qa-bot', name: 'QA Service Account', teamId: QA_TEAM_ID },
    ],
    testSuites: [
      {
        id: SMOKE_SUITE_ID,
        name: 'Smoke',
        tags: ['smoke', 'checkout'],
        creatorUserId: DEMO_USER_ID,
        creationDate: '2026-01-02T09:00:00.000Z',
      },
      {
        id: REGRESSION_SUITE_ID,
        name: 'Regression',
        tags: ['regression'],
        creatorUserId: DEMO_USER_ID,
        creationDate: '2025-12-01T09:00:00.000Z',
      },
    ],
    testCases: [
      {
        id: SMOKE_CASE_IDS[0],
        name: 'Login works',
        testSuiteId: SMOKE_SUITE_ID,
        creationDate: '2026-01-05T10:00:00.000Z',
        runSettings: {
          testUrl: `${TEST_URL}/login`,
          primaryTarget: target('chrome', 'latest', 'Windows 11'),
        },
      },
      {
        id: SMOKE_CASE_IDS[1],
        name: 'Search finds products',
        testSuiteId: SMOKE_SUITE_ID,
        creationDate: '2026-01-12T10:00:00.000Z',
        runSettings: {
          testUrl: `${TEST_URL}/search`,
          primaryTarget: target('firefox', 'latest', 'macOS 14'),
        },
      },
      {
        id: SMOKE_CASE_IDS[2],
        name: 'Checkout fails',
        testSuiteId: SMOKE_SUITE_ID,
        creationDate: '2026-01-20T10:00:00.000Z',
        runSettings: { testUrl: `${TEST_URL}/checkout`, primaryTarget: target('safari', '17', 'macOS 13') },
        expectedOutcome: 'fail',
      },
      {
        id: UNASSIGNED_CASE_IDS[0],
        name: 'Profile page loads',
        testSuiteId: null,
        creatorUserId: SERVICE_USER_ID,
        creationDate: '2026-02-03T10:00:00.000Z',
        runSettings: { testUrl: `${TEST_URL}/profile`, primaryTarget: target('chrome', 'latest', 'Linux') },
      },
      {
        // No run target yet: running it answers 400.
        id: UNASSIGNED_CASE_IDS[1],
        name: 'Newsletter signup draft',
        testSuiteId: null,
        creationDate: '2026-02-15T10:00:00.000Z',
        runSettings: { testUrl: `${TEST_URL}/newsletter` },
      },
      ...regressionCases(),
    ],
    testSchedules: [
      {
        id: NIGHTLY_SCHEDULE_ID,
        name: 'Nightly smoke',
        testSuiteIds: [SMOKE_SUITE_ID],
        settings: {
          cron: '0 2 * * *',
          timezone: 'Europe/Berlin',
          runningUserId: SERVICE_USER_ID,
          buildName: 'Nightly smoke',
        },
        stateName: 'ENABLED',
        creationDate: '2026-01-03T09:00:00.000Z',
      },
      {
        id: WEEKLY_SCHEDULE_ID,
        name: 'Weekly smoke',
        testSuiteIds: [SMOKE_SUITE_ID],
        settings: { cron: '0 6 * * 1', timezone: 'UTC', runningUserId: DEMO_USER_ID, maxRuns: 10 },
        stateName: 'DISABLED',
        creationDate: '2026-01-04T09:00:00.000Z',
      },
    ],
    artifacts: [
      {
        id: SCREENSHOT_ARTIFACT_ID,
        fileName: 'checkout-failure.png',
        contentType: 'image/png',
        contentBase64: SCREENSHOT_PNG,
      },
    ],
  };
}
