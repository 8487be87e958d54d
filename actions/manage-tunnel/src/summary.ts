/** The step summaries: the tunnel waited for or started, the list, what was stopped, the cleanup. */
import { SummaryBuilder } from '@sauce-actions/action-kit';
import type { PostReport } from './post.ts';
import type { TunnelReport } from './run.ts';
import { TUNNEL_TABLE_HEADER, tunnelRow } from './tunnels.ts';

export function tunnelSummary(report: TunnelReport): SummaryBuilder {
  const summary = new SummaryBuilder();
  switch (report.operation) {
    case 'wait':
    case 'start':
      summary.heading(`Tunnel ${report.tunnel?.tunnel_identifier ?? report.outputs['tunnel-id']} is running`);
      break;
    case 'list':
      summary.heading(`Tunnels of ${report.username}`);
      break;
    case 'stop':
      summary.heading(`Stopped ${report.stopped?.length ?? 0} tunnel(s) of ${report.username}`);
      break;
  }
  if (report.tunnel) {
    summary.table(TUNNEL_TABLE_HEADER, [tunnelRow(report.tunnel)]);
    summary.facts([
      ['Sauce Connect process', report.pid],
      ['Starts needed', report.attempts],
      ['Sauce Connect log', report.outputs['log-file']],
    ]);
    summary.paragraph(
      report.stopOnExit
        ? 'The post step of this action stops the tunnel at the end of the job, whatever its outcome.'
        : 'The tunnel stays up after the job (`stop-on-exit: false`).',
    );
  }
  if (report.listed) {
    if (report.listed.length === 0) summary.paragraph('No tunnel is listed.');
    else summary.table(TUNNEL_TABLE_HEADER, report.listed.map(tunnelRow));
  }
  if (report.stopped) {
    if (report.stopped.length === 0) summary.paragraph('No matching tunnel was listed: nothing was stopped.');
    else
      summary.table(
        ['Name', 'Id', 'Jobs still running'],
        report.stopped.map((t) => [t.name ?? '', t.id, String(t.jobs_running)]),
      );
  }
  return summary;
}

export function postSummary(report: PostReport): SummaryBuilder {
  const processLine: Record<PostReport['process'], string | undefined> = {
    none: undefined,
    'exited-early': 'Sauce Connect had exited before the end of the job.',
    'not-ours': 'The saved process id no longer ran Sauce Connect; it was left alone.',
    stopped: 'Sauce Connect was stopped.',
    killed: 'Sauce Connect did not stop on SIGINT and was killed.',
  };
  const summary = new SummaryBuilder().heading('Tunnel cleanup', 3);
  const line = processLine[report.process];
  if (line) summary.paragraph(line);
  return summary.list([
    ...report.deleted.map((id) => `Deleted tunnel ${id}.`),
    ...report.alreadyGone.map((id) => `Tunnel ${id} was already shut down.`),
  ]);
}
