/** Temporary storage: files kept 7 days for jobs to use. */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { callSpec, type CallOptions } from '../core/call.ts';
import { segment } from '../core/transport.ts';
import { account, REST, type AutomationContext } from './context.ts';
import type {
  ForAccount,
  TemporaryFileList,
  TemporaryFileUpload,
  UploadTemporaryFileParams,
} from './types.ts';

export class AutomationStorage {
  readonly #ctx: AutomationContext;

  constructor(ctx: AutomationContext) {
    this.#ctx = ctx;
  }

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
    const { body } = await this.#ctx.http.send<TemporaryFileUpload>({
      operation: 'uploadTemporaryFile',
      method: 'POST',
      path: `${REST}/storage/${account(this.#ctx, params.username)}/${segment(fileName)}`,
      query: { overwrite: params.overwrite === true ? true : undefined },
      body: {
        kind: 'stream',
        contentType: 'application/octet-stream',
        length: info.size,
        open: () => createReadStream(filePath),
      },
      ...callSpec(options),
    });
    return body;
  }

  /** GET /rest/v1/storage/{username}: lists the stored files (`listTemporaryFiles`). */
  async list(params: ForAccount = {}, options?: CallOptions): Promise<TemporaryFileList> {
    const { body } = await this.#ctx.http.send<TemporaryFileList>({
      operation: 'listTemporaryFiles',
      method: 'GET',
      path: `${REST}/storage/${account(this.#ctx, params.username)}`,
      ...callSpec(options),
    });
    return body;
  }
}
