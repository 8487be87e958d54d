/** The pull-request comment of an upload (`pr-comment`): the app, its version, and where to install it. */
import type { PullRequestComment } from '@sauce-actions/action-kit';
import { markdownLink, markdownTable, markdownText } from '@sauce-actions/action-kit/reporting/markdown';
import type { UploadReport } from './report.ts';

export function uploadComment(report: UploadReport): PullRequestComment {
  const { outputs } = report;
  const app = `${outputs['app-name'] || 'The app'} ${outputs['app-version']}`.trim();
  const links = [
    outputs['download-page-url'] &&
      `**${markdownLink('Install (download page)', outputs['download-page-url'])}**`,
    outputs['landing-page-url'] && markdownLink('Landing page', outputs['landing-page-url']),
    outputs['build-url'] && markdownLink('Build', outputs['build-url']),
    report.inviteUrl && markdownLink('Invite testers', report.inviteUrl),
  ].filter((link) => link !== '');
  const body = [
    `### 📦 ${markdownText(app)} uploaded to Sauce Labs`,
    markdownTable(
      ['App', 'Version', 'Platform', 'Build id'],
      [[outputs['app-name'], outputs['app-version'], report.platform, outputs['build-id']].map(markdownText)],
    ),
    links.join(' · '),
  ];
  // One comment per app (a project is one app on one platform): an Android and an iOS upload in
  // the same job keep a comment each.
  return { action: 'upload-build', identity: { project: outputs['project-id'] }, body: body.join('\n\n') };
}
