/** `wait`: polls the user's tunnels until one with the given name or id is running. */
import {
  abortReasonOf,
  ActionError,
  formatDuration,
  type Clock,
  type Logger,
} from '@sauce-actions/action-kit';
import type { Tunnel } from '@sauce-actions/api';
import { describeTarget, matching, newestFirst, type TunnelApi, type TunnelTarget } from './tunnels.ts';

interface WaitOptions {
  api: Pick<TunnelApi, 'list'>;
  username: string;
  target: TunnelTarget;
  timeoutMs: number;
  intervalMs: number;
  logger: Logger;
  clock: Clock;
  signal: AbortSignal;
}

/** The running tunnel, the newest when several share the name; fails with what was last seen. */
export async function waitForTunnel(options: WaitOptions): Promise<Tunnel> {
  const { clock, signal } = options;
  const what = describeTarget(options.target);
  const candidates = (tunnels: readonly Tunnel[]): Tunnel[] =>
    matching(tunnels, options.username, options.target);
  const deadline = clock.monotonic() + options.timeoutMs;
  let lastReport = '';
  const notRunning = (): ActionError =>
    new ActionError(
      'timeout',
      `The ${what} of user ${options.username} was not running within ${formatDuration(options.timeoutMs)}` +
        ` (${lastReport || 'no answer yet'}). Check that the tunnel is started with this name and by this user, or raise \`timeout\`.`,
    );
  for (;;) {
    signal.throwIfAborted();
    let listed: Tunnel[];
    try {
      listed = await options.api.list({ full: true }, { signal });
    } catch (error) {
      // The step's deadline cut a slow listing: say what was seen, as when the checks run out.
      if (abortReasonOf(signal) === 'timeout') throw notRunning();
      throw error;
    }
    const seenNow = candidates(listed);
    // One line per change of what is seen, not one per check.
    const report = seen(seenNow);
    if (report !== lastReport) options.logger.info(`Waiting for the ${what}: ${report}`);
    lastReport = report;

    const running = newestFirst(seenNow.filter((t) => t.status === 'running'));
    const [newest] = running;
    if (newest) {
      if (running.length > 1) {
        options.logger.info(
          `${running.length} running tunnels match the ${what} (${running.map((t) => t.id).join(', ')}); using the newest, ${newest.id}.`,
        );
      }
      return newest;
    }
    // A check at the deadline itself still counts: the sleep below ends exactly there.
    const remaining = deadline - clock.monotonic();
    if (remaining <= 0) throw notRunning();
    await clock.sleep(Math.min(options.intervalMs, remaining), signal).catch((error: unknown) => {
      throw abortReasonOf(signal) === 'timeout' ? notRunning() : error;
    });
  }
}

function seen(tunnels: readonly Tunnel[]): string {
  if (tunnels.length === 0) return 'none listed yet';
  return tunnels.map((t) => `${t.id} ${t.status}`).join(', ');
}
