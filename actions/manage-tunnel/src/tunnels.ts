/** What the operations share about tunnels: the part of the client they use, matching and ordering. */
import type { AutomationTunnels, Tunnel } from '@sauce-actions/api';

/** The tunnel operations of the automation client that this action calls; each step picks its own. */
export type TunnelApi = Pick<AutomationTunnels, 'list' | 'get' | 'delete'>;

/** Which tunnel an operation is about: a name, an id, or both (then both must match). */
export interface TunnelTarget {
  name?: string;
  id?: string;
}

export function describeTarget(target: TunnelTarget): string {
  if (target.id !== undefined && target.name !== undefined)
    return `tunnel ${target.id} named "${target.name}"`;
  if (target.id !== undefined) return `tunnel ${target.id}`;
  return `tunnel named "${target.name ?? ''}"`;
}

/** Tunnels of `owner` that match the target, whatever their status. */
export function matching(tunnels: readonly Tunnel[], owner: string, target: TunnelTarget): Tunnel[] {
  return tunnels.filter(
    (tunnel) =>
      tunnel.owner === owner &&
      (target.id === undefined || tunnel.id === target.id) &&
      (target.name === undefined || tunnel.tunnel_identifier === target.name),
  );
}

/** Newest first: by creation, then launch time; the service gives both in Unix seconds. */
export function newestFirst(tunnels: readonly Tunnel[]): Tunnel[] {
  return [...tunnels].sort(
    (a, b) => (b.creation_time ?? 0) - (a.creation_time ?? 0) || (b.launch_time ?? 0) - (a.launch_time ?? 0),
  );
}

/** Unix seconds as an ISO date and time, or empty. */
function isoTime(seconds: number | null | undefined): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) return '';
  return new Date(seconds * 1000).toISOString().replace(/\.000Z$/, 'Z');
}

/** The row of a tunnel in the summary tables: name, id, status, owner, started, host. */
export function tunnelRow(tunnel: Tunnel): string[] {
  return [
    tunnel.tunnel_identifier ?? '',
    tunnel.id,
    String(tunnel.status),
    tunnel.owner,
    isoTime(tunnel.launch_time ?? tunnel.creation_time),
    tunnel.host ?? '',
  ];
}

export const TUNNEL_TABLE_HEADER = ['Name', 'Id', 'Status', 'Owner', 'Started', 'Host'] as const;
