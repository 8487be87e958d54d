/**
 * Public pages the upload result links to: landing pages and direct downloads by code, and
 * project icons. A code names a project (its latest build), a build, or one tester's invitation.
 * Closed landing pages need a login, which the emulator does not model: only invitation links
 * open them. The dashboard links (build_url, invite_testers_url) are pages of `src/dashboard`.
 */
import type { SchemaTypedApp } from '../../shared/schema-typed.ts';
import type { MobileStore } from '../store/index.ts';
import { NO_REST_AUTH } from '../actor.ts';
import { MobileError, notFound } from '../errors.ts';
import type { Build } from '../model.ts';
import { codeParams, iconParams } from '../schemas.ts';
import { sendStored } from './builds.ts';
import { escapeHtml } from '../../shared/html.ts';

/** A 1x1 transparent PNG. */
const ICON = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

function buildForCode(store: MobileStore, code: string): Build {
  const invite = store.data.invites.find((candidate) => candidate.code === code);
  if (invite) {
    const tester = store.data.testers.find((candidate) => candidate.id === invite.testerId);
    if (tester?.blocked) throw new MobileError(403, 99, 'This tester is blocked');
    const build = store.data.builds.find((candidate) => candidate.id === invite.buildId);
    if (build) return build;
  }
  const direct = store.data.builds.find((candidate) => candidate.code === code);
  const project = store.data.projects.find((candidate) => candidate.code === code);
  const build = direct ?? (project ? store.projects.buildsOf(project.id)[0] : undefined);
  if (!build) throw notFound('landing page');
  if (!invite && build.landingPageMode !== 'open')
    throw new MobileError(401, 5, 'This landing page requires login');
  return build;
}

export function publicRoutes(app: SchemaTypedApp, store: MobileStore): void {
  const byCode = { ...NO_REST_AUTH, schema: { params: codeParams } };

  app.get('/download/:code', byCode, async (request, reply) => {
    const build = buildForCode(store, request.params.code);
    const name = escapeHtml(`${build.appName} ${build.appVersion} (${build.appVersionCode})`);
    reply.type('text/html; charset=utf-8');
    return `<!doctype html><title>${name}</title><h1>${name}</h1><p>${escapeHtml(build.changelog)}</p><a href="app">Download</a>\n`;
  });

  app.get('/download/:code/app', byCode, async (request, reply) => {
    const build = buildForCode(store, request.params.code);
    store.builds.countLandingDownload(build);
    return sendStored(store, reply, build.storedFile, build.fileName, build.fileSize);
  });

  app.get('/icons/:file', { ...NO_REST_AUTH, schema: { params: iconParams } }, async (request, reply) => {
    const code = request.params.file.replace(/\.png$/, '');
    if (!store.data.projects.some((project) => project.code === code)) throw notFound('icon');
    return reply.type('image/png').send(ICON);
  });
}
