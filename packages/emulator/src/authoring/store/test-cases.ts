/** Test cases: listed, renamed and deleted here; they are written in the service's own editor. */
import { notFound } from '../errors.ts';
import { filterCommon, pageOf, type CommonListQuery } from '../filters.ts';
import type { AuthoringUser, TestCaseRecord } from '../model.ts';
import { AuthoringPart } from './part.ts';

interface TestCaseListQuery extends CommonListQuery {
  /** Suite ids; the text `null` selects unassigned cases. */
  testSuiteId?: string[];
}

export class TestCases extends AuthoringPart {
  list(query: TestCaseListQuery): { items: TestCaseRecord[]; total: number } {
    const suites = query.testSuiteId?.map((id) => id.toLowerCase());
    const matching = filterCommon(this.state.data.testCases, query).filter(
      (testCase) => !suites || suites.includes(testCase.testSuiteId ?? 'null'),
    );
    return pageOf(matching, query);
  }

  find(id: string): TestCaseRecord | undefined {
    const wanted = id.toLowerCase();
    return this.state.data.testCases.find((testCase) => testCase.id === wanted);
  }

  get(id: string): TestCaseRecord {
    const testCase = this.find(id);
    if (!testCase) throw notFound(`test case ${id} not found`);
    return testCase;
  }

  delete(id: string): void {
    const { testCases } = this.state.data;
    testCases.splice(testCases.indexOf(this.get(id)), 1);
    this.state.changed();
  }

  /** Renaming changes the case's metadata only; it adds no revision. */
  rename(id: string, name: string, user: AuthoringUser): TestCaseRecord {
    const testCase = this.get(id);
    testCase.name = name;
    testCase.lastModifierUserId = user.id;
    testCase.lastUpdateDate = this.nowIso();
    this.state.changed();
    return testCase;
  }

  /** The cases of a suite, oldest first: the order a suite run queues them in. */
  ofSuite(suiteId: string): TestCaseRecord[] {
    return this.state.data.testCases
      .filter((testCase) => testCase.testSuiteId === suiteId)
      .sort((a, b) => a.creationDate.localeCompare(b.creationDate) || a.id.localeCompare(b.id));
  }
}
