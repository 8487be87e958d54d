/** AI authoring test suites: list, create, get, update, delete, run. */
import type { CallOptions } from '../core/values/call.ts';
import { json, operations } from '../core/resources/resource.ts';
import { id, number, record, text } from '../core/resources/shape.ts';
import { EditableAuthoringCollection, type EditableCollectionTable } from './collection.ts';
import { filterQuery, pageOf, type AuthoringContext } from './context.ts';
import type {
  CreateTestSuiteInput,
  DeleteTestSuiteInput,
  ListTestSuitesQuery,
  RunTestSuiteInput,
  TestSuite,
  TestSuiteRun,
  UpdateTestSuiteInput,
} from './types.ts';

/** What callers read of a suite: its id and name. */
const SUITE = record({ id, name: text });
/** A suite run answers its build and how many case runs it queued. */
const SUITE_RUN = record({ buildName: text, runCount: number });

const SUITES = operations({
  listTestSuites: { route: 'GET /testsuites', shape: pageOf(SUITE) },
  getTestSuite: { route: 'GET /testsuites/{id}', shape: SUITE },
  createTestSuite: 'POST /testsuites',
  updateTestSuite: 'POST /testsuites/{id}',
  deleteTestSuite: { route: 'DELETE /testsuites/{id}', responseType: 'none' },
  runSuite: { route: 'POST /testsuites/{id}/run', shape: SUITE_RUN },
});

const COLLECTION: EditableCollectionTable<ListTestSuitesQuery> = {
  list: SUITES.listTestSuites,
  get: SUITES.getTestSuite,
  filters: (query) => ({ ids: query.ids, ...filterQuery(query) }),
  create: SUITES.createTestSuite,
  update: SUITES.updateTestSuite,
};

/**
 * /v1/ai-authoring/testsuites: `list` and `iterate` the suites, `create` a suite of existing test
 * cases (201); /testsuites/{id}: `get` one, `update` its name or its test cases, and the suite's
 * own operations.
 */
export class AuthoringTestSuites extends EditableAuthoringCollection<
  TestSuite,
  ListTestSuitesQuery,
  CreateTestSuiteInput,
  UpdateTestSuiteInput
> {
  constructor(context: AuthoringContext) {
    super(context, COLLECTION);
  }

  /**
   * DELETE /v1/ai-authoring/testsuites/{id}: deletes a suite (204); with `deleteTestCases: true`
   * its test cases too. The JSON body is sent only when that option is given.
   */
  delete(id: string, input: DeleteTestSuiteInput = {}, options?: CallOptions): Promise<void> {
    const { deleteTestCases } = input;
    const body = deleteTestCases === undefined ? undefined : json({ deleteTestCases });
    return this.call(SUITES.deleteTestSuite, { path: { id }, ...(body ? { body } : {}) }, options);
  }

  /** POST /v1/ai-authoring/testsuites/{id}/run: queues a case run for every case of the suite. */
  run(id: string, input: RunTestSuiteInput = {}, options?: CallOptions): Promise<TestSuiteRun> {
    return this.call(SUITES.runSuite, { path: { id }, body: json(input) }, options);
  }
}
