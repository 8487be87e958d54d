/**
 * The post step: stops what the main step started or waited for, whatever happened in the job.
 * Only what the saved state names is touched, so a tunnel someone else started is never deleted.
 */
import { ApiError, type CallOptions } from '@sauce-actions/api';
import { isRunning, runsExecutable, stopProcess } from './process.ts';
import type { CleanupState } from './state.ts';
import type { TunnelApi } from './tunnels.ts';
import type { LogUploader } from './log-artifact.ts';

export interface PostDeps {
  api: TunnelApi;
  log: (line: string) => void;
  warn: (line: string) => void;
  uploadLog: LogUploader;
  /** Time Sauce Connect has after SIGINT before it is killed. */
  graceMs: number;
  signal?: AbortSignal | undefined;
}

export interface PostReport {
  process: 'none' | 'exited-early' | 'not-ours' | 'stopped' | 'killed';
  deleted: string[];
  alreadyGone: string[];
}

export async function cleanUp(state: CleanupState, deps: PostDeps): Promise<PostReport> {
  const report: PostReport = { process: 'none', deleted: [], alreadyGone: [] };
  const launched = state.process;
  if (launched) {
    if (!isRunning(launched.pid)) {
      // It ended before the job did: its log is the best clue to failures that followed.
      report.process = 'exited-early';
      deps.warn(
        `Sauce Connect (pid ${launched.pid}) had already exited before the end of the job; its log is ${launched.logFile}.`,
      );
      await deps.uploadLog(launched.logFile, launched.tunnelName);
    } else if (!runsExecutable(launched.pid, launched.executable)) {
      report.process = 'not-ours';
      deps.warn(`Process ${launched.pid} no longer runs Sauce Connect; it is left alone.`);
    } else {
      deps.log(`Stopping Sauce Connect (pid ${launched.pid}) with SIGINT.`);
      const outcome = await stopProcess(launched.pid, { graceMs: deps.graceMs });
      report.process = outcome === 'killed' ? 'killed' : 'stopped';
      if (outcome === 'killed') {
        deps.warn(
          `Sauce Connect did not stop within ${Math.round(deps.graceMs / 1000)}s of SIGINT and was killed.`,
        );
      } else {
        deps.log('Sauce Connect stopped.');
      }
    }
  }
  const call: CallOptions = deps.signal ? { signal: deps.signal } : {};
  for (const tunnel of state.tunnels) {
    const label = tunnel.name ? `${tunnel.id} ("${tunnel.name}")` : tunnel.id;
    let status: string;
    try {
      status = String((await deps.api.get(tunnel.id, {}, call)).status);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
      status = 'terminated';
    }
    // A Sauce Connect that got SIGINT removes its own tunnel; only one still up is deleted here.
    if (status === 'terminated') {
      report.alreadyGone.push(tunnel.id);
      deps.log(`Tunnel ${label} is already shut down.`);
      continue;
    }
    const deletion = await deps.api.delete(tunnel.id, { reason: 'manage-tunnel post step' }, call);
    report.deleted.push(tunnel.id);
    const jobs = typeof deletion.jobs_running === 'number' ? deletion.jobs_running : 0;
    deps.log(`Deleted tunnel ${label}${jobs > 0 ? `; ${jobs} job(s) were still running through it` : ''}.`);
  }
  return report;
}
