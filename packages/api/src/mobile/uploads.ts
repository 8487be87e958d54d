/** The upload interface: app files streamed from disk as multipart, with their symbols. */
import type { CallOptions } from '../core/values/call.ts';
import { multipartBody, type MultipartFile } from '../core/files/multipart.ts';
import { checkAnswer, id, list, number, optional, record, text } from '../core/resources/shape.ts';
import { operations } from '../core/resources/resource.ts';
import { commaList, MobileResource, onOff, sendMobile } from './request.ts';
import type { MobileUploadOptions, MobileUploadResult } from './types.ts';

/**
 * The service answers only once the whole file has arrived and been processed, so the wait for
 * the answer's headers is long by default; `options.timeouts.headersMs` overrides it.
 */
export const MOBILE_UPLOAD_HEADERS_TIMEOUT_MS = 30 * 60_000;

const UPLOADS = operations({ uploadBuild: 'POST /api/upload/' });

export class MobileUploads extends MobileResource {
  /**
   * POST /api/upload/: uploads an APK, AAB, IPA or macOS ZIP. With an API key the key travels in the
   * `api_key` field and no Authorization header is sent; with an OIDC token the bearer headers are sent.
   */
  async build(
    filePath: string,
    upload: MobileUploadOptions = {},
    options?: CallOptions,
  ): Promise<MobileUploadResult> {
    const credentials = this.http.credentials;
    const apiKey = credentials?.type === 'basic' ? credentials.revealSecret() : undefined;
    const files: MultipartFile[] = [{ field: 'file', path: filePath }];
    if (upload.symbolsFile !== undefined) files.push({ field: 'symbols_file', path: upload.symbolsFile });
    const body = await multipartBody(uploadFields(upload, apiKey), files, upload.onProgress);
    const request = {
      ...this.request(UPLOADS.uploadBuild, { body }),
      ...(apiKey !== undefined ? { credentials: null } : {}),
    };
    const response = await sendMobile<unknown>(
      this.http,
      request,
      { ...options, timeouts: { headersMs: MOBILE_UPLOAD_HEADERS_TIMEOUT_MS, ...options?.timeouts } },
      apiKey !== undefined ? [apiKey] : [],
    );
    return checkAnswer<MobileUploadResult>(request, response.body, UPLOAD_ANSWER);
  }
}

/** What callers read of an upload's answer: the ids first, then the links and the app's details. */
const UPLOAD_ANSWER = record({
  build_id: id,
  project_id: id,
  app_name: optional(text),
  app_version: optional(text),
  file_size: optional(number),
  platform: optional(text),
  tags: optional(list(text)),
  build_url: optional(text),
  download_page_url: optional(text),
  invite_testers_url: optional(text),
  landing_page_url: optional(text),
  build_specific_landing_page_url: optional(text),
});

/** The text fields of an upload, in the service's names and encodings; absent options are left out. */
export function uploadFields(upload: MobileUploadOptions, apiKey: string | undefined): [string, string][] {
  const fields: [string, string | undefined][] = [
    ['api_key', apiKey],
    ['app_name', upload.appName],
    ['groups', commaList(upload.groups)],
    ['notify', onOff(upload.notify)],
    ['release_notes', upload.releaseNotes],
    ['auto_update', onOff(upload.autoUpdate)],
    ['tags', commaList(upload.tags)],
    ['folder_name', upload.folderName],
    ['landing_page_mode', upload.landingPageMode],
    ['upload_to_vendor', onOff(upload.uploadToVendor)],
    ['platform', upload.platform],
    ...Object.entries(upload.metadata ?? {}).map(([key, value]): [string, string] => [
      `metadata.${key}`,
      value,
    ]),
  ];
  return fields.filter((field): field is [string, string] => field[1] !== undefined);
}
