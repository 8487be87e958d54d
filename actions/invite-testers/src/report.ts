/** What an invitation reports: its outputs, and the step summary of who was invited to which build. */
import { SummaryBuilder } from '@sauce-actions/action-kit';

export type InviteOutputs = {
  /** The build invited: the one given, or the one `build-id: latest` picked. */
  'build-id': string;
  'invited-groups': string[];
  'added-testers': string[];
  'refused-testers': string[];
  'created-groups': string[];
};

export interface InviteReport {
  outputs: InviteOutputs;
  projectId: string;
  buildId: string;
  testerGroup: string | undefined;
  /** Whether the build was invited; false when the step failed before. */
  invited: boolean;
}

export function inviteSummary(report: InviteReport): string {
  const { outputs } = report;
  const builder = new SummaryBuilder()
    .heading(
      report.invited
        ? `Invited testers to build ${report.buildId}`
        : `Testers of build ${report.buildId}: not invited`,
    )
    .facts([
      ['Project id', report.projectId],
      ['Build id', report.buildId],
      ['Invited groups', report.invited ? outputs['invited-groups'].join(', ') : ''],
      ['Created groups', outputs['created-groups'].join(', ')],
      ['Tester group', report.testerGroup],
    ]);
  if (outputs['added-testers'].length > 0 || outputs['refused-testers'].length > 0) {
    builder.heading('Testers', 3).list(outputs['added-testers'], 'No tester was added.');
  }
  if (outputs['refused-testers'].length > 0) {
    builder.heading('Refused by the service', 3).list(outputs['refused-testers']);
  }
  return builder.toString();
}
