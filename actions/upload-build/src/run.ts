/** Uploads the app file and reports what the service made of it. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  createProgressReporter,
  InputError,
  mobileBuildUrl,
  mobileInviteUrl,
} from '@sauce-actions/action-kit';
import type {
  MobileClient,
  MobileRegion,
  MobileUploadPlatform,
  MobileUploadResult,
} from '@sauce-actions/api';
import { explainUploadFailure } from './failures.ts';
import { checkAppFile, checkOptionalFile, resolveAppFile } from './files.ts';

export const PLATFORMS = [
  'Xbox',
  'PlayStation',
  'switch',
  'windows',
  'macos',
] as const satisfies readonly MobileUploadPlatform[];

export interface UploadInputs {
  /** A path or a glob, relative to the workspace. */
  file: string;
  appName?: string;
  symbolsFile?: string;
  groups: string[];
  notify: boolean;
  releaseNotes?: string;
  releaseNotesFile?: string;
  autoUpdate: boolean;
  tags: string[];
  folderName?: string;
  landingPageMode?: 'open' | 'closed';
  uploadToVendor: boolean;
  platform?: MobileUploadPlatform;
  metadata: Record<string, string>;
  timeoutMs: number;
}

export interface UploadDeps {
  client: Pick<MobileClient, 'upload'>;
  workspace: string;
  region: MobileRegion;
  apiUrl: string | undefined;
  /** Web address of the mobile service, for links the service did not give. */
  webBase: string;
  log: (line: string) => void;
  signal?: AbortSignal;
  progressIntervalMs?: number;
}

export type UploadOutputs = {
  'build-id': string;
  'project-id': string;
  'build-url': string;
  'download-page-url': string;
  'landing-page-url': string;
  'app-name': string;
  'app-version': string;
};

export interface UploadReport {
  outputs: UploadOutputs;
  file: string;
  sizeBytes: number;
  platform: string;
  inviteUrl: string;
  groups: string[];
  tags: string[];
}

export async function run(inputs: UploadInputs, deps: UploadDeps): Promise<UploadReport> {
  const file = await resolveAppFile(inputs.file, deps.workspace);
  const size = await checkAppFile(file, inputs.platform);
  const symbolsFile =
    inputs.symbolsFile !== undefined ? path.resolve(deps.workspace, inputs.symbolsFile) : undefined;
  await checkOptionalFile('symbols-file', symbolsFile);
  const releaseNotes = await releaseNotesOf(inputs, deps.workspace);

  deps.log(
    `Uploading ${path.relative(deps.workspace, file) || file} (${size} bytes) to ${deps.apiUrl ?? deps.region}`,
  );
  const report = createProgressReporter({
    label: `Uploading ${path.basename(file)}`,
    log: deps.log,
    ...(deps.progressIntervalMs !== undefined ? { intervalMs: deps.progressIntervalMs } : {}),
  });
  let result: MobileUploadResult;
  try {
    result = await deps.client.upload(
      file,
      {
        ...(inputs.appName !== undefined ? { appName: inputs.appName } : {}),
        ...(symbolsFile !== undefined ? { symbolsFile } : {}),
        ...(inputs.groups.length > 0 ? { groups: inputs.groups } : {}),
        notify: inputs.notify,
        ...(releaseNotes !== undefined ? { releaseNotes } : {}),
        autoUpdate: inputs.autoUpdate,
        ...(inputs.tags.length > 0 ? { tags: inputs.tags } : {}),
        ...(inputs.folderName !== undefined ? { folderName: inputs.folderName } : {}),
        ...(inputs.landingPageMode !== undefined ? { landingPageMode: inputs.landingPageMode } : {}),
        uploadToVendor: inputs.uploadToVendor,
        ...(inputs.platform !== undefined ? { platform: inputs.platform } : {}),
        metadata: inputs.metadata,
        onProgress: report,
      },
      { ...(deps.signal ? { signal: deps.signal } : {}), timeouts: { headersMs: inputs.timeoutMs } },
    );
  } catch (error) {
    throw explainUploadFailure(error, {
      region: deps.region,
      apiUrl: deps.apiUrl,
      file: path.basename(file),
    });
  }

  const buildId = String(result.build_id);
  const projectId = String(result.project_id);
  const buildUrl = result.build_url || mobileBuildUrl(deps.webBase, projectId, buildId);
  deps.log(`Uploaded ${result.app_name} ${result.app_version}: build ${buildId} of project ${projectId}`);
  return {
    outputs: {
      'build-id': buildId,
      'project-id': projectId,
      'build-url': buildUrl,
      'download-page-url': result.download_page_url ?? '',
      'landing-page-url': result.build_specific_landing_page_url || result.landing_page_url || '',
      'app-name': result.app_name ?? '',
      'app-version': result.app_version ?? '',
    },
    file,
    sizeBytes: typeof result.file_size === 'number' ? result.file_size : size,
    platform: result.platform ?? inputs.platform ?? '',
    inviteUrl: result.invite_testers_url || mobileInviteUrl(deps.webBase, projectId, buildId),
    groups: inputs.groups,
    tags: Array.isArray(result.tags) && result.tags.length > 0 ? result.tags.map(String) : inputs.tags,
  };
}

async function releaseNotesOf(inputs: UploadInputs, workspace: string): Promise<string | undefined> {
  if (inputs.releaseNotes !== undefined && inputs.releaseNotesFile !== undefined) {
    throw new InputError('release-notes-file', 'is set together with `release-notes`', 'one of the two');
  }
  if (inputs.releaseNotesFile === undefined) return inputs.releaseNotes;
  const file = path.resolve(workspace, inputs.releaseNotesFile);
  await checkOptionalFile('release-notes-file', file);
  return (await readFile(file, 'utf8')).trim();
}
