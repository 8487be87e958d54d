/**
 * What the post step does: stops what the main step started (and, with `stop-on-exit: true`, the
 * tunnel it waited for), whatever happened in the job. Only what the saved state names is
 * touched, so a tunnel someone else started is deleted only when the workflow asked for it.
 */
import { describeFailure, type Failure, type StepDeps } from '@sauce-actions/action-kit';
import { ApiError, ResponseShapeError } from '@sauce-actions/api';
import { uploadLog } from './log-artifact.ts';
import { isRunning, runsExecutable, stopProcess } from './process.ts';
import type { CleanupState } from './state.ts';
import type { TunnelApi } from './tunnels.ts';

interface CleanupDeps extends Pick<StepDeps, 'logger' | 'signal' | 'clock' | 'artifacts' | 'workflow'> {
  tunnels: Pick<TunnelApi, 'get' | 'delete'>;
}

export interface CleanupReport {
  process: 'none' | 'exited-early' | 'not-ours' | 'stopped' | 'killed';
  deleted: string[];
  alreadyGone: string[];
  /** Tunnels that could not be deleted, with why; the others are still cleaned up. */
  failed: { id: string; failure: Failure }[];
}

/**
 * `graceMs`: the time Sauce Connect has after SIGINT before it is killed; `retentionDays`: that of
 * the log's artifact, when the process had ended before the job.
 */
export async function cleanUp(
  state: CleanupState,
  deps: CleanupDeps,
  graceMs: number,
  retentionDays?: number,
): Promise<CleanupReport> {
  const report: CleanupReport = { process: 'none', deleted: [], alreadyGone: [], failed: [] };
  const launched = state.process;
  if (launched) {
    if (!isRunning(launched.pid)) {
      // It ended before the job did: its log is the best clue to failures that followed.
      report.process = 'exited-early';
      deps.logger.warning(
        `Sauce Connect (pid ${launched.pid}) had already exited before the end of the job; its log is ${launched.logFile}.`,
      );
      await uploadLog(deps, { file: launched.logFile, tunnelName: launched.tunnelName, retentionDays });
    } else if (!runsExecutable(launched.pid, launched.executable)) {
      report.process = 'not-ours';
      deps.logger.warning(`Process ${launched.pid} no longer runs Sauce Connect; it is left alone.`);
    } else {
      deps.logger.info(`Stopping Sauce Connect (pid ${launched.pid}) with SIGINT.`);
      const outcome = await stopProcess(launched.pid, { graceMs, clock: deps.clock });
      report.process = outcome === 'killed' ? 'killed' : 'stopped';
      if (outcome === 'killed') {
        deps.logger.warning(
          `Sauce Connect did not stop within ${Math.round(graceMs / 1000)}s of SIGINT and was killed.`,
        );
      } else {
        deps.logger.info('Sauce Connect stopped.');
      }
    }
  }
  for (const tunnel of state.tunnels) {
    try {
      await deleteIfUp(tunnel, deps, report);
    } catch (error) {
      const failure = describeFailure(error, deps.signal);
      report.failed.push({ id: tunnel.id, failure });
      deps.logger.warning(`Could not delete tunnel ${tunnel.id}: ${failure.message}`);
    }
  }
  return report;
}

async function deleteIfUp(
  tunnel: CleanupState['tunnels'][number],
  deps: CleanupDeps,
  report: CleanupReport,
): Promise<void> {
  const call = { signal: deps.signal };
  const label = tunnel.name ? `${tunnel.id} ("${tunnel.name}")` : tunnel.id;
  let status: string;
  try {
    status = String((await deps.tunnels.get(tunnel.id, {}, call)).status);
  } catch (error) {
    // A status that cannot be read is no reason to leave the tunnel up: it is deleted.
    if (error instanceof ResponseShapeError) status = 'unknown';
    else if (!(error instanceof ApiError && error.status === 404)) throw error;
    else status = 'terminated';
  }
  // A Sauce Connect that got SIGINT removes its own tunnel; only one still up is deleted here.
  if (status === 'terminated') {
    report.alreadyGone.push(tunnel.id);
    deps.logger.info(`Tunnel ${label} is already shut down.`);
    return;
  }
  const deletion = await deps.tunnels.delete(tunnel.id, { reason: 'manage-tunnel post step' }, call);
  report.deleted.push(tunnel.id);
  const jobs = typeof deletion.jobs_running === 'number' ? deletion.jobs_running : 0;
  const running = jobs > 0 ? `; ${jobs} job(s) were still running through it` : '';
  if (tunnel.origin === 'started') {
    deps.logger.info(`Deleted tunnel ${label}${running}.`);
    return;
  }
  // Only `stop-on-exit: true` saves a tunnel the step waited for; its jobs may be other workflows'.
  const message = `Deleted tunnel ${label}, which this step waited for (\`stop-on-exit: true\`)${running}.`;
  if (jobs > 0) deps.logger.warning(message);
  else deps.logger.info(message);
}
