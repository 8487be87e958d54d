/** State of the AI authoring interface: test cases, suites, schedules, artifacts and runs. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { StoreEnvironment } from '../store-environment.ts';
import { badRequest, notFound } from './errors.ts';
import { filterCommon, pageOf, type CommonListQuery } from './filters.ts';
import { newHexId, newUuid } from './ids.ts';
import type {
  ArtifactRecord,
  AuthoringData,
  AuthoringUser,
  ScheduleSettings,
  StateName,
  TestCaseRecord,
  TestScheduleRecord,
  TestSuiteRecord,
} from './model.ts';
import { DEFAULT_ORG_ID, DEMO_TEAM_ID, type AuthoringSeed } from './seed.ts';
import { cronProblem, isValidTimeZone } from './schedule-timing.ts';

export type { AuthoringData } from './model.ts';

/** Folder, inside the emulator's files folder, that holds stored artifacts. */
const ARTIFACTS_DIR = 'authoring-artifacts';

export interface TestCaseListQuery extends CommonListQuery {
  /** Suite ids; the text `null` selects unassigned cases. */
  testSuiteId?: string[];
}

export interface SuiteListQuery extends CommonListQuery {
  ids?: string[];
}

export interface ScheduleListQuery extends CommonListQuery {
  ids?: string[];
  testSuiteIds?: string[];
}

/** Settings on update: the optional members may be null, which clears them. */
export type ScheduleSettingsPatch = {
  [K in keyof ScheduleSettings]?: ScheduleSettings[K] | null;
};

export interface ScheduleInput {
  name?: string;
  settings?: ScheduleSettingsPatch;
  testSuiteIds?: string[];
  stateName?: StateName;
}

export class AuthoringStore {
  readonly data: AuthoringData;
  readonly #env: StoreEnvironment;

  constructor(env: StoreEnvironment, data: AuthoringData) {
    this.#env = env;
    this.data = data;
  }

  static initialData(seed: AuthoringSeed, env: StoreEnvironment): AuthoringData {
    const now = new Date(env.now()).toISOString();
    const orgId = seed.orgId ?? DEFAULT_ORG_ID;
    const users = (seed.users ?? []).map((user) => ({ ...user }));
    const defaultTeamId = users[0]?.teamId ?? DEMO_TEAM_ID;
    const firstUserId = users[0]?.id ?? newUuid();
    const teamOf = (userId: string) => users.find((user) => user.id === userId)?.teamId ?? defaultTeamId;

    const testSuites: TestSuiteRecord[] = (seed.testSuites ?? []).map((suite) => {
      const creator = suite.creatorUserId ?? firstUserId;
      const created = suite.creationDate ?? now;
      return {
        id: suite.id.toLowerCase(),
        orgId,
        teamId: teamOf(creator),
        name: suite.name,
        tags: [...(suite.tags ?? [])],
        creationDate: created,
        lastUpdate: created,
        creatorUserId: creator,
        lastModifierUserId: creator,
        runCount: 0,
      };
    });

    const testCases: TestCaseRecord[] = (seed.testCases ?? []).map((seedCase) => {
      const creator = seedCase.creatorUserId ?? firstUserId;
      const created = seedCase.creationDate ?? now;
      return {
        id: seedCase.id.toLowerCase(),
        orgId,
        teamId: teamOf(creator),
        creatorUserId: creator,
        lastModifierUserId: creator,
        testSuiteId: seedCase.testSuiteId?.toLowerCase() ?? null,
        name: seedCase.name,
        creationDate: created,
        lastUpdateDate: created,
        runSettings: structuredClone(seedCase.runSettings ?? {}),
        revisions: [
          {
            id: newHexId(),
            revisionNumber: 1,
            name: seedCase.name,
            creationDate: created,
            creatorUserId: creator,
          },
        ],
        expectedOutcome: seedCase.expectedOutcome ?? 'pass',
      };
    });

    const testSchedules: TestScheduleRecord[] = (seed.testSchedules ?? []).map((schedule) => {
      const creator = schedule.creatorUserId ?? firstUserId;
      const created = schedule.creationDate ?? now;
      return {
        id: schedule.id.toLowerCase(),
        orgId,
        teamId: teamOf(creator),
        name: schedule.name,
        creationDate: created,
        lastUpdateDate: created,
        creatorUserId: creator,
        lastModifierUserId: creator,
        testSuiteIds: schedule.testSuiteIds.map((id) => id.toLowerCase()),
        settings: { ...schedule.settings },
        stateName: schedule.stateName ?? 'ENABLED',
        lastRunDate: null,
        runCount: 0,
      };
    });

    // Artifacts live as files so that the download streams them like any stored file.
    const artifactsDir = path.join(env.filesDir, ARTIFACTS_DIR);
    mkdirSync(artifactsDir, { recursive: true });
    const artifacts: ArtifactRecord[] = (seed.artifacts ?? []).map((artifact) => {
      const id = artifact.id.toLowerCase();
      const bytes = Buffer.from(artifact.contentBase64, 'base64');
      writeFileSync(path.join(artifactsDir, id), bytes);
      return {
        id,
        orgId,
        fileName: artifact.fileName,
        contentType: artifact.contentType ?? 'application/octet-stream',
        size: bytes.length,
        file: path.join(ARTIFACTS_DIR, id),
      };
    });

    return {
      orgId,
      defaultTeamId,
      users,
      testCases,
      testSuites,
      testSchedules,
      artifacts,
      caseRuns: [],
      suiteRuns: [],
      buildNames: [],
    };
  }

