/** AI authoring test cases: list, get, delete, run, rename. */
import { callSpec, type CallOptions } from '../core/call.ts';
import { paginateSkipLimit, type PageOptions } from '../core/pagination.ts';
import { segment } from '../core/transport.ts';
import { id, list, optional, record, text } from '../core/shape.ts';
import {
  cappedPaging,
  widePages,
  filterQuery,
  pageOf,
  sendForData,
  sendForNothing,
  type AuthoringContext,
} from './context.ts';
import type {
  AuthoringPage,
  ListTestCasesQuery,
  RunTestCaseInput,
  TestCase,
  TestCaseDetail,
  TestCaseRun,
} from './types.ts';

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

export class AuthoringTestCases {
  readonly #context: AuthoringContext;

  constructor(context: AuthoringContext) {
    this.#context = context;
  }

  #path(id?: string): string {
    const base = `${this.#context.prefix}/testcases`;
    return id === undefined ? base : `${base}/${segment(id)}`;
  }

  /**
   * GET /v1/ai-authoring/testcases: one page of test cases. `testSuiteId: null` selects the cases
   * assigned to no suite; `limit: 0` returns only the total.
   */
  list(query: ListTestCasesQuery = {}, options?: CallOptions): Promise<AuthoringPage<TestCase>> {
    return sendForData(
      this.#context,
      {
        operation: 'listTestCases',
        method: 'GET',
        path: this.#path(),
        query: {
          ...filterQuery(query),
          testSuiteId: query.testSuiteId,
          skip: query.skip,
          limit: query.limit,
        },
        ...callSpec(options),
      },
      pageOf(TEST_CASE),
    );
  }

  /** GET /v1/ai-authoring/testcases (every page): all matching test cases, fetched as needed. */
  iterate(
    query: Omit<ListTestCasesQuery, 'skip' | 'limit'> = {},
    options: PageOptions & CallOptions = {},
  ): AsyncGenerator<TestCase, void, undefined> {
    return paginateSkipLimit(
      widePages((skip, limit) => this.list({ ...query, skip, limit }, options)),
      cappedPaging(options),
    );
  }

  /** GET /v1/ai-authoring/testcases/{id}: one test case with its revisions and user names. */
  get(id: string, options?: CallOptions): Promise<TestCaseDetail> {
    return sendForData(
      this.#context,
      {
        operation: 'getTestCase',
        method: 'GET',
        path: this.#path(id),
        ...callSpec(options),
      },
      TEST_CASE,
    );
  }

  /** DELETE /v1/ai-authoring/testcases/{id}: deletes a test case (204). */
  delete(id: string, options?: CallOptions): Promise<void> {
    return sendForNothing(this.#context, {
      operation: 'deleteTestCase',
      method: 'DELETE',
      path: this.#path(id),
      ...callSpec(options),
    });
  }

  /**
   * POST /v1/ai-authoring/testcases/{id}/run: queues a run of the case on its targets.
   * With `revisionId` the request goes to POST /v1/ai-authoring/testcases/{id}/run/{revisionId}
   * (the interface leaves the revision's place open; the path segment after `run` is the form used here).
   */
  run(id: string, input: RunTestCaseInput = {}, options?: CallOptions): Promise<TestCaseRun> {
    const { revisionId, ...body } = input;
    const path =
      revisionId === undefined ? `${this.#path(id)}/run` : `${this.#path(id)}/run/${segment(revisionId)}`;
    return sendForData(
      this.#context,
      {
        operation: 'runTestCase',
        method: 'POST',
        path,
        body: { kind: 'json', value: body },
        ...callSpec(options),
      },
      CASE_RUN,
    );
  }

  /** POST /v1/ai-authoring/testcases/{id}/rename: gives the case a new name. */
  rename(id: string, name: string, options?: CallOptions): Promise<TestCaseDetail> {
    return sendForData(this.#context, {
      operation: 'renameTestCase',
      method: 'POST',
      path: `${this.#path(id)}/rename`,
      body: { kind: 'json', value: { name } },
      ...callSpec(options),
    });
  }
}
