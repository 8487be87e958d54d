/** Request and result types of the AI test authoring interface. */

/** A date in a query: a `Date`, or an ISO 8601 string sent as given. */
export type AuthoringDate = Date | string;

/** One page of a list: `data: { items, total }`. */
export interface AuthoringPage<T> {
  items: T[];
  /** Count of every match, not only of this page. */
  total: number;
}

/** Paging of every authoring list; `skip` defaults to 0 on the service. */
export interface AuthoringPaging {
  skip?: number;
  /** Items per page; on the test case list, 0 returns only the total. */
  limit?: number;
}

/** Filters the suite and schedule lists share. */
export interface AuthoringListFilters {
  /** Case-insensitive match on the name. */
  search?: string;
  /** Inclusive bounds on the creation date. */
  startDate?: AuthoringDate;
  endDate?: AuthoringDate;
  /** Creator UUID. */
  userId?: string;
  teamId?: string;
}

/** WebDriver capabilities of a run target; vendor and browser options pass through. */
export interface AuthoringCapabilities {
  browserName?: string;
  browserVersion?: string;
  platformName?: string;
  'sauce:options'?: Record<string, unknown>;
  [option: string]: unknown;
}

/** Where a case runs. */
export interface AuthoringRunTarget {
  capabilities: AuthoringCapabilities;
  isRdc?: boolean;
  [member: string]: unknown;
}

export interface TestCaseRunSettings {
  testUrl?: string;
  primaryTarget?: AuthoringRunTarget;
  [member: string]: unknown;
}

export interface TestCase {
  /** 24-character hex. */
  id: string;
  orgId: string;
  teamId: string;
  creatorUserId: string;
  lastModifierUserId: string;
  /** The suite the case is assigned to. */
  testSuiteId?: string | null;
  name: string;
  creationDate: string;
  lastUpdateDate: string;
  runSettings?: TestCaseRunSettings;
  [member: string]: unknown;
}

/** A revision of a test case; the seed does not list its fields. */
export type TestCaseRevision = Record<string, unknown>;

/** A test case as the single-case operations (get, rename) return it. */
export interface TestCaseDetail extends TestCase {
  revisions?: TestCaseRevision[];
  creatorUserName?: string;
  lastModifierUserName?: string;
}

export interface ListTestCasesQuery extends AuthoringListFilters, AuthoringPaging {
  /** One suite, several, or `null` for cases assigned to no suite. */
  testSuiteId?: string | null | readonly (string | null)[];
}

export interface RunTestCaseInput {
  /** Build name; the service defaults it to the case name and makes it unique. */
  buildName?: string;
  targets?: AuthoringRunTarget[];
  /** Secure tunnel to use; `null` runs without one. A name that does not exist fails the run. */
  scTunnelName?: string | null;
  /** Runs this revision of the case instead of the current one (sent in the path). */
  revisionId?: string;
}

export interface TestCaseRunJob {
  id: string;
  /** The automation job id; dashboard links are built from it. */
  sauceJobId?: string | null;
  name?: string;
  target?: AuthoringRunTarget | Record<string, unknown>;
  url?: string;
  isRdc?: boolean;
  /** Set once the job has finished. */
  success?: boolean | null;
  error?: string | null;
  [member: string]: unknown;
}

/** The result of running one case; finished when every job has `success` set or an `error`. */
export interface TestCaseRun {
  id: string;
  orgId: string;
  teamId: string;
  userId: string;
  testCaseId: string;
  build: string;
  jobs: TestCaseRunJob[];
  creationDate: string;
  testUrl: string;
  [member: string]: unknown;
}

export interface TestSuite {
  /** UUID. */
  id: string;
  orgId: string;
  teamId: string;
  name: string;
  tags?: string[];
  creationDate: string;
  lastUpdate: string;
  creatorUserId: string;
  creatorUserName?: string;
  lastModifierUserId: string;
  lastModifierUserName?: string;
  testCaseCount: number;
  /** Present in the create, get and update answers. */
  runCount?: number;
  [member: string]: unknown;
}

