/** Temporary storage: files kept 7 days for jobs to use. */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { CallOptions } from '../core/values/call.ts';
import { operations } from '../core/resources/resource.ts';
import { AutomationResource } from './context.ts';
import type {
  ForAccount,
  TemporaryFileList,
  TemporaryFileUpload,
  UploadTemporaryFileParams,
} from './types.ts';

const STORAGE = operations({
  uploadTemporaryFile: 'POST /storage/{username}/{fileName}',
  listTemporaryFiles: 'GET /storage/{username}',
});

export class AutomationStorage extends AutomationResource {
  /**
   * POST /rest/v1/storage/{username}/{fileName}: stores a local file, streamed as the raw body
   * (`uploadTemporaryFile`). A stored file of the same name is kept unless `overwrite` is true.
   */
  async upload(
    filePath: string,
    params: UploadTemporaryFileParams = {},
    options?: CallOptions,
  ): Promise<TemporaryFileUpload> {
    const info = await stat(filePath);
    if (!info.isFile()) throw new TypeError(`not a file: ${path.basename(filePath)}`);
    const fileName = params.fileName ?? path.basename(filePath);
    const parts = {
      path: { username: params.username, fileName },
      query: { overwrite: params.overwrite === true ? true : undefined },
      body: {
        kind: 'stream',
        contentType: 'application/octet-stream',
        length: info.size,
        open: () => createReadStream(filePath),
      },
    } as const;
    return this.call(STORAGE.uploadTemporaryFile, parts, options);
  }

  /** GET /rest/v1/storage/{username}: lists the stored files (`listTemporaryFiles`). */
  async list(params: ForAccount = {}, options?: CallOptions): Promise<TemporaryFileList> {
    return this.call(STORAGE.listTemporaryFiles, { path: { username: params.username } }, options);
  }
}
