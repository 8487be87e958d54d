/**
 * POST /api/upload/: the package streams to a file (never whole in memory), then its manifest is
 * read for name, version and package id.
 *
 * HTTP statuses of failures (the body is the contract: `status: fail` with a code): 401 for a
 * missing credential (code 1, naming api_key) or a wrong one (code 5), as the REST interface
 * answers; 400 for a missing file or field (code 1) and an unreadable package (code 105).
 */
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { SchemaTypedApp } from '../../shared/schema-typed.ts';
import type { MobileStore } from '../store/index.ts';
import { NO_REST_AUTH } from '../actor.ts';
import { oidcAccount } from '../auth.ts';
import { CODE, MobileError, invalid, missing } from '../errors.ts';
import { commaList, isOn } from '../format.ts';
import type { Build, MobileAccount, Project } from '../model.ts';
import { InvalidPackageError, readPackageInfo, type PackageInfo } from '../package-info.ts';
import type { Actor } from '../store/audits.ts';
import { baseUrl, buildDownloadUrl, iconUrl } from '../views.ts';

interface StoredUpload {
  stored: string;
  fileName: string;
  size: number;
}

/** Platforms the `platform` field names for apps that are neither iOS nor Android. */
const OTHER_PLATFORMS: Record<string, string> = {
  xbox: 'Xbox',
  playstation: 'PlayStation',
  switch: 'Switch',
  windows: 'Windows',
  macos: 'macOS',
};

async function keepUpload(store: MobileStore, part: MultipartFile): Promise<StoredUpload> {
  const stored = await store.files.newFile(path.extname(part.filename ?? '').slice(0, 8));
  // A deep write buffer lets the file's chunks reach the disk many to a write: the upload is then
  // bounded by the disk, not by a round trip to the file system per 64 KiB.
  const output = createWriteStream(store.files.path(stored), { highWaterMark: 4 * 1024 * 1024 });
  await pipeline(part.file, output);
  return { stored, fileName: path.basename(part.filename || 'app'), size: output.bytesWritten };
}

function uploadAccount(
  store: MobileStore,
  request: FastifyRequest,
  apiKey: string | undefined,
): MobileAccount {
  const bearer = oidcAccount(store.accounts, request);
  if (bearer) return bearer;
  if (!apiKey) throw new MobileError(401, CODE.missingParameter, 'Missing parameter: api_key');
  const account = store.accounts.byApiKey(apiKey);
  if (!account) throw new MobileError(401, CODE.invalidApiKey, 'Invalid API key');
  return account;
}

/**
 * What the package says about itself. A `platform` naming a non-mobile device accepts a file the
 * emulator cannot read (a console or Windows package): the name is then the upload's app_name
 * (required), its package id the name, and the version 1.0 (code 1).
 */
async function packageInfo(file: string, platformField: string | undefined, appName: string | undefined) {
  const other = platformField ? OTHER_PLATFORMS[platformField.trim().toLowerCase()] : undefined;
  try {
    const info = await readPackageInfo(file);
    return { ...info, platform: info.kind === 'macos' ? 'macOS' : info.platform };
  } catch (error) {
    if (!(error instanceof InvalidPackageError)) throw error;
    if (!other)
      throw new MobileError(400, CODE.invalidFile, `Invalid file: not a valid package (${error.message})`);
  }
  if (!appName) throw missing('app_name');
  return {
    kind: 'other',
    platform: other,
    packageName: appName,
    appName,
    appVersion: '1.0',
    appVersionCode: '1',
  } satisfies Omit<PackageInfo, 'kind' | 'platform'> & { kind: string; platform: string };
}

