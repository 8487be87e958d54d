/** `stop`: shuts down one tunnel by id, or every tunnel of the user with a name. */
import { ActionError } from '@sauce-actions/action-kit';
import { ApiError, type CallOptions } from '@sauce-actions/api';
import { describeTarget, matching, type TunnelApi, type TunnelTarget } from './tunnels.ts';

export interface StoppedTunnel {
  id: string;
  name: string | null;
  /** Jobs that were still running through the tunnel when it was shut down. */
  jobs_running: number;
}

export interface StopOptions {
  api: TunnelApi;
  username: string;
  target: TunnelTarget;
  reason: string;
  log: (line: string) => void;
  warn: (line: string) => void;
  signal?: AbortSignal | undefined;
}

export async function stopTunnels(options: StopOptions): Promise<StoppedTunnel[]> {
  const call: CallOptions = options.signal ? { signal: options.signal } : {};
  const { target } = options;
  let todo: { id: string; name: string | null }[];
  if (target.id !== undefined && target.name === undefined) {
    todo = [{ id: target.id, name: null }];
  } else {
    const tunnels = await options.api.list({ full: true }, call);
    // The list holds the tunnels not shut down yet; terminated ones need no stop.
    todo = matching(tunnels, options.username, target)
      .filter((t) => t.status !== 'terminated')
      .map((t) => ({ id: t.id, name: t.tunnel_identifier }));
    if (todo.length === 0) {
      options.warn(`No ${describeTarget(target)} of user ${options.username} is listed: nothing to stop.`);
      return [];
    }
  }
  const stopped: StoppedTunnel[] = [];
  for (const tunnel of todo) {
    let jobsRunning: number;
    try {
      const deletion = await options.api.delete(tunnel.id, { reason: options.reason }, call);
      jobsRunning = typeof deletion.jobs_running === 'number' ? deletion.jobs_running : 0;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        throw new ActionError(
          `Tunnel ${tunnel.id} of user ${options.username} does not exist. Check \`tunnel-id\`, or stop by \`tunnel-name\`.`,
          'user',
          { cause: error },
        );
      }
      throw error;
    }
    stopped.push({ id: tunnel.id, name: tunnel.name, jobs_running: jobsRunning });
    const label = tunnel.name ? `${tunnel.id} ("${tunnel.name}")` : tunnel.id;
    if (jobsRunning > 0) {
      options.warn(`Stopped tunnel ${label} while ${jobsRunning} job(s) still ran through it.`);
    } else {
      options.log(`Stopped tunnel ${label}; no job was running through it.`);
    }
  }
  return stopped;
}
