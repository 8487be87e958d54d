/** Secure tunnels of an account. */
import type { CallOptions } from '../core/values/call.ts';
import { json, operations } from '../core/resources/resource.ts';
import { list, optional, record, text } from '../core/resources/shape.ts';
import { AutomationResource } from './context.ts';
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

const TUNNELS = operations({
  listTunnels: 'GET /{username}/tunnels',
  getTunnel: { route: 'GET /{username}/tunnels/{tunnelId}', shape: TUNNEL },
  deleteTunnel: 'DELETE /{username}/tunnels/{tunnelId}',
});

export class AutomationTunnels extends AutomationResource {
  /** GET /rest/v1/{username}/tunnels: running tunnels, as ids or with `full: true` whole tunnels (`listTunnels`). */
  list(params: ListTunnelsParams & { full: true }, options?: CallOptions): Promise<Tunnel[]>;
  list(params?: ListTunnelsParams & { full?: false }, options?: CallOptions): Promise<string[]>;
  list(params?: ListTunnelsParams, options?: CallOptions): Promise<Tunnel[] | string[]>;
  async list(params: ListTunnelsParams = {}, options?: CallOptions): Promise<Tunnel[] | string[]> {
    const parts = { path: { username: params.username }, query: { full: params.full } };
    if (!params.full)
      return this.call<string[]>({ ...TUNNELS.listTunnels, shape: list(text) }, parts, options);
    const tunnels = await this.call<Tunnel[]>(
      { ...TUNNELS.listTunnels, shape: list(TUNNEL) },
      parts,
      options,
    );
    return tunnels.map((tunnel) => withServiceTimes(tunnel, TUNNEL_TIMES));
  }

  /** GET /rest/v1/{username}/tunnels/{tunnelId}: one tunnel (`getTunnel`). */
  async get(tunnelId: string, params: ForAccount = {}, options?: CallOptions): Promise<Tunnel> {
    return this.call(TUNNELS.getTunnel, { path: { username: params.username, tunnelId } }, options);
  }

  /** DELETE /rest/v1/{username}/tunnels/{tunnelId}: shuts the tunnel down, with an optional reason (`deleteTunnel`). */
  async delete(
    tunnelId: string,
    params: DeleteTunnelParams = {},
    options?: CallOptions,
  ): Promise<TunnelDeletion> {
    const { username, reason } = params;
    const parts = {
      path: { username, tunnelId },
      ...(reason !== undefined ? { body: json({ reason }) } : {}),
    };
    // The tunnel is deleted whatever the answer holds: callers read it only where it is what they expect.
    const answer = await this.call<TunnelDeletion | undefined | null>(TUNNELS.deleteTunnel, parts, options);
    return answer ?? ({} as TunnelDeletion);
  }
}