function uploadResult(request: FastifyRequest, project: Project, build: Build) {
  const base = baseUrl(request);
  const options = [
    build.notify ? 'notify' : '',
    build.autoUpdate ? 'auto_update' : '',
    build.uploadToVendor ? 'upload_to_vendor' : '',
  ].filter(Boolean);
  return {
    status: 'ok',
    build_id: build.id,
    project_id: project.id,
    app_name: build.appName,
    app_version: build.appVersion,
    file_size: build.fileSize,
    build_url: `${base}/projects/${project.id}/builds/${build.id}`,
    download_page_url: `${base}/download/${build.code}/`,
    app_url: `${base}/download/${build.code}/app`,
    invite_testers_url: `${base}/projects/${project.id}/builds/${build.id}/invite-testers`,
    icon_url: iconUrl(base, project),
    options: options.join(','),
    platform: build.platform,
    tags: build.tags,
    metadata: Object.entries(build.metadata).map(([key, value]) => ({ key, value })),
    has_vendor_sdk: false,
    // Empty when no symbols file came with the upload.
    symbols_download_url: build.symbolsFile
      ? `${buildDownloadUrl(base, build).replace(/download\/$/, 'symbols/')}`
      : '',
    attachments: null,
    landing_page_url: `${base}/download/${project.code}/`,
    build_specific_landing_page_url: `${base}/download/${build.code}/`,
    landing_page_mode: build.landingPageMode,
  };
}

export function uploadRoutes(app: SchemaTypedApp, store: MobileStore): void {
  app.post('/api/upload', NO_REST_AUTH, async (request) => {
    if (!request.isMultipart()) throw missing('file');
    const fields: Record<string, string> = {};
    const saved: string[] = [];
    let file: StoredUpload | undefined;
    let symbols: StoredUpload | undefined;
    let done = false;
    try {
      // Every part is consumed before answering, so that a failure never leaves the body unread.
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (part.fieldname === 'file' && !file) {
            file = await keepUpload(store, part);
            saved.push(file.stored);
          } else if (part.fieldname === 'symbols_file' && !symbols) {
            symbols = await keepUpload(store, part);
            saved.push(symbols.stored);
          } else {
            part.file.resume();
          }
        } else {
          fields[part.fieldname] = String(part.value ?? '');
        }
      }
      const account = uploadAccount(store, request, fields.api_key?.trim());
      if (!file) throw missing('file');
      const actor: Actor = { account, ipAddress: request.ip };

      const appNameField = fields.app_name?.trim() || undefined;
      const info = await packageInfo(store.files.path(file.stored), fields.platform, appNameField);
      const landingPageMode = landingMode(store, fields.landing_page_mode);
      const metadata: Record<string, string> = {};
      for (const [name, value] of Object.entries(fields)) {
        if (name.startsWith('metadata.') && name.length > 'metadata.'.length) metadata[name.slice(9)] = value;
      }
      const { project, build } = store.builds.add(actor, {
        appName: appNameField ?? info.appName ?? info.packageName,
        appVersion: info.appVersion,
        appVersionCode: info.appVersionCode,
        packageName: info.packageName,
        platform: info.platform,
        fileName: file.fileName,
        storedFile: file.stored,
        fileSize: file.size,
        symbolsFile: symbols?.stored,
        tags: commaList(fields.tags),
        metadata,
        changelog: fields.release_notes ?? '',
        groups: commaList(fields.groups),
        folderName: fields.folder_name?.trim() ?? '',
        landingPageMode,
        notify: isOn(fields.notify),
        autoUpdate: isOn(fields.auto_update),
        uploadToVendor: isOn(fields.upload_to_vendor),
      });
      done = true;
      return uploadResult(request, project, build);
    } finally {
      if (!done) await store.files.remove(saved);
    }
  });
}

/**
 * landing_page_mode: open (default) or closed. When the account requires login the default
 * becomes closed, and an explicit open is refused. Code 156 is the build update's (seed 001's
 * error table names it for that operation only); the upload's own codes are 1, 5 and 105, and a
 * parameter the upload cannot take is its code 1, with a message naming the parameter, as every
 * other invalid upload field is answered here.
 */
function landingMode(store: MobileStore, value: string | undefined): string {
  const mode = value?.trim().toLowerCase() || undefined;
  if (mode !== undefined && mode !== 'open' && mode !== 'closed') {
    throw invalid('landing_page_mode', 'must be open or closed');
  }
  if (store.data.requireLogin) {
    if (mode === 'open') {
      throw invalid('landing_page_mode', 'cannot be open: the account settings require login');
    }
    return 'closed';
  }
  return mode ?? 'open';
}
