/** The step summary of an upload: what was uploaded and where to go next. */
import { formatBytes, SummaryBuilder } from '@sauce-actions/action-kit';
import type { UploadReport } from './run.ts';

export function uploadSummary(report: UploadReport): SummaryBuilder {
  const { outputs } = report;
  return new SummaryBuilder()
    .heading(`Uploaded ${outputs['app-name'] || 'the app'} ${outputs['app-version']}`.trim())
    .facts([
      ['App', outputs['app-name']],
      ['Version', outputs['app-version']],
      ['Platform', report.platform],
      ['Size', formatBytes(report.sizeBytes)],
      ['Build id', outputs['build-id']],
      ['Project id', outputs['project-id']],
      ['Groups', report.groups.join(', ')],
      ['Tags', report.tags.join(', ')],
    ])
    .links([
      { text: 'Build', href: outputs['build-url'] },
      { text: 'Download page', href: outputs['download-page-url'] },
      { text: 'Landing page', href: outputs['landing-page-url'] },
      { text: 'Invite testers', href: report.inviteUrl },
    ]);
}
