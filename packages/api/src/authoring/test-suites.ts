/** AI authoring test suites: list, create, get, update, delete, run. */
import { callSpec, type CallOptions } from '../core/call.ts';
import { paginateSkipLimit, type PageOptions } from '../core/pagination.ts';
import { segment } from '../core/transport.ts';
import { id, number, record, text } from '../core/shape.ts';
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

export class AuthoringTestSuites {
  readonly #context: AuthoringContext;

  constructor(context: AuthoringContext) {
    this.#context = context;
  }

  #path(id?: string): string {
    const base = `${this.#context.prefix}/testsuites`;
    return id === undefined ? base : `${base}/${segment(id)}`;
  }

  /** GET /v1/ai-authoring/testsuites: one page of test suites. */
  list(query: ListTestSuitesQuery = {}, options?: CallOptions): Promise<AuthoringPage<TestSuite>> {
    return sendForData(
      this.#context,
      {
        operation: 'listTestSuites',
        method: 'GET',
        path: this.#path(),
        query: {
          ids: query.ids,
          ...filterQuery(query),
          skip: query.skip,
          limit: query.limit,
        },
        ...callSpec(options),
      },
      pageOf(SUITE),
    );
  }

  /** GET /v1/ai-authoring/testsuites (every page): all matching suites, fetched as needed. */
  iterate(
    query: Omit<ListTestSuitesQuery, 'skip' | 'limit'> = {},
    options: PageOptions & CallOptions = {},
  ): AsyncGenerator<TestSuite, void, undefined> {
    return paginateSkipLimit(
      widePages((skip, limit) => this.list({ ...query, skip, limit }, options)),
      cappedPaging(options),
    );
  }

  /** POST /v1/ai-authoring/testsuites: creates a suite of existing test cases (201). */
  create(input: CreateTestSuiteInput, options?: CallOptions): Promise<TestSuite> {
    return sendForData(this.#context, {
      operation: 'createTestSuite',
      method: 'POST',
      path: this.#path(),
      body: { kind: 'json', value: input },
      ...callSpec(options),
    });
  }

  /** GET /v1/ai-authoring/testsuites/{id}: one suite. */
  get(id: string, options?: CallOptions): Promise<TestSuite> {
    return sendForData(
      this.#context,
      {
        operation: 'getTestSuite',
        method: 'GET',
        path: this.#path(id),
        ...callSpec(options),
      },
      SUITE,
    );
  }

  /** POST /v1/ai-authoring/testsuites/{id}: changes the name or the test cases of a suite. */
  update(id: string, input: UpdateTestSuiteInput, options?: CallOptions): Promise<TestSuite> {
    return sendForData(this.#context, {
      operation: 'updateTestSuite',
      method: 'POST',
      path: this.#path(id),
      body: { kind: 'json', value: input },
      ...callSpec(options),
    });
  }

  /**
   * DELETE /v1/ai-authoring/testsuites/{id}: deletes a suite (204); with `deleteTestCases: true`
   * its test cases too. The JSON body is sent only when that option is given.
   */
  delete(id: string, input: DeleteTestSuiteInput = {}, options?: CallOptions): Promise<void> {
    return sendForNothing(this.#context, {
      operation: 'deleteTestSuite',
      method: 'DELETE',
      path: this.#path(id),
      ...(input.deleteTestCases !== undefined
        ? { body: { kind: 'json', value: { deleteTestCases: input.deleteTestCases } } }
        : {}),
      ...callSpec(options),
    });
  }

  /** POST /v1/ai-authoring/testsuites/{id}/run: queues a case run for every case of the suite. */
  run(id: string, input: RunTestSuiteInput = {}, options?: CallOptions): Promise<TestSuiteRun> {
    return sendForData(
      this.#context,
      {
        operation: 'runSuite',
        method: 'POST',
        path: `${this.#path(id)}/run`,
        body: { kind: 'json', value: input },
        ...callSpec(options),
      },
      SUITE_RUN,
    );
  }
}
