/** The answers' shapes of test cases, suites, schedules and runs, built from the stored records. */
import type {
  CaseRunRecord,
  SuiteRunRecord,
  TestCaseRecord,
  TestScheduleRecord,
  TestSuiteRecord,
} from './model.ts';
import { nextRunDate } from './schedule-timing.ts';
import type { AuthoringStore } from './store/index.ts';

/** A test case as lists answer it; `expectedOutcome` is the emulator's own and stays inside. */
export function testCaseView(testCase: TestCaseRecord) {
  return {
    id: testCase.id,
    orgId: testCase.orgId,
    teamId: testCase.teamId,
    creatorUserId: testCase.creatorUserId,
    lastModifierUserId: testCase.lastModifierUserId,
    testSuiteId: testCase.testSuiteId,
    name: testCase.name,
    creationDate: testCase.creationDate,
    lastUpdateDate: testCase.lastUpdateDate,
    runSettings: testCase.runSettings,
  };
}

/** A test case as the single-case operations (get, rename) answer it: with revisions and user names. */
export function testCaseDetailView(store: AuthoringStore, testCase: TestCaseRecord) {
  return {
    ...testCaseView(testCase),
    revisions: testCase.revisions.map((revision) => ({
      ...revision,
      creatorUserName: store.users.nameOf(revision.creatorUserId),
    })),
    creatorUserName: store.users.nameOf(testCase.creatorUserId),
    lastModifierUserName: store.users.nameOf(testCase.lastModifierUserId),
  };
}

/** A suite; `runCount` only in the create, get and update answers, as the seed says. */
export function suiteView(store: AuthoringStore, suite: TestSuiteRecord, withRunCount: boolean) {
  return {
    id: suite.id,
    orgId: suite.orgId,
    teamId: suite.teamId,
    name: suite.name,
    tags: suite.tags,
    creationDate: suite.creationDate,
    lastUpdate: suite.lastUpdate,
    creatorUserId: suite.creatorUserId,
    creatorUserName: store.users.nameOf(suite.creatorUserId),
    lastModifierUserId: suite.lastModifierUserId,
    lastModifierUserName: store.users.nameOf(suite.lastModifierUserId),
    testCaseCount: store.testCases.ofSuite(suite.id).length,
    ...(withRunCount ? { runCount: suite.runCount } : {}),
  };
}

/** A schedule; its state's nextRunDate and remainingRuns are worked out at the time of the answer. */
export function scheduleView(store: AuthoringStore, schedule: TestScheduleRecord) {
  const { settings } = schedule;
  const remainingRuns =
    settings.maxRuns === undefined ? null : Math.max(0, settings.maxRuns - schedule.runCount);
  return {
    id: schedule.id,
    orgId: schedule.orgId,
    teamId: schedule.teamId,
    name: schedule.name,
    creationDate: schedule.creationDate,
    lastUpdateDate: schedule.lastUpdateDate,
    creatorUserId: schedule.creatorUserId,
    creatorUserName: store.users.nameOf(schedule.creatorUserId),
    lastModifierUserId: schedule.lastModifierUserId,
    lastModifierUserName: store.users.nameOf(schedule.lastModifierUserId),
    testSuiteIds: schedule.testSuiteIds,
    settings,
    state: {
      stateName: schedule.stateName,
      lastRunDate: schedule.lastRunDate,
      nextRunDate: nextRunDate(
        {
          cron: settings.cron,
          timezone: settings.timezone,
          startDate: settings.startDate,
          endDate: settings.endDate,
          enabled: schedule.stateName === 'ENABLED',
          remainingRuns,
        },
        store.now(),
      ),
      remainingRuns,
      runCount: schedule.runCount,
    },
  };
}

export function caseRunView(run: CaseRunRecord) {
  return {
    id: run.id,
    orgId: run.orgId,
    teamId: run.teamId,
    userId: run.userId,
    testCaseId: run.testCaseId,
    build: run.build,
    jobs: run.jobs,
    creationDate: run.creationDate,
    testUrl: run.testUrl,
  };
}

export function suiteRunView(run: SuiteRunRecord) {
  return {
    id: run.id,
    buildName: run.buildName,
    runCount: run.runCount,
    orgId: run.orgId,
    teamId: run.teamId,
    userId: run.userId,
  };
}