export interface ListTestSuitesQuery extends AuthoringListFilters, AuthoringPaging {
  ids?: string | readonly string[];
}

/** A suite needs a name; its test cases may come later (the service answers 400 without one). */
export interface CreateTestSuiteInput {
  name: string;
  /** Ids of existing test cases the suite groups (an unknown one answers 404). */
  testCases?: string[];
}

/**
 * An update sends the suite's whole list of test cases, which replaces the one it had: the service
 * counts a missing list among the update's 400s, and `[]` empties the suite. The name is kept
 * unless given.
 */
export interface UpdateTestSuiteInput {
  name?: string;
  testCaseIds: string[];
}

export interface DeleteTestSuiteInput {
  /** Deletes the cases assigned to the suite too. */
  deleteTestCases?: boolean;
}

export interface RunTestSuiteInput {
  /** Build name; the service defaults it to the suite name and makes it unique. */
  buildName?: string;
}

/** The result of running a suite: one case run is queued per case. */
export interface TestSuiteRun {
  id: string;
  buildName: string;
  /** Number of queued case runs. */
  runCount: number;
  orgId?: string;
  teamId?: string;
  userId?: string;
  [member: string]: unknown;
}

/** ENABLED or DISABLED; other values pass through. */
export type TestScheduleStateName = 'ENABLED' | 'DISABLED' | (string & {});

export interface TestScheduleSettings {
  /** Cron expression. */
  cron: string;
  /** Time zone name. */
  timezone: string;
  /** User or service account the runs execute as. */
  runningUserId: string;
  startDate?: string;
  endDate?: string;
  maxRuns?: number;
  scTunnelName?: string;
  buildName?: string;
  [member: string]: unknown;
}

export interface TestScheduleState {
  stateName: TestScheduleStateName;
  lastRunDate?: string | null;
  nextRunDate?: string | null;
  remainingRuns?: number | null;
  runCount?: number;
  [member: string]: unknown;
}

export interface TestSchedule {
  id: string;
  orgId: string;
  teamId: string;
  name: string;
  creationDate: string;
  lastUpdateDate: string;
  creatorUserId: string;
  creatorUserName?: string;
  lastModifierUserId: string;
  lastModifierUserName?: string;
  testSuiteIds: string[];
  settings: TestScheduleSettings;
  state: TestScheduleState;
  [member: string]: unknown;
}

export interface ListTestSchedulesQuery extends AuthoringListFilters, AuthoringPaging {
  ids?: string | readonly string[];
  /** Schedules that contain any of these suites. */
  testSuiteIds?: string | readonly string[];
}

/** Settings sent on create: cron, timezone and runningUserId are the required members. */
export interface CreateTestScheduleSettings {
  cron: string;
  timezone: string;
  runningUserId: string;
  startDate?: AuthoringDate;
  endDate?: AuthoringDate;
  maxRuns?: number;
  scTunnelName?: string;
  buildName?: string;
}

export interface CreateTestScheduleInput {
  name?: string;
  settings?: CreateTestScheduleSettings;
  testSuiteIds?: string[];
  stateName?: TestScheduleStateName;
}

/** Settings sent on update: every member optional; `null` clears the optional ones. */
export interface UpdateTestScheduleSettings {
  cron?: string;
  timezone?: string;
  runningUserId?: string;
  startDate?: AuthoringDate | null;
  endDate?: AuthoringDate | null;
  maxRuns?: number | null;
  scTunnelName?: string | null;
  buildName?: string | null;
}

export interface UpdateTestScheduleInput {
  name?: string;
  settings?: UpdateTestScheduleSettings;
  testSuiteIds?: string[];
  stateName?: TestScheduleStateName;
}

export interface DownloadArtifactOptions {
  /** File name to write instead of the one the service suggests (reduced to a base name too). */
  fileName?: string;
}
