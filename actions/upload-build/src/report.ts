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
  /** The custom metadata sent: the CI system's and `metadata`'s. */
  metadata: Record<string, string>;
  /** What `release-notes: auto` wrote ("3 commits since build 41 (abc1234)"). */
  releaseNotes?: string;
}

export function uploadSummary(report: UploadReport): string {
  const { outputs } = report;
  const builder = new SummaryBuilder()
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
      ['Release notes', report.releaseNotes],
    ])
    .links([
      { text: 'Build', href: outputs['build-url'] },
      { text: 'Download page', href: outputs['download-page-url'] },
      { text: 'Landing page', href: outputs['landing-page-url'] },
      { text: 'Invite testers', href: report.inviteUrl },
    ]);
  const metadata = Object.entries(report.metadata);
  if (metadata.length > 0) builder.heading('Build metadata', 3).table(['Key', 'Value'], metadata);
  return builder.toString();
}
