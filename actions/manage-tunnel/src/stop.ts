/** `stop`: shuts down one tunnel by id, or every tunnel of the user with a name. */
import { ActionError, type Logger } from '@sauce-actions/action-kit';
import { ApiError } from '@sauce-actions/api';
import { describeTarget, matching, type TunnelApi, type TunnelTarget } from './tunnels.ts';

export interface StoppedTunnel {
  id: string;
  name: string | null;
  /** Jobs that were still running through the tunnel when it was shut down. */
  jobs_running: number;
}

interface StopOptions {
  api: Pick<TunnelApi, 'list' | 'delete'>;
  username: string;
  target: TunnelTarget;
  reason: string;
  logger: Logger;
  signal: AbortSignal;
}

/**
 * Stops the matching tunnels, adding each to `stopped` as soon as it is shut down, so that a stop
 * that fails half-way still tells which tunnels it did stop.
 */
export async function stopTunnels(options: StopOptions, stopped: StoppedTunnel[]): Promise<void> {
  const { target, signal } = options;
  let todo: { id: string; name: string | null }[];
  if (target.id !== undefined && target.name === undefined) {
    todo = [{ id: target.id, name: null }];
  } else {
    const tunnels = await options.api.list({ full: true }, { signal });
    // The list holds the tunnels not shut down yet; terminated ones need no stop.
    todo = matching(tunnels, options.username, target)
      .filter((t) => t.status !== 'terminated')
      .map((t) => ({ id: t.id, name: t.tunnel_identifier }));
    if (todo.length === 0) {
      options.logger.warning(
        `No ${describeTarget(target)} of user ${options.username} is listed: nothing to stop.`,
      );
      return;
    }
  }
  for (const tunnel of todo) {
    let jobsRunning: number;
    try {
      const deletion = await options.api.delete(tunnel.id, { reason: options.reason }, { signal });
      jobsRunning = typeof deletion.jobs_running === 'number' ? deletion.jobs_running : 0;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        throw new ActionError(
          'refused',
          `Tunnel ${tunnel.id} of user ${options.username} does not exist. Check \`tunnel-id\`, or stop by \`tunnel-name\`.`,
          { cause: error },
        );
      }
      throw error;
    }
    stopped.push({ id: tunnel.id, name: tunnel.name, jobs_running: jobsRunning });
    const label = tunnel.name ? `${tunnel.id} ("${tunnel.name}")` : tunnel.id;
    if (jobsRunning > 0) {
      options.logger.warning(`Stopped tunnel ${label} while ${jobsRunning} job(s) still ran through it.`);
    } else {
      options.logger.info(`Stopped tunnel ${label}; no job was running through it.`);
    }
  }
}
