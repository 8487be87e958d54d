/** AI authoring test schedules: list, create, get, update, delete. */
import type { CallOptions } from '../core/values/call.ts';
import { operations } from '../core/resources/resource.ts';
import { EditableAuthoringCollection, type EditableCollectionTable } from './collection.ts';
import { filterQuery, type AuthoringContext } from './context.ts';
import type {
  CreateTestScheduleInput,
  ListTestSchedulesQuery,
  TestSchedule,
  UpdateTestScheduleInput,
} from './types.ts';

const SCHEDULES = operations({
  listTestSchedules: 'GET /test-schedules',
  getTestSchedule: 'GET /test-schedules/{id}',
  createTestSchedule: 'POST /test-schedules',
  updateTestSchedule: 'POST /test-schedules/{id}',
  deleteTestSchedule: { route: 'DELETE /test-schedules/{id}', responseType: 'none' },
});

const COLLECTION: EditableCollectionTable<ListTestSchedulesQuery> = {
  list: SCHEDULES.listTestSchedules,
  get: SCHEDULES.getTestSchedule,
  filters: (query) => ({ ids: query.ids, ...filterQuery(query), testSuiteIds: query.testSuiteIds }),
  // Dates in settings become ISO strings through Date#toJSON.
  create: SCHEDULES.createTestSchedule,
  update: SCHEDULES.updateTestSchedule,
};

/**
 * /v1/ai-authoring/test-schedules: `list` and `iterate` the schedules, `create` one that runs
 * suites on a cron interval (201); /test-schedules/{id}: `get` one with its settings and state,
 * `update` it (settings members set to `null` are cleared), and `delete` it.
 */
export class AuthoringTestSchedules extends EditableAuthoringCollection<
  TestSchedule,
  ListTestSchedulesQuery,
  CreateTestScheduleInput,
  UpdateTestScheduleInput
> {
  constructor(context: AuthoringContext) {
    super(context, COLLECTION);
  }

  /** DELETE /v1/ai-authoring/test-schedules/{id}: deletes a schedule (204). */
  delete(id: string, options?: CallOptions): Promise<void> {
    return this.call(SCHEDULES.deleteTestSchedule, { path: { id } }, options);
  }
}
