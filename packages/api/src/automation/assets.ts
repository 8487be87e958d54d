/** Job assets: logs, video and screenshots a job leaves behind (kept 30 days). */
import type { Readable } from 'node:stream';
import { callSpec, type CallOptions } from '../core/call.ts';
import { announcedLength, safeBaseName, writeStreamToFile, type DownloadResult } from '../core/files.ts';
import { segment } from '../core/transport.ts';
import { account, REST, type AutomationContext } from './context.ts';
import type { DownloadJobAssetParams, ForAccount, JobAssetList } from './types.ts';

export class AutomationJobAssets {
  readonly #ctx: AutomationContext;

  constructor(ctx: AutomationContext) {
    this.#ctx = ctx;
  }

  /** GET /rest/v1/{username}/jobs/{jobId}/assets: asset names mapped to file names, null when not captured (`listJobAssets`). */
  async list(jobId: string, params: ForAccount = {}, options?: CallOptions): Promise<JobAssetList> {
    const { body } = await this.#ctx.http.send<JobAssetList>({
      operation: 'listJobAssets',
      method: 'GET',
      path: this.#assetsPath(jobId, params.username),
      ...callSpec(options),
    });
    return body;
  }

  /**
   * GET /rest/v1/{username}/jobs/{jobId}/assets/{fileName}: streams one asset into `dir`
   * (`downloadJobAsset`). The file is named after `saveAs` or the asset, reduced to a safe base
   * name so that a name from the service cannot leave the folder. Past `maxBytes` (or announced
   * over it) it stops with a `DownloadLimitError`, and no part of the file is kept.
   */
  async download(
    jobId: string,
    fileName: string,
    dir: string,
    params: DownloadJobAssetParams = {},
    options?: CallOptions,
  ): Promise<DownloadResult> {
    const { body, headers } = await this.#ctx.http.send<Readable>({
      operation: 'downloadJobAsset',
      method: 'GET',
      path: `${this.#assetsPath(jobId, params.username)}/${segment(fileName)}`,
      responseType: 'stream',
      ...callSpec(options),
    });
    const announcedBytes = announcedLength(headers);
    return writeStreamToFile(body, dir, safeBaseName(params.saveAs ?? fileName, 'asset'), {
      ...(params.maxBytes !== undefined ? { maxBytes: params.maxBytes } : {}),
      ...(announcedBytes !== undefined ? { announcedBytes } : {}),
    });
  }

  /** DELETE /rest/v1/{username}/jobs/{jobId}/assets: deletes every asset of the job (`deleteJobAssets`). */
  async delete(jobId: string, params: ForAccount = {}, options?: CallOptions): Promise<void> {
    await this.#ctx.http.send({
      operation: 'deleteJobAssets',
      method: 'DELETE',
      path: this.#assetsPath(jobId, params.username),
      responseType: 'none',
      ...callSpec(options),
    });
  }

  #assetsPath(jobId: string, username: string | undefined): string {
    return `${REST}/${account(this.#ctx, username)}/jobs/${segment(jobId)}/assets`;
  }
}
