/** What the steps report: the outputs, and the summaries of the tunnel, the list, the stop, the cleanup. */
import { SummaryBuilder } from '@sauce-actions/action-kit';
import type { Tunnel } from '@sauce-actions/api';
import type { CleanupReport } from './cleanup.ts';
import type { Operation, StopOnExit } from './inputs.ts';
import type { StoppedTunnel } from './stop.ts';
import { TUNNEL_TABLE_HEADER, tunnelRow } from './tunnels.ts';

export type TunnelOutputs = {
  'tunnel-id': string;
  tunnels: string;
  'log-file': string;
};

/** What an operation did, filled in as it goes, so that one that fails half-way still tells. */
export interface TunnelReport {
  operation: Operation;
  username: string;
  /** The tunnel waited for or started. */
  tunnel?: Tunnel;
  /** What `list` found. */
  listed?: Tunnel[];
  /** What `stop` shut down. */
  stopped?: StoppedTunnel[];
  /** `start`: the log, once Sauce Connect has written to it. */
  logFile?: string;
  /** `start`: how many launches it took, and the process. */
  attempts?: number;
  pid?: number;
  /** `start`: how the Sauce Connect executable was verified. */
  verified?: string;
  /** What the post step will stop. */
  stopOnExit: StopOnExit;
}

export function tunnelOutputs(report: TunnelReport): TunnelOutputs {
  const logFile = report.logFile ?? '';
  if (report.tunnel) {
    return { 'tunnel-id': report.tunnel.id, tunnels: JSON.stringify([report.tunnel]), 'log-file': logFile };
  }
  if (report.listed) {
    const running = report.listed.filter((t) => t.status === 'running');
    return {
      'tunnel-id': running.map((t) => t.id).join(','),
      tunnels: JSON.stringify(report.listed),
      'log-file': logFile,
    };
  }
  if (report.stopped) {
    return {
      'tunnel-id': report.stopped.map((t) => t.id).join(','),
      tunnels: JSON.stringify(report.stopped),
      'log-file': logFile,
    };
  }
  return { 'tunnel-id': '', tunnels: '[]', 'log-file': logFile };
}

/** What becomes of the tunnel when the job ends. */
function afterTheJob(operation: Operation, stopOnExit: StopOnExit): string {
  if (stopOnExit === 'false') return 'The tunnel stays up after the job (`stop-on-exit: false`).';
  if (operation === 'start') {
    return 'The post step of this action stops Sauce Connect and the tunnel at the end of the job, whatever its outcome.';
  }
  return stopOnExit === 'true'
    ? 'The post step of this action deletes the tunnel at the end of the job, whatever its outcome (`stop-on-exit: true`): other jobs using it lose it then.'
    : 'The tunnel stays up after the job: this step only waited for it, and others may be using it (`stop-on-exit: started`).';
}

/** The summary of what the operation did; '' when it did nothing worth a summary (a failed wait). */
export function tunnelSummary(report: TunnelReport): string {
  const summary = new SummaryBuilder();
  if (report.tunnel) {
    summary
      .heading(`Tunnel ${report.tunnel.tunnel_identifier ?? report.tunnel.id} is running`)
      .table(TUNNEL_TABLE_HEADER, [tunnelRow(report.tunnel)])
      .facts([
        ['Sauce Connect process', report.pid],
        ['Sauce Connect archive', report.verified],
        ['Starts needed', report.attempts],
        ['Sauce Connect log', report.logFile],
      ])
      .paragraph(afterTheJob(report.operation, report.stopOnExit));
  } else if (report.listed) {
    summary.heading(`Tunnels of ${report.username}`);
    if (report.listed.length === 0) summary.paragraph('No tunnel is listed.');
    else summary.table(TUNNEL_TABLE_HEADER, report.listed.map(tunnelRow));
  } else if (report.stopped) {
    summary.heading(`Stopped ${report.stopped.length} tunnel(s) of ${report.username}`);
    if (report.stopped.length === 0) summary.paragraph('No matching tunnel was listed: nothing was stopped.');
    else
      summary.table(
        ['Name', 'Id', 'Jobs still running'],
        report.stopped.map((t) => [t.name ?? '', t.id, String(t.jobs_running)]),
      );
  } else if (report.logFile !== undefined) {
    // A start that failed: where to look.
    summary.heading('Sauce Connect did not start').facts([['Sauce Connect log', report.logFile]]);
  }
  return summary.toString();
}

export function cleanupSummary(report: CleanupReport): string {
  const processLine: Record<CleanupReport['process'], string | undefined> = {
    none: undefined,
    'exited-early': 'Sauce Connect had exited before the end of the job.',
    'not-ours': 'The saved process id no longer ran Sauce Connect; it was left alone.',
    stopped: 'Sauce Connect was stopped.',
    killed: 'Sauce Connect did not stop on SIGINT and was killed.',
  };
  const summary = new SummaryBuilder().heading('Tunnel cleanup', 3);
  const line = processLine[report.process];
  if (line) summary.paragraph(line);
  return summary
    .list([
      ...report.deleted.map((id) => `Deleted tunnel ${id}.`),
      ...report.alreadyGone.map((id) => `Tunnel ${id} was already shut down.`),
      ...report.failed.map(({ id }) => `Tunnel ${id} could not be deleted.`),
    ])
    .toString();
}
