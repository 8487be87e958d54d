/** Secure tunnels of an account. */
import { callSpec, type CallOptions } from '../core/call.ts';
import { segment } from '../core/transport.ts';
import { account, REST, type AutomationContext } from './context.ts';
import type { DeleteTunnelParams, ForAccount, ListTunnelsParams, Tunnel, TunnelDeletion } from './types.ts';

export class AutomationTunnels {
  readonly #ctx: AutomationContext;

  constructor(ctx: AutomationContext) {
    this.#ctx = ctx;
  }

  /** GET /rest/v1/{username}/tunnels: running tunnels, as ids or with `full: true` whole tunnels (`listTunnels`). */
  list(params: ListTunnelsParams & { full: true }, options?: CallOptions): Promise<Tunnel[]>;
  list(params?: ListTunnelsParams & { full?: false }, options?: CallOptions): Promise<string[]>;
  list(params?: ListTunnelsParams, options?: CallOptions): Promise<Tunnel[] | string[]>;
  async list(params: ListTunnelsParams = {}, options?: CallOptions): Promise<Tunnel[] | string[]> {
    const { body } = await this.#ctx.http.send<Tunnel[] | string[]>({
      operation: 'listTunnels',
      method: 'GET',
      path: `${REST}/${account(this.#ctx, params.username)}/tunnels`,
      query: { full: params.full },
      ...callSpec(options),
    });
    return body;
  }

  /** GET /rest/v1/{username}/tunnels/{tunnelId}: one tunnel (`getTunnel`). */
  async get(tunnelId: string, params: ForAccount = {}, options?: CallOptions): Promise<Tunnel> {
    const { body } = await this.#ctx.http.send<Tunnel>({
      operation: 'getTunnel',
      method: 'GET',
      path: this.#tunnelPath(tunnelId, params.username),
      ...callSpec(options),
    });
    return body;
  }

  /** DELETE /rest/v1/{username}/tunnels/{tunnelId}: shuts the tunnel down, with an optional reason (`deleteTunnel`). */
  async delete(
    tunnelId: string,
    params: DeleteTunnelParams = {},
    options?: CallOptions,
  ): Promise<TunnelDeletion> {
    const { body } = await this.#ctx.http.send<TunnelDeletion>({
      operation: 'deleteTunnel',
      method: 'DELETE',
      path: this.#tunnelPath(tunnelId, params.username),
      ...(params.reason !== undefined ? { body: { kind: 'json', value: { reason: params.reason } } } : {}),
      ...callSpec(options),
    });
    return body;
  }

  #tunnelPath(tunnelId: string, username: string | undefined): string {
    return `${REST}/${account(this.#ctx, username)}/tunnels/${segment(tunnelId)}`;
  }
}
