/** JavaScript unit tests run on chosen platforms (a legacy interface that still answers). */
import { callSpec, type CallOptions } from '../core/call.ts';
import { boolean, either, id, list, optional, record, text } from '../core/shape.ts';
import type { RequestSpec } from '../core/transport.ts';
import { account, REST, sendChecked, type AutomationContext } from './context.ts';
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

export class AutomationJsTests {
  readonly #ctx: AutomationContext;

  constructor(ctx: AutomationContext) {
    this.#ctx = ctx;
  }

  /** POST /rest/v1/{username}/js-tests: starts the test page on every platform, one job each (`startJsTests`). */
  async start(params: StartJsTestsParams, options?: CallOptions): Promise<JsTestsStarted> {
    const { username, capabilities, ...fields } = params;
    const value: Record<string, unknown> = { ...capabilities };
    // Named members win over same-named capabilities; undefined ones are left out of the body.
    for (const [key, member] of Object.entries(fields)) if (member !== undefined) value[key] = member;
    const spec: RequestSpec = {
      operation: 'startJsTests',
      method: 'POST',
      path: `${REST}/${account(this.#ctx, username)}/js-tests`,
      body: { kind: 'json', value },
      ...callSpec(options),
    };
    return sendChecked<JsTestsStarted>(this.#ctx, spec, STARTED);
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
    const spec: RequestSpec = {
      operation: 'getJsTestStatus',
      method: 'POST',
      path: `${REST}/${account(this.#ctx, params.username)}/js-tests/status`,
      body: { kind: 'json', value: { 'js tests': ids } },
      idempotent: true,
      ...callSpec(options),
    };
    return sendChecked<JsTestStatusAnswer>(this.#ctx, spec, STATUS);
  }
}
