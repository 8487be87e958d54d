/** Public information: service status and supported platforms. No credentials are sent. */
import { callSpec, type CallOptions } from '../core/call.ts';
import { segment } from '../core/transport.ts';
import { REST, type AutomationContext } from './context.ts';
import type { AutomationApi, AutomationPlatform, AutomationServiceStatus } from './types.ts';

export class AutomationInfo {
  readonly #ctx: AutomationContext;

  constructor(ctx: AutomationContext) {
    this.#ctx = ctx;
  }

  /** GET /rest/v1/info/status: current service status (`getStatus`). */
  async getStatus(options?: CallOptions): Promise<AutomationServiceStatus> {
    const { body } = await this.#ctx.http.send<AutomationServiceStatus>({
      operation: 'getStatus',
      method: 'GET',
      path: `${REST}/info/status`,
      credentials: null,
      ...callSpec(options),
    });
    return body;
  }

  /** GET /rest/v1/info/platforms/{automationApi}: supported platforms of an automation interface (`listPlatforms`). */
  async listPlatforms(automationApi: AutomationApi, options?: CallOptions): Promise<AutomationPlatform[]> {
    const { body } = await this.#ctx.http.send<AutomationPlatform[]>({
      operation: 'listPlatforms',
      method: 'GET',
      path: `${REST}/info/platforms/${segment(automationApi)}`,
      credentials: null,
      ...callSpec(options),
    });
    return body;
  }
}
