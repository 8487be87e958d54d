/** What an upload reports: its outputs, and the step summary of what was uploaded and where to go next. */
import {
  formatBytes,
  mobileBuildUrl,
  mobileInviteUrl,
  mobileWebBase,
  SummaryBuilder,
} from '@sauce-actions/action-kit';
import type { MobileUploadResult } from '@sauce-actions/api';
import type { UploadInputs } from './inputs.ts';

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

/**
 * The outputs and the summary from the upload's answer. A field of another type than the
 * interface documents counts as absent, so that what can be read of an answer the client refused
 * is still published; links the answer lacks are built from the ids, when those were read.
 */
export function uploadReport(
  answer: unknown,
  context: { inputs: UploadInputs; size: number; groups: string[]; tags: string[] },
): UploadReport {
  const { inputs } = context;
  const fields = answer !== null && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
  const text = (name: keyof MobileUploadResult): string => {
    const value = fields[name];
    return typeof value === 'string' ? value : '';
  };
  const idOf = (name: keyof MobileUploadResult): string => {
    const value = fields[name];
    if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
    return typeof value === 'string' ? value.trim() : '';
  };
  const { connection } = inputs;
  const webBase = mobileWebBase(connection.region, connection.apiUrl);
  const buildId = idOf('build_id');
  const projectId = idOf('project_id');
  const known = buildId !== '' && projectId !== '';
  const tags = Array.isArray(fields.tags) ? fields.tags.filter((tag) => typeof tag === 'string') : [];
  return {
    outputs: {
      'build-id': buildId,
      'project-id': projectId,
      'build-url': text('build_url') || (known ? mobileBuildUrl(webBase, projectId, buildId) : ''),
      'download-page-url': text('download_page_url'),
      'landing-page-url': text('build_specific_landing_page_url') || text('landing_page_url'),
      'app-name': text('app_name'),
      'app-version': text('app_version'),
    },
    sizeBytes: typeof fields.file_size === 'number' ? fields.file_size : context.size,
    platform: text('platform') || (inputs.platform ?? ''),
    inviteUrl: text('invite_testers_url') || (known ? mobileInviteUrl(webBase, projectId, buildId) : ''),
    groups: context.groups,
    tags: tags.length > 0 ? tags : context.tags,
    metadata: {},
  };
}
