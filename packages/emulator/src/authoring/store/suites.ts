/** Test suites: a named set of test cases, each case in one suite at a time. */
import type { StoreState } from '../../shared/store-state.ts';
import { badRequest, notFound } from '../errors.ts';
import { filterCommon, pageOf, type CommonListQuery } from '../filters.ts';
import { newUuid } from '../ids.ts';
import type { AuthoringData, AuthoringUser, TestSuiteRecord } from '../model.ts';
import { AuthoringPart } from './part.ts';
import type { TestCases } from './test-cases.ts';

interface SuiteListQuery extends CommonListQuery {
  ids?: string[];
}

export class TestSuites extends AuthoringPart {
  readonly #testCases: TestCases;

  constructor(state: StoreState<AuthoringData>, testCases: TestCases) {
    super(state);
    this.#testCases = testCases;
  }

  list(query: SuiteListQuery): { items: TestSuiteRecord[]; total: number } {
    const ids = query.ids?.map((id) => id.toLowerCase());
    const matching = filterCommon(this.state.data.testSuites, query).filter(
      (suite) => !ids || ids.includes(suite.id),
    );
    return pageOf(matching, query);
  }

  get(id: string): TestSuiteRecord {
    const wanted = id.toLowerCase();
    const suite = this.state.data.testSuites.find((candidate) => candidate.id === wanted);
    if (!suite) throw notFound(`test suite ${id} not found`);
    return suite;
  }

  /**
   * Creates a suite and assigns the listed cases to it. A case belongs to one suite at a time, so
   * a listed case leaves the suite it was in. Unknown cases answer 404 (the seed's error table).
   */
  create(
    input: { name: string; testCases?: string[]; tags?: string[] },
    user: AuthoringUser,
  ): TestSuiteRecord {
    const cases = (input.testCases ?? []).map((id) => {
      const testCase = this.#testCases.find(id);
      if (!testCase) throw notFound(`test case ${id} not found`);
      return testCase;
    });
    const now = this.nowIso();
    const suite: TestSuiteRecord = {
      id: newUuid(),
      orgId: this.state.data.orgId,
      teamId: user.teamId,
      name: input.name,
      tags: [...(input.tags ?? [])],
      creationDate: now,
      lastUpdate: now,
      creatorUserId: user.id,
      lastModifierUserId: user.id,
      runCount: 0,
    };
    this.state.data.testSuites.push(suite);
    for (const testCase of cases) testCase.testSuiteId = suite.id;
    this.state.changed();
    return suite;
  }

  /**
   * Updates a suite. `testCaseIds` replaces the suite's list (the seed leaves replace or add
   * open; replace lets a client remove cases, which add could not): cases no longer listed become
   * unassigned. Unknown cases answer 400 here, as the seed's table says for updates.
   */
  update(
    id: string,
    input: { name?: string; testCaseIds: string[]; tags?: string[] },
    user: AuthoringUser,
  ): TestSuiteRecord {
    const suite = this.get(id);
    const cases = input.testCaseIds.map((caseId) => {
      const testCase = this.#testCases.find(caseId);
      if (!testCase) throw badRequest(`test case ${caseId} not found`);
      return testCase;
    });
    for (const testCase of this.#testCases.ofSuite(suite.id)) testCase.testSuiteId = null;
    for (const testCase of cases) testCase.testSuiteId = suite.id;
    if (input.name !== undefined) suite.name = input.name;
    if (input.tags !== undefined) suite.tags = [...input.tags];
    suite.lastModifierUserId = user.id;
    suite.lastUpdate = this.nowIso();
    this.state.changed();
    return suite;
  }

  /**
   * Deletes a suite; with `deleteTestCases` its cases go too, else they stay, unassigned.
   * Schedules stop naming the deleted suite.
   */
  delete(id: string, deleteTestCases: boolean): void {
    const suite = this.get(id);
    const { data } = this.state;
    data.testSuites.splice(data.testSuites.indexOf(suite), 1);
    if (deleteTestCases) {
      data.testCases = data.testCases.filter((testCase) => testCase.testSuiteId !== suite.id);
    } else {
      for (const testCase of this.#testCases.ofSuite(suite.id)) testCase.testSuiteId = null;
    }
    for (const schedule of data.testSchedules) {
      schedule.testSuiteIds = schedule.testSuiteIds.filter((suiteId) => suiteId !== suite.id);
    }
    this.state.changed();
  }
}
