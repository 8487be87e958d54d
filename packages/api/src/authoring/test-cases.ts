/** AI authoring test cases: list, get, delete, run, rename. */
import type { CallOptions } from '../core/values/call.ts';
import { json, operations } from '../core/resources/resource.ts';
import { id, list, optional, record, text } from '../core/resources/shape.ts';
import { AuthoringCollection, type CollectionTable } from './collection.ts';
import { filterQuery, pageOf, type AuthoringContext } from './context.ts';
import type { ListTestCasesQuery, RunTestCaseInput, TestCase, TestCaseDetail, TestCaseRun } from './types.ts';

/** What callers read of a test case: its id and name, and the targets it runs on. */
const TEST_CASE = record({
  id,
  name: text,
  runSettings: optional(record({ additionalTargets: optional(list()) })),
});
/** A case run names its build and its jobs, each with the automation job's id once it has one. */
const CASE_RUN = record({
  build: text,
  jobs: list(record({ sauceJobId: optional(text), name: optional(text) })),
});

const TEST_CASES = operations({
  listTestCases: { route: 'GET /testcases', shape: pageOf(TEST_CASE) },
  getTestCase: { route: 'GET /testcases/{id}', shape: TEST_CASE },
  deleteTestCase: { route: 'DELETE /testcases/{id}', responseType: 'none' },
  runTestCase: { route: 'POST /testcases/{id}/run', shape: CASE_RUN },
  runRevision: { route: 'POST /testcases/{id}/run/{revisionId}', operation: 'runTestCase', shape: CASE_RUN },
  renameTestCase: 'POST /testcases/{id}/rename',
});

const COLLECTION: CollectionTable<ListTestCasesQuery> = {
  list: TEST_CASES.listTestCases,
  get: TEST_CASES.getTestCase,
  // `testSuiteId: null` selects the cases assigned to no suite.
  filters: (query) => ({ ...filterQuery(query), testSuiteId: query.testSuiteId }),
};

/**
 * /v1/ai-authoring/testcases: `list` and `iterate` the cases; /testcases/{id}: `get` one with its
 * revisions and user names, and the case's own operations.
 */
export class AuthoringTestCases extends AuthoringCollection<TestCase, TestCaseDetail, ListTestCasesQuery> {
  constructor(context: AuthoringContext) {
    super(context, COLLECTION);
  }

  /** DELETE /v1/ai-authoring/testcases/{id}: deletes a test case (204). */
  delete(id: string, options?: CallOptions): Promise<void> {
    return this.call(TEST_CASES.deleteTestCase, { path: { id } }, options);
  }

  /**
   * POST /v1/ai-authoring/testcases/{id}/run: queues a run of the case on its targets.
   * With `revisionId` the request goes to POST /v1/ai-authoring/testcases/{id}/run/{revisionId}
   * (the interface leaves the revision's place open; the path segment after `run` is the form used here).
   */
  run(id: string, input: RunTestCaseInput = {}, options?: CallOptions): Promise<TestCaseRun> {
    const { revisionId, ...body } = input;
    const row = revisionId === undefined ? TEST_CASES.runTestCase : TEST_CASES.runRevision;
    return this.call(row, { path: { id, revisionId }, body: json(body) }, options);
  }

  /** POST /v1/ai-authoring/testcases/{id}/rename: gives the case a new name. */
  rename(id: string, name: string, options?: CallOptions): Promise<TestCaseDetail> {
    return this.call(TEST_CASES.renameTestCase, { path: { id }, body: json({ name }) }, options);
  }
}
