/** JavaScript unit tests run on chosen platforms (a legacy interface that still answers). */
import type { CallOptions } from '../core/values/call.ts';
import { json, operations } from '../core/resources/resource.ts';
import { boolean, either, id, list, optional, record, text } from '../core/resources/shape.ts';
import { AutomationResource } from './context.ts';
import type { ForAccount, JsTestsStarted, JsTestStatusAnswer, StartJsTestsParams } from './types.ts';

/** A start answers one test id per platform. */
const STARTED = record({ 'js tests': list(id) });
/**
 * A status: whether all is done, and per platform its test id, its job id (a placeholder text
 * until one is assigned) and its platform; the result is read by the framework's rules, whatever
 * it is.
 */
const STATUS = record({
  completed: boolean,
  'js tests': list(record({ id, job_id: optional(either(text, id)), platform: optional(list()) })),
});

const JS_TESTS = operations({
  startJsTests: { route: 'POST /{username}/js-tests', shape: STARTED },
  // It only reads, so it is retried like a GET.
  getJsTestStatus: { route: 'POST /{username}/js-tests/status', shape: STATUS, idempotent: true },
});

export class AutomationJsTests extends AutomationResource {
  /** POST /rest/v1/{username}/js-tests: starts the test page on every platform, one job each (`startJsTests`). */
  async start(params: StartJsTestsParams, options?: CallOptions): Promise<JsTestsStarted> {
    const { username, capabilities, ...fields } = params;
    const value: Record<string, unknown> = { ...capabilities };
    // Named members win over same-named capabilities; undefined ones are left out of the body.
    for (const [key, member] of Object.entries(fields)) if (member !== undefined) value[key] = member;
    return this.call(JS_TESTS.startJsTests, { path: { username }, body: json(value) }, options);
  }

  /**
   * POST /rest/v1/{username}/js-tests/status: progress and results of started tests
   * (`getJsTestStatus`). Poll until `completed` is true. It only reads, so it is retried like a GET.
   */
  async getStatus(
    ids: readonly string[],
    params: ForAccount = {},
    options?: CallOptions,
  ): Promise<JsTestStatusAnswer> {
    const body = json({ 'js tests': ids });
    return this.call(JS_TESTS.getJsTestStatus, { path: { username: params.username }, body }, options);
  }
}
