/** Tunnels of the accounts, and the states a tunnel goes through. */
import type { StoreState } from '../../shared/store-state.ts';
import { hexId } from '../ids.ts';
import { unixSeconds, type AutomationData, type TunnelRecord, type TunnelStatus } from '../model.ts';
import type { TunnelSeed } from '../seed.ts';

export class AutomationTunnels {
  readonly #state: StoreState<AutomationData>;

  constructor(state: StoreState<AutomationData>) {
    this.#state = state;
  }

  get(id: string): TunnelRecord | undefined {
    const { tunnels } = this.#state.data;
    return Object.hasOwn(tunnels, id) ? tunnels[id] : undefined;
  }

  of(owner: string): TunnelRecord[] {
    return this.all().filter((tunnel) => tunnel.owner === owner);
  }

  all(): TunnelRecord[] {
    return Object.values(this.#state.data.tunnels);
  }

  /** The user's running tunnel with this `tunnel_identifier`, if there is one. */
  running(owner: string, tunnelIdentifier: string): TunnelRecord | undefined {
    return this.all().find(
      (tunnel) =>
        tunnel.owner === owner &&
        tunnel.tunnel_identifier === tunnelIdentifier &&
        tunnel.status === 'running',
    );
  }

  hasRunning(owner: string, tunnelIdentifier: string): boolean {
    return this.running(owner, tunnelIdentifier) !== undefined;
  }

  create(seed: TunnelSeed): TunnelRecord {
    const record = newTunnel(seed, this.#state.now());
    this.#state.data.tunnels[record.id] = record;
    this.#state.changed();
    return record;
  }

  /** Changes a tunnel's status or name, keeping its timestamps consistent with the status. */
  update(id: string, update: { status?: TunnelStatus; tunnel_identifier?: string }): TunnelRecord {
    const tunnel = this.get(id);
    if (!tunnel) throw new Error(`no tunnel ${id}`);
    const now = unixSeconds(this.#state.now());
    if (update.tunnel_identifier !== undefined) tunnel.tunnel_identifier = update.tunnel_identifier;
    if (update.status !== undefined && update.status !== tunnel.status) {
      tunnel.status = update.status;
      if (update.status === 'running') {
        tunnel.launch_time ??= now;
        tunnel.last_connected = now;
        tunnel.shutdown_time = null;
      }
      if (update.status === 'terminated') tunnel.shutdown_time = now;
    }
    this.#state.changed();
    return tunnel;
  }

  /**
   * What the service does when Sauce Connect starts a tunnel outside a pool: the running tunnels
   * of the owner with that name are shut down (Sauce Connect 5 docs, tunnel pools).
   */
  replaceColliding(owner: string, tunnelIdentifier: string): void {
    for (const tunnel of this.of(owner)) {
      if (tunnel.tunnel_identifier === tunnelIdentifier && tunnel.status !== 'terminated') {
        this.update(tunnel.id, { status: 'terminated' });
      }
    }
  }

  /** Shuts a tunnel down at the user's request. */
  shutdown(id: string): TunnelRecord {
    const tunnel = this.update(id, { status: 'terminated' });
    tunnel.user_shutdown = true;
    this.#state.changed();
    return tunnel;
  }
}

/** A tunnel as the seed or a client describes it, with the times its status implies. */
export function newTunnel(seed: TunnelSeed, createdMs: number): TunnelRecord {
  const created = unixSeconds(createdMs);
  const status = seed.status ?? 'running';
  const id = seed.id ?? hexId();
  return {
    id,
    owner: seed.owner,
    status,
    tunnel_identifier: seed.tunnel_identifier,
    creation_time: created,
    launch_time: status === 'running' || status === 'halting' || status === 'terminated' ? created + 5 : null,
    last_connected: status === 'running' ? created + 5 : null,
    shutdown_time: status === 'terminated' ? created + 60 : null,
    user_shutdown: status === 'terminated' ? true : null,
    shared_tunnel: false,
    host: `maki${id.slice(0, 4)}.miami.saucelabs.com`,
    ip_address: status === 'running' ? '127.0.0.1' : null,
    domain_names: ['sauce-connect.proxy'],
    direct_domains: null,
    no_ssl_bump_domains: null,
    vm_version: '5.2.0',
    metadata: {
      hostname: 'localhost',
      git_version: 'emulated',
      platform: 'Linux x86_64',
      command: `sc run --tunnel-name ${seed.tunnel_identifier}`,
      build: 'emulated',
      release: '5.2.0',
    },
  };
}
