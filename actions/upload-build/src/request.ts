/**
 * What the upload sends, from the inputs and what was prepared for it: a pure function, so that
 * each input's form field is a row of its test.
 */
import type { MobileUploadOptions } from '@sauce-actions/api';
import type { BuildLabels } from './build-metadata.ts';
import type { UploadInputs } from './inputs.ts';

/** What the steps before the upload settled: the files found, the groups checked, the labels. */
export interface PreparedUpload {
  symbolsFile?: string | undefined;
  releaseNotes?: string | undefined;
  /** The groups to send, under the names the account has them when they were checked. */
  groups: readonly string[];
  labels: Pick<BuildLabels, 'tags' | 'metadata'>;
  /** The testers are emailed after the upload, by the invitation (`release-notes: auto`). */
  notifyLater: boolean;
}

type UploadRequest = Omit<MobileUploadOptions, 'onProgress'>;

/** The upload's options: each set only when given, so that the service's defaults stand otherwise. */
export function uploadRequest(
  inputs: Pick<
    UploadInputs,
    'appName' | 'notify' | 'autoUpdate' | 'folderName' | 'landingPageMode' | 'uploadToVendor' | 'platform'
  >,
  prepared: PreparedUpload,
): UploadRequest {
  const given = <K extends keyof UploadRequest>(key: K, value: UploadRequest[K] | undefined) =>
    value !== undefined ? { [key]: value } : {};
  return {
    ...given('appName', inputs.appName),
    ...given('symbolsFile', prepared.symbolsFile),
    ...given('groups', prepared.groups.length > 0 ? [...prepared.groups] : undefined),
    notify: inputs.notify && !prepared.notifyLater,
    ...given('releaseNotes', prepared.releaseNotes),
    autoUpdate: inputs.autoUpdate,
    ...given('tags', prepared.labels.tags.length > 0 ? [...prepared.labels.tags] : undefined),
    ...given('folderName', inputs.folderName),
    ...given('landingPageMode', inputs.landingPageMode),
    uploadToVendor: inputs.uploadToVendor,
    ...given('platform', inputs.platform),
    metadata: prepared.labels.metadata,
  };
}
