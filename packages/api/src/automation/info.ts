/**
 * Public information: service status and supported platforms. No credentials are sent.
 *
 * Seed 002 places these operations under its base address, like every other one:
 * `{rest_url}/info/status` and `{rest_url}/info/platforms/:automation_api`, where `{rest_url}`
 * ends with `/rest/v1`. It adds that they are served over plain HTTP: they answer without TLS as
 * well, which the client does not need. It keeps the configured base address, so an `https`
 * address is never downgraded, and a client pointed at the emulator (plain HTTP) reaches them too.
 */
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
