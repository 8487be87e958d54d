/** Secure tunnels of an account. */
import { callSpec, type CallOptions } from '../core/call.ts';
import { list, optional, record, text } from '../core/shape.ts';
import { segment, type RequestSpec } from '../core/transport.ts';
import { account, REST, sendChecked, type AutomationContext } from './context.ts';
import { TUNNEL_TIMES, withServiceTimes } from './times.ts';
import type { DeleteTunnelParams, ForAccount, ListTunnelsParams, Tunnel, TunnelDeletion } from './types.ts';

/**
 * What callers read of a tunnel: its id, owner, status and name. Its times only order and date
 * it: one in another form reads as unknown (`withServiceTimes`), and fails nothing.
 */
const TUNNEL = record({
  id: text,
  owner: optional(text),
  status: optional(text),
  tunnel_identifier: optional(text),
  host: optional(text),
});

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
    const spec: RequestSpec = {
      operation: 'listTunnels',
      method: 'GET',
      path: `${REST}/${account(this.#ctx, params.username)}/tunnels`,
      query: { full: params.full },
      ...callSpec(options),
    };
    if (!params.full) return sendChecked<string[]>(this.#ctx, spec, list(text));
    const tunnels = await sendChecked<Tunnel[]>(this.#ctx, spec, list(TUNNEL));
    return tunnels.map((tunnel) => withServiceTimes(tunnel, TUNNEL_TIMES));
  }

  /** GET /rest/v1/{username}/tunnels/{tunnelId}: one tunnel (`getTunnel`). */
  async get(tunnelId: string, params: ForAccount = {}, options?: CallOptions): Promise<Tunnel> {
    const spec: RequestSpec = {
      operation: 'getTunnel',
      method: 'GET',
      path: this.#tunnelPath(tunnelId, params.username),
      ...callSpec(options),
    };
    return sendChecked<Tunnel>(this.#ctx, spec, TUNNEL);
  }

  /** DELETE /rest/v1/{username}/tunnels/{tunnelId}: shuts the tunnel down, with an optional reason (`deleteTunnel`). */
  async delete(
    tunnelId: string,
    params: DeleteTunnelParams = {},
    options?: CallOptions,
  ): Promise<TunnelDeletion> {
    const spec: RequestSpec = {
      operation: 'deleteTunnel',
      method: 'DELETE',
      path: this.#tunnelPath(tunnelId, params.username),
      ...(params.reason !== undefined ? { body: { kind: 'json', value: { reason: params.reason } } } : {}),
      ...callSpec(options),
    };
    // The tunnel is deleted whatever the answer holds: callers read it only where it is what they expect.
    const { body } = await this.#ctx.http.send<TunnelDeletion | undefined | null>(spec);
    return body ?? ({} as TunnelDeletion);
  }

  #tunnelPath(tunnelId: string, username: string | undefined): string {
    return `${REST}/${account(this.#ctx, username)}/tunnels/${segment(tunnelId)}`;
  }
}
