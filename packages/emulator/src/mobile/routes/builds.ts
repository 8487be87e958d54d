/** Operations on one build: update, copy, download, invitations, deletion. */
import { createReadStream } from 'node:fs';
import type { FastifyReply } from 'fastify';
import type { FromRouteSchema, SchemaTypedApp } from '../../shared/schema-typed.ts';
import type { MobileStore } from '../store/index.ts';
import { actorOf } from '../actor.ts';
import { CODE, MobileError, invalid, notFound } from '../errors.ts';
import { commaList, idParam, isOn } from '../format.ts';
import type { Build } from '../model.ts';
import { buildParams } from '../schemas.ts';
import type { BuildChanges } from '../store/build-settings.ts';
import { fieldsOf, requiredText, text, type Fields } from './body.ts';

function buildOf(store: MobileStore, params: FromRouteSchema<typeof buildParams>): Build {
  return store.projects.build(idParam('project-id', params.projectId), idParam('build-id', params.buildId));
}

export function sendStored(
  store: MobileStore,
  reply: FastifyReply,
  stored: string,
  fileName: string,
  size?: number,
) {
  reply.header('content-type', 'application/octet-stream');
  reply.header('content-disposition', `attachment; filename="${fileName.replace(/["\\\r\n]/g, '_')}"`);
  if (size !== undefined) reply.header('content-length', size);
  return reply.send(createReadStream(store.files.path(stored)));
}

/** Only the supplied fields change; `groups` present but empty clears the groups. */
function buildChanges(fields: Fields): BuildChanges {
  const changes: BuildChanges = {};
  const comment = text(fields, 'comment') ?? text(fields, 'changelog') ?? text(fields, 'release_notes');
  if (comment !== undefined) changes.changelog = comment;
  const tags = text(fields, 'tags');
  if (tags !== undefined) changes.tags = commaList(tags);
  const groups = text(fields, 'groups') ?? text(fields, 'app_permission_groups');
  if (groups !== undefined) changes.groups = commaList(groups);
  const mode = text(fields, 'landing_page_mode');
  if (mode !== undefined) {
    if (mode !== 'open' && mode !== 'closed') throw invalid('landing_page_mode', 'must be open or closed');
    changes.landingPageMode = mode;
  }
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (name.startsWith('metadata_') && name.length > 'metadata_'.length) {
      metadata[name.slice('metadata_'.length)] = String(value);
    }
  }
  if (Object.keys(metadata).length > 0) changes.metadata = metadata;
  return changes;
}

/** The update's path ids; a bad one is the seed's code 1 (missing or invalid build). */
function parseId(name: string, value: string): number {
  if (!/^\d+$/.test(value)) {
    throw new MobileError(400, CODE.missingParameter, `Missing or invalid ${name}: ${value}`);
  }
  return Number(value);
}

export function buildRoutes(app: SchemaTypedApp, store: MobileStore): void {
  const byBuild = { schema: { params: buildParams } };

  app.delete('/api/1/projects/:projectId/builds/:buildId', byBuild, async (request) => {
    const build = buildOf(store, request.params);
    const files = store.builds.delete(actorOf(request), build);
    await store.files.remove(files);
    return { status: 'ok' };
  });

  app.patch('/api/1/projects/:projectId/builds/:buildId', byBuild, async (request) => {
    if (request.isMultipart()) {
      throw new MobileError(
        415,
        CODE.missingParameter,
        'multipart/form-data is not supported: send form-urlencoded or JSON',
      );
    }
    const actor = actorOf(request);
    const projectId = parseId('project-id', request.params.projectId);
    const build = store.buildSettings.checkWrite(
      actor.account,
      projectId,
      parseId('build-id', request.params.buildId),
    );
    const updated = store.buildSettings.update(actor, build, buildChanges(fieldsOf(request)));
    return {
      status: 'ok',
      build_id: updated.id,
      tags: updated.tags,
      metadata: updated.metadata,
      changelog: updated.changelog,
      groups: updated.groups,
      landing_page_mode: updated.landingPageMode,
    };
  });

  app.post('/api/1/projects/:projectId/builds/:buildId/copy', byBuild, async (request) => {
    const build = buildOf(store, request.params);
    const fields = fieldsOf(request);
    // A name or a path; surrounding and repeated slashes are not part of the folder's name.
    const folderName = folderPath(requiredText(fields, 'folder_name'));
    const allowAll = text(fields, 'allowAllTesters');
    const groups = text(fields, 'groups');
    const projectGroups = text(fields, 'projectGroups');
    const storedFile = await store.files.copy(build.storedFile);
    const copy = store.builds.copy(
      actorOf(request),
      build,
      {
        folderName,
        appName: text(fields, 'app_name')?.trim() || undefined,
        groups: groups === undefined ? undefined : commaList(groups),
        projectGroups: projectGroups === undefined ? undefined : commaList(projectGroups),
        allowAllTesters: allowAll === undefined ? undefined : isOn(allowAll),
      },
      storedFile,
    );
    return {
      status: 'ok',
      build_id: copy.build.id,
      folder_path: folderName,
      app_name: copy.build.appName,
      assigned_groups: copy.assignedGroups,
      invalid_groups: copy.invalidGroups,
      assigned_project_groups: copy.assignedProjectGroups,
      invalid_project_groups: copy.invalidProjectGroups,
    };
  });

  app.get('/api/1/projects/:projectId/builds/:buildId/download', byBuild, async (request, reply) => {
    const build = buildOf(store, request.params);
    store.builds.recordDownload(actorOf(request), build);
    return sendStored(store, reply, build.storedFile, build.fileName, build.fileSize);
  });

  // Where the upload result's symbols_download_url points.
  app.get('/api/1/projects/:projectId/builds/:buildId/symbols', byBuild, async (request, reply) => {
    const build = buildOf(store, request.params);
    if (!build.symbolsFile) throw notFound(`symbols file of build ${build.id}`);
    return sendStored(store, reply, build.symbolsFile, `symbols-${build.id}`);
  });

  app.post('/api/1/projects/:projectId/builds/:buildId/invites', byBuild, async (request) => {
    const build = buildOf(store, request.params);
    const fields = fieldsOf(request);
    const resolved = store.groups.resolve(commaList(requiredText(fields, 'groups')));
    if (resolved.groups.length === 0)
      throw invalid('groups', `no such group: ${resolved.invalid.join(', ')}`);
    const invited = store.invites.inviteGroups(
      actorOf(request),
      build,
      resolved.groups,
      text(fields, 'comment') ?? '',
      isOn(text(fields, 'notify')),
    );
    // The seed does not show this body; it reports what the invitation did.
    return {
      status: 'ok',
      build_id: build.id,
      invited_groups: resolved.found,
      invalid_groups: resolved.invalid,
      invited_testers: invited.map((tester) => tester.email),
    };
  });
}

function folderPath(folder: string): string {
  return folder
    .split('/')
    .map((part) => part.trim())
    .filter(Boolean)
    .join('/');
}
