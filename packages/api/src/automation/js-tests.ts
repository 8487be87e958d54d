/** JavaScript unit tests run on chosen platforms (a legacy interface that still answers). */
import { callSpec, type CallOptions } from '../core/call.ts';
import { account, REST, type AutomationContext } from './context.ts';
import type { ForAccount, JsTestsStarted, JsTestStatusAnswer, StartJsTestsParams } from './types.ts';

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
    const { body } = await this.#ctx.http.send<JsTestsStarted>({
      operation: 'startJsTests',
      method: 'POST',
      path: `${REST}/${account(this.#ctx, username)}/js-tests`,
      body: { kind: 'json', value },
      ...callSpec(options),
    });
    return body;
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
    const { body } = await this.#ctx.http.send<JsTestStatusAnswer>({
      operation: 'getJsTestStatus',
      method: 'POST',
      path: `${REST}/${account(this.#ctx, params.username)}/js-tests/status`,
      body: { kind: 'json', value: { 'js tests': ids } },
      idempotent: true,
      ...callSpec(options),
    });
    return body;
  }
}