  now(): number {
    return this.#env.now();
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Tells the emulator that the state changed; the runs, which write records here, call it too. */
  changed(): void {
    this.#env.changed();
  }

  // Users

  /**
   * The authoring user of an automation account. An account the seed does not list gets a user
   * (a new UUID, in the default team) on its first request, as every Sauce account has one.
   */
  userForAccount(username: string): AuthoringUser {
    const known = this.data.users.find((user) => user.username === username);
    if (known) return known;
    const user: AuthoringUser = { id: newUuid(), username, name: username, teamId: this.data.defaultTeamId };
    this.data.users.push(user);
    this.changed();
    return user;
  }

  userById(id: string): AuthoringUser | undefined {
    const wanted = id.toLowerCase();
    return this.data.users.find((user) => user.id.toLowerCase() === wanted);
  }

  userName(id: string): string {
    return this.userById(id)?.name ?? '';
  }

  // Test cases

  listTestCases(query: TestCaseListQuery): { items: TestCaseRecord[]; total: number } {
    const suites = query.testSuiteId?.map((id) => id.toLowerCase());
    const matching = filterCommon(this.data.testCases, query).filter(
      (testCase) => !suites || suites.includes(testCase.testSuiteId ?? 'null'),
    );
    return pageOf(matching, query);
  }

  findTestCase(id: string): TestCaseRecord | undefined {
    const wanted = id.toLowerCase();
    return this.data.testCases.find((testCase) => testCase.id === wanted);
  }

  getTestCase(id: string): TestCaseRecord {
    const testCase = this.findTestCase(id);
    if (!testCase) throw notFound(`test case ${id} not found`);
    return testCase;
  }

  deleteTestCase(id: string): void {
    const testCase = this.getTestCase(id);
    this.data.testCases.splice(this.data.testCases.indexOf(testCase), 1);
    this.changed();
  }

  /** Renaming changes the case's metadata only; it adds no revision. */
  renameTestCase(id: string, name: string, user: AuthoringUser): TestCaseRecord {
    const testCase = this.getTestCase(id);
    testCase.name = name;
    testCase.lastModifierUserId = user.id;
    testCase.lastUpdateDate = this.nowIso();
    this.changed();
    return testCase;
  }

  casesOfSuite(suiteId: string): TestCaseRecord[] {
    return this.data.testCases
      .filter((testCase) => testCase.testSuiteId === suiteId)
      .sort((a, b) => a.creationDate.localeCompare(b.creationDate) || a.id.localeCompare(b.id));
  }

  // Test suites

  listSuites(query: SuiteListQuery): { items: TestSuiteRecord[]; total: number } {
    const ids = query.ids?.map((id) => id.toLowerCase());
    const matching = filterCommon(this.data.testSuites, query).filter(
      (suite) => !ids || ids.includes(suite.id),
    );
    return pageOf(matching, query);
  }

  getSuite(id: string): TestSuiteRecord {
    const wanted = id.toLowerCase();
    const suite = this.data.testSuites.find((candidate) => candidate.id === wanted);
    if (!suite) throw notFound(`test suite ${id} not found`);
    return suite;
  }

  /**
   * Creates a suite and assigns the listed cases to it. A case belongs to one suite at a time, so
   * a listed case leaves the suite it was in. Unknown cases answer 404 (the seed's error table).
   */
  createSuite(
    input: { name: string; testCases?: string[]; tags?: string[] },
    user: AuthoringUser,
  ): TestSuiteRecord {
    const cases = (input.testCases ?? []).map((id) => {
      const testCase = this.findTestCase(id);
      if (!testCase) throw notFound(`test case ${id} not found`);
      return testCase;
    });
    const now = this.nowIso();
    const suite: TestSuiteRecord = {
      id: newUuid(),
      orgId: this.data.orgId,
      teamId: user.teamId,
      name: input.name,
      tags: [...(input.tags ?? [])],
      creationDate: now,
      lastUpdate: now,
      creatorUserId: user.id,
      lastModifierUserId: user.id,
      runCount: 0,
    };
    this.data.testSuites.push(suite);
    for (const testCase of cases) testCase.testSuiteId = suite.id;
    this.changed();
    return suite;
  }

  /**
   * Updates a suite. `testCaseIds` replaces the suite's list (the seed leaves replace or add
   * open; replace lets a client remove cases, which add could not): cases no longer listed become
   * unassigned. Unknown cases answer 400 here, as the seed's table says for updates.
   */
  updateSuite(
    id: string,
    input: { name?: string; testCaseIds: string[]; tags?: string[] },
    user: AuthoringUser,
  ): TestSuiteRecord {
    const suite = this.getSuite(id);
    const cases = input.testCaseIds.map((caseId) => {
      const testCase = this.findTestCase(caseId);
      if (!testCase) throw badRequest(`test case ${caseId} not found`);
      return testCase;
    });
    for (const testCase of this.casesOfSuite(suite.id)) testCase.testSuiteId = null;
    for (const testCase of cases) testCase.testSuiteId = suite.id;
    if (input.name !== undefined) suite.name = input.name;
    if (input.tags !== undefined) suite.tags = [...input.tags];
    suite.lastModifierUserId = user.id;
    suite.lastUpdate = this.nowIso();
    this.changed();
    return suite;
  }

  /**
   * Deletes a suite; with `deleteTestCases` its cases go too, else they stay, unassigned.
   * Schedules stop naming the deleted suite.
   */
  deleteSuite(id: string, deleteTestCases: boolean): void {
    const suite = this.getSuite(id);
    this.data.testSuites.splice(this.data.testSuites.indexOf(suite), 1);
    if (deleteTestCases) {
      this.data.testCases = this.data.testCases.filter((testCase) => testCase.testSuiteId !== suite.id);
    } else {
      for (const testCase of this.casesOfSuite(suite.id)) testCase.testSuiteId = null;
    }
    for (const schedule of this.data.testSchedules) {
      schedule.testSuiteIds = schedule.testSuiteIds.filter((suiteId) => suiteId !== suite.id);
    }
    this.changed();
  }

  // Test schedules

  listSchedules(query: ScheduleListQuery): { items: TestScheduleRecord[]; total: number } {
    const ids = query.ids?.map((id) => id.toLowerCase());
    const suites = query.testSuiteIds?.map((id) => id.toLowerCase());
    const matching = filterCommon(this.data.testSchedules, query).filter(
      (schedule) =>
        (!ids || ids.includes(schedule.id)) &&
        (!suites || schedule.testSuiteIds.some((suiteId) => suites.includes(suiteId))),
    );
    return pageOf(matching, query);
  }

  getSchedule(id: string): TestScheduleRecord {
    const wanted = id.toLowerCase();
    const schedule = this.data.testSchedules.find((candidate) => candidate.id === wanted);
    if (!schedule) throw notFound(`test schedule ${id} not found`);
    return schedule;
  }

  /**
   * Creates a schedule. Every body member is optional (seed); without settings the schedule runs
   * daily at midnight UTC as its creator, without a name it is called "Untitled schedule", and
   * without stateName it is ENABLED.
   */
  createSchedule(input: ScheduleInput, user: AuthoringUser): TestScheduleRecord {
    const settings = mergeSettings(
      { cron: '0 0 * * *', timezone: 'UTC', runningUserId: user.id },
      input.settings,
    );
    const testSuiteIds = this.checkSchedule(settings, input.testSuiteIds ?? []);
    const now = this.nowIso();
    const schedule: TestScheduleRecord = {
      id: newUuid(),
      orgId: this.data.orgId,
      teamId: user.teamId,
      name: input.name ?? 'Untitled schedule',
      creationDate: now,
      lastUpdateDate: now,
      creatorUserId: user.id,
      lastModifierUserId: user.id,
      testSuiteIds,
      settings,
      stateName: input.stateName ?? 'ENABLED',
      lastRunDate: null,
      runCount: 0,
    };
    this.data.testSchedules.push(schedule);
    this.changed();
    return schedule;
  }

  /** Updates the members given; `testSuiteIds` replaces the list; null settings members are cleared. */
  updateSchedule(id: string, input: ScheduleInput, user: AuthoringUser): TestScheduleRecord {
    const schedule = this.getSchedule(id);
    const settings = mergeSettings(schedule.settings, input.settings);
    const testSuiteIds = this.checkSchedule(settings, input.testSuiteIds ?? schedule.testSuiteIds);
    schedule.settings = settings;
    schedule.testSuiteIds = testSuiteIds;
    if (input.name !== undefined) schedule.name = input.name;
    if (input.stateName !== undefined) schedule.stateName = input.stateName;
    schedule.lastModifierUserId = user.id;
    schedule.lastUpdateDate = this.nowIso();
    this.changed();
    return schedule;
  }

  deleteSchedule(id: string): void {
    const schedule = this.getSchedule(id);
    this.data.testSchedules.splice(this.data.testSchedules.indexOf(schedule), 1);
    this.changed();
  }

  /** 400 for what the body schema cannot see: cron, time zone, dates, running user and suites. */
  private checkSchedule(settings: ScheduleSettings, testSuiteIds: string[]): string[] {
    const problem = cronProblem(settings.cron);
    if (problem !== undefined) throw badRequest(`settings.cron is not a valid cron expression: ${problem}`);
    if (!isValidTimeZone(settings.timezone))
      throw badRequest(`settings.timezone ${settings.timezone} is unknown`);
    if (
      settings.startDate &&
      settings.endDate &&
      Date.parse(settings.endDate) < Date.parse(settings.startDate)
    ) {
      throw badRequest('settings.endDate is before settings.startDate');
    }
    const runningUser = this.userById(settings.runningUserId);
    if (!runningUser)
      throw badRequest(`settings.runningUserId ${settings.runningUserId} is not a known user`);
    settings.runningUserId = runningUser.id;
    return testSuiteIds.map((suiteId) => {
      const wanted = suiteId.toLowerCase();
      if (!this.data.testSuites.some((suite) => suite.id === wanted)) {
        throw badRequest(`test suite ${suiteId} not found`);
      }
      return wanted;
    });
  }

  // Artifacts

  getArtifact(id: string): { artifact: ArtifactRecord; file: string } {
    const wanted = id.toLowerCase();
    const artifact = this.data.artifacts.find((candidate) => candidate.id === wanted);
    if (!artifact) throw notFound(`artifact ${id} not found`);
    return { artifact, file: path.join(this.#env.filesDir, artifact.file) };
  }
}

/** Settings with a patch applied: undefined keeps a member, null clears it. */
function mergeSettings(base: ScheduleSettings, patch: ScheduleSettingsPatch | undefined): ScheduleSettings {
  const given = Object.entries(patch ?? {}).filter(([, value]) => value !== undefined);
  const merged: Record<string, unknown> = { ...base, ...Object.fromEntries(given) };
  return Object.fromEntries(
    Object.entries(merged).filter(([, value]) => value !== null && value !== undefined),
  ) as unknown as ScheduleSettings;
}
