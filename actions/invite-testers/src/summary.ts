/** The step summary of an invitation: who was invited to which build. */
import { SummaryBuilder } from '@sauce-actions/action-kit';
import type { InviteReport } from './run.ts';

export function inviteSummary(report: InviteReport): SummaryBuilder {
  const { outputs } = report;
  const builder = new SummaryBuilder().heading(`Invited testers to build ${report.buildId}`).facts([
    ['Project id', report.projectId],
    ['Build id', report.buildId],
    ['Invited groups', outputs['invited-groups'].join(', ')],
    ['Created groups', outputs['created-groups'].join(', ')],
    ['Tester group', report.testerGroup],
  ]);
  if (outputs['added-testers'].length > 0 || outputs['refused-testers'].length > 0) {
    builder.heading('Testers', 3).list(outputs['added-testers'], 'No tester was added.');
  }
  if (outputs['refused-testers'].length > 0) {
    builder.heading('Refused by the service', 3).list(outputs['refused-testers']);
  }
  return builder;
}
