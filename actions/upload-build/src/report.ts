/** What an upload reports: its outputs, and the step summary of what was uploaded and where to go next. */
import { formatBytes, SummaryBuilder } from '@sauce-actions/action-kit';

export type UploadOutputs = {
  'build-id': string;
  'project-id': string;
  'build-url': string;
  'download-page-url': string;
  'landing-page-url': string;
  'app-name': string;
  'app-version': string;
};

/** The outputs, and what the summary shows beyond them. */
export interface UploadReport {
  outputs: UploadOutputs;
  sizeBytes: number;
  platform: string;
  inviteUrl: string;
  groups: string[];
  tags: string[];
}

export function uploadSummary(report: UploadReport): string {
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
    ])
    .toString();
}
