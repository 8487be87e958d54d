/** AI authoring test schedules: list, create, get, update, delete. */
import { callSpec, type CallOptions } from '../core/call.ts';
import { paginateSkipLimit, type PageOptions } from '../core/pagination.ts';
import { segment } from '../core/transport.ts';
import {
  cappedPaging,
  widePages,
  filterQuery,
  sendForData,
  sendForNothing,
  type AuthoringContext,
} from './context.ts';
import type {
  AuthoringPage,
  CreateTestScheduleInput,
  ListTestSchedulesQuery,
  TestSchedule,
  UpdateTestScheduleInput,
} from './types.ts';

export class AuthoringTestSchedules {
  readonly #context: AuthoringContext;

  constructor(context: AuthoringContext) {
    this.#context = context;
  }

  #path(id?: string): string {
    const base = `${this.#context.prefix}/test-schedules`;
    return id === undefined ? base : `${base}/${segment(id)}`;
  }

  /** GET /v1/ai-authoring/test-schedules: one page of schedules. */
  list(query: ListTestSchedulesQuery = {}, options?: CallOptions): Promise<AuthoringPage<TestSchedule>> {
    return sendForData(this.#context, {
      operation: 'listTestSchedules',
      method: 'GET',
      path: this.#path(),
      query: {
        ids: query.ids,
        ...filterQuery(query),
        testSuiteIds: query.testSuiteIds,
        skip: query.skip,
        limit: query.limit,
      },
      ...callSpec(options),
    });
  }

  /** GET /v1/ai-authoring/test-schedules (every page): all matching schedules, fetched as needed. */
  iterate(
    query: Omit<ListTestSchedulesQuery, 'skip' | 'limit'> = {},
    options: PageOptions & CallOptions = {},
  ): AsyncGenerator<TestSchedule, void, undefined> {
    return paginateSkipLimit(
      widePages((skip, limit) => this.list({ ...query, skip, limit }, options)),
      cappedPaging(options),
    );
  }

  /** POST /v1/ai-authoring/test-schedules: creates a schedule that runs suites on a cron interval (201). */
  create(input: CreateTestScheduleInput, options?: CallOptions): Promise<TestSchedule> {
    return sendForData(this.#context, {
      operation: 'createTestSchedule',
      method: 'POST',
      path: this.#path(),
      // Dates in settings become ISO strings through Date#toJSON.
      body: { kind: 'json', value: input },
      ...callSpec(options),
    });
  }

  /** GET /v1/ai-authoring/test-schedules/{id}: one schedule with its settings and state. */
  get(id: string, options?: CallOptions): Promise<TestSchedule> {
    return sendForData(this.#context, {
      operation: 'getTestSchedule',
      method: 'GET',
      path: this.#path(id),
      ...callSpec(options),
    });
  }

  /**
   * POST /v1/ai-authoring/test-schedules/{id}: changes a schedule. The settings members startDate,
   * endDate, maxRuns, scTunnelName and buildName set to `null` are cleared.
   */
  update(id: string, input: UpdateTestScheduleInput, options?: CallOptions): Promise<TestSchedule> {
    return sendForData(this.#context, {
      operation: 'updateTestSchedule',
      method: 'POST',
      path: this.#path(id),
      body: { kind: 'json', value: input },
      ...callSpec(options),
    });
  }

  /** DELETE /v1/ai-authoring/test-schedules/{id}: deletes a schedule (204). */
  delete(id: string, options?: CallOptions): Promise<void> {
    return sendForNothing(this.#context, {
      operation: 'deleteTestSchedule',
      method: 'DELETE',
      path: this.#path(id),
      ...callSpec(options),
    });
  }
}
