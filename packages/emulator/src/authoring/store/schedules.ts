/** Test schedules: when suites run on their own, as which user. */
import type { StoreState } from '../../shared/store-state.ts';
import { badRequest, notFound } from '../errors.ts';
import { filterCommon, pageOf, type CommonListQuery } from '../filters.ts';
import { newUuid } from '../ids.ts';
import type {
  AuthoringData,
  AuthoringUser,
  ScheduleSettings,
  StateName,
  TestScheduleRecord,
} from '../model.ts';
import { cronProblem, isValidTimeZone } from '../schedule-timing.ts';
import { AuthoringPart } from './part.ts';
import type { AuthoringUsers } from './users.ts';

interface ScheduleListQuery extends CommonListQuery {
  ids?: string[];
  testSuiteIds?: string[];
}

/** Settings on update: the optional members may be null, which clears them. */
type ScheduleSettingsPatch = {
  [K in keyof ScheduleSettings]?: ScheduleSettings[K] | null;
};

interface ScheduleInput {
  name?: string;
  settings?: ScheduleSettingsPatch;
  testSuiteIds?: string[];
  stateName?: StateName;
}

export class TestSchedules extends AuthoringPart {
  readonly #users: AuthoringUsers;

  constructor(state: StoreState<AuthoringData>, users: AuthoringUsers) {
    super(state);
    this.#users = users;
  }

  list(query: ScheduleListQuery): { items: TestScheduleRecord[]; total: number } {
    const ids = query.ids?.map((id) => id.toLowerCase());
    const suites = query.testSuiteIds?.map((id) => id.toLowerCase());
    const matching = filterCommon(this.state.data.testSchedules, query).filter(
      (schedule) =>
        (!ids || ids.includes(schedule.id)) &&
        (!suites || schedule.testSuiteIds.some((suiteId) => suites.includes(suiteId))),
    );
    return pageOf(matching, query);
  }

  get(id: string): TestScheduleRecord {
    const wanted = id.toLowerCase();
    const schedule = this.state.data.testSchedules.find((candidate) => candidate.id === wanted);
    if (!schedule) throw notFound(`test schedule ${id} not found`);
    return schedule;
  }

  /**
   * Creates a schedule. Every body member is optional (seed); without settings the schedule runs
   * daily at midnight UTC as its creator, without a name it is called "Untitled schedule", and
   * without stateName it is ENABLED.
   */
  create(input: ScheduleInput, user: AuthoringUser): TestScheduleRecord {
    const settings = mergeSettings(
      { cron: '0 0 * * *', timezone: 'UTC', runningUserId: user.id },
      input.settings,
    );
    const testSuiteIds = this.#check(settings, input.testSuiteIds ?? []);
    const now = this.nowIso();
    const schedule: TestScheduleRecord = {
      id: newUuid(),
      orgId: this.state.data.orgId,
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
    this.state.data.testSchedules.push(schedule);
    this.state.changed();
    return schedule;
  }

  /** Updates the members given; `testSuiteIds` replaces the list; null settings members are cleared. */
  update(id: string, input: ScheduleInput, user: AuthoringUser): TestScheduleRecord {
    const schedule = this.get(id);
    const settings = mergeSettings(schedule.settings, input.settings);
    const testSuiteIds = this.#check(settings, input.testSuiteIds ?? schedule.testSuiteIds);
    schedule.settings = settings;
    schedule.testSuiteIds = testSuiteIds;
    if (input.name !== undefined) schedule.name = input.name;
    if (input.stateName !== undefined) schedule.stateName = input.stateName;
    schedule.lastModifierUserId = user.id;
    schedule.lastUpdateDate = this.nowIso();
    this.state.changed();
    return schedule;
  }

  delete(id: string): void {
    const { testSchedules } = this.state.data;
    testSchedules.splice(testSchedules.indexOf(this.get(id)), 1);
    this.state.changed();
  }

  /** 400 for what the body schema cannot see: cron, time zone, dates, running user and suites. */
  #check(settings: ScheduleSettings, testSuiteIds: string[]): string[] {
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
    const runningUser = this.#users.byId(settings.runningUserId);
    if (!runningUser)
      throw badRequest(`settings.runningUserId ${settings.runningUserId} is not a known user`);
    settings.runningUserId = runningUser.id;
    return testSuiteIds.map((suiteId) => {
      const wanted = suiteId.toLowerCase();
      if (!this.state.data.testSuites.some((suite) => suite.id === wanted)) {
        throw badRequest(`test suite ${suiteId} not found`);
      }
      return wanted;
    });
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
