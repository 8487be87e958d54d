/** `wait`: polls the user's tunnels until one with the given name or id is running. */
import { ActionError } from '@sauce-actions/action-kit';
import { poll, PollTimeoutError, type Tunnel } from '@sauce-actions/api';
import { describeTarget, matching, newestFirst, type TunnelApi, type TunnelTarget } from './tunnels.ts';

export interface WaitOptions {
  api: TunnelApi;
  username: string;
  target: TunnelTarget;
  timeoutMs: number;
  intervalMs: number;
  log: (line: string) => void;
  signal?: AbortSignal | undefined;
  /** Tunnels that do not count, for example those that existed before a start. */
  ignoreIds?: ReadonlySet<string>;
}

/** The running tunnel, the newest when several share the name; fails with what was last seen. */
export async function waitForTunnel(options: WaitOptions): Promise<Tunnel> {
  const what = describeTarget(options.target);
  const candidates = (tunnels: Tunnel[]): Tunnel[] =>
    matching(tunnels, options.username, options.target).filter((t) => !options.ignoreIds?.has(t.id));
  const running = (tunnels: Tunnel[]): Tunnel[] =>
    newestFirst(candidates(tunnels).filter((t) => t.status === 'running'));
  let lastReport = '';
  let tunnels: Tunnel[];
  try {
    tunnels = await poll(
      (signal) => options.api.list({ full: true }, signal ? { signal } : {}),
      (list) => running(list).length > 0,
      {
        intervalMs: options.intervalMs,
        timeoutMs: options.timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
        onCheck: (list) => {
          // One line per change of what is seen, not one per check.
          const report = seen(candidates(list));
          if (report !== lastReport) options.log(`Waiting for the ${what}: ${report}`);
          lastReport = report;
        },
      },
    );
  } catch (error) {
    if (error instanceof PollTimeoutError) {
      const last = error.lastValue as Tunnel[] | undefined;
      throw new ActionError(
        `The ${what} of user ${options.username} was not running within ${seconds(options.timeoutMs)}` +
          ` (${seen(last ? candidates(last) : [])}). Check that the tunnel is started with this name` +
          ' and by this user, or raise `timeout`.',
      );
    }
    throw error;
  }
  const found = running(tunnels);
  const [newest] = found;
  if (!newest) throw new Error('poll ended without a running tunnel');
  if (found.length > 1) {
    options.log(
      `${found.length} running tunnels match the ${what} (${found.map((t) => t.id).join(', ')}); using the newest, ${newest.id}.`,
    );
  }
  return newest;
}

function seen(tunnels: readonly Tunnel[]): string {
  if (tunnels.length === 0) return 'none listed yet';
  return tunnels.map((t) => `${t.id} ${t.status}`).join(', ');
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)}s`;
}
