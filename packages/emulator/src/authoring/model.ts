/** The authoring interface's records, as kept in the store's JSON-serialisable data. */

type Capabilities = Record<string, unknown> & {
  browserName?: string;
  browserVersion?: string;
  platformName?: string;
};

export interface RunTarget {
  capabilities: Capabilities;
  isRdc?: boolean;
  [member: string]: unknown;
}

export interface RunSettings {
  testUrl?: string;
  primaryTarget?: RunTarget;
  /**
   * Further targets beyond the primary one. The seed leaves the other members of runSettings
   * unnamed; this is where a case keeps more than one target of its own.
   */
  additionalTargets?: RunTarget[];
  [member: string]: unknown;
}

/**
 * How a case's simulated jobs end; not part of the service's answers. `flaky`: failed the first
 * time the case runs in a build, passed on its later runs in that build.
 */
export type ExpectedOutcome = 'pass' | 'fail' | 'flaky';

/** How one scripted run of a case ends, whatever its expected outcome. */
export type ScriptedOutcome = 'passed' | 'failed';

export interface AuthoringUser {
  id: string;
  /** The automation account name the user signs in with. */
  username: string;
  name: string;
  teamId: string;
}

interface RevisionRecord {
  id: string;
  revisionNumber: number;
  name: string;
  creationDate: string;
  creatorUserId: string;
}

export interface TestCaseRecord {
  id: string;
  orgId: string;
  teamId: string;
  creatorUserId: string;
  lastModifierUserId: string;
  testSuiteId: string | null;
  name: string;
  creationDate: string;
  lastUpdateDate: string;
  runSettings: RunSettings;
  revisions: RevisionRecord[];
  expectedOutcome: ExpectedOutcome;
}

export interface TestSuiteRecord {
  id: string;
  orgId: string;
  teamId: string;
  name: string;
  tags: string[];
  creationDate: string;
  lastUpdate: string;
  creatorUserId: string;
  lastModifierUserId: string;
  runCount: number;
}

export interface ScheduleSettings {
  cron: string;
  timezone: string;
  runningUserId: string;
  startDate?: string;
  endDate?: string;
  maxRuns?: number;
  scTunnelName?: string;
  buildName?: string;
}

export type StateName = 'ENABLED' | 'DISABLED';

export interface TestScheduleRecord {
  id: string;
  orgId: string;
  teamId: string;
  name: string;
  creationDate: string;
  lastUpdateDate: string;
  creatorUserId: string;
  lastModifierUserId: string;
  testSuiteIds: string[];
  settings: ScheduleSettings;
  stateName: StateName;
  lastRunDate: string | null;
  runCount: number;
}

export interface ArtifactRecord {
  id: string;
  orgId: string;
  fileName: string;
  contentType: string;
  size: number;
  /** Path of the stored file relative to the emulator's files folder. */
  file: string;
}

export interface CaseRunJob {
  id: string;
  sauceJobId: string;
  name: string;
  target: RunTarget;
  url: string;
  isRdc: boolean;
  success: boolean | null;
  error: string | null;
}

export interface CaseRunRecord {
  id: string;
  orgId: string;
  teamId: string;
  userId: string;
  testCaseId: string;
  build: string;
  jobs: CaseRunJob[];
  creationDate: string;
  testUrl: string;
  /** The suite run that queued this case run, if any. */
  suiteRunId: string | null;
}

export interface SuiteRunRecord {
  id: string;
  buildName: string;
  runCount: number;
  orgId: string;
  teamId: string;
  userId: string;
  testSuiteId: string;
  creationDate: string;
}

export interface AuthoringData {
  orgId: string;
  /** Team of users created on first sign-in of an account the seed does not list. */
  defaultTeamId: string;
  users: AuthoringUser[];
  testCases: TestCaseRecord[];
  testSuites: TestSuiteRecord[];
  testSchedules: TestScheduleRecord[];
  artifacts: ArtifactRecord[];
  caseRuns: CaseRunRecord[];
  suiteRuns: SuiteRunRecord[];
  /** Every build name runs have used, so that new ones can be made unique. */
  buildNames: string[];
  /**
   * Outcomes scripted through `POST /_emulator/outcomes` for the next runs of a case, by case id,
   * the next one first. Absent in snapshots written before outcomes could be scripted.
   */
  scriptedOutcomes?: Record<string, ScriptedOutcome[]>;
}
