/** Job assets: logs, video and screenshots a job leaves behind (kept 30 days). */
import type { Readable } from 'node:stream';
import type { CallOptions } from '../core/values/call.ts';
import {
  announcedLength,
  safeBaseName,
  writeStreamToFile,
  type DownloadResult,
} from '../core/files/files.ts';
import { operations } from '../core/resources/resource.ts';
import { AutomationResource } from './context.ts';
import type { DownloadJobAssetParams, ForAccount, JobAssetList } from './types.ts';

const ASSETS = '/{username}/jobs/{jobId}/assets';

const JOB_ASSETS = operations({
  listJobAssets: `GET ${ASSETS}`,
  downloadJobAsset: { route: `GET ${ASSETS}/{fileName}`, responseType: 'stream' },
  deleteJobAssets: { route: `DELETE ${ASSETS}`, responseType: 'none' },
});

export class AutomationJobAssets extends AutomationResource {
  /** GET /rest/v1/{username}/jobs/{jobId}/assets: asset names mapped to file names, null when not captured (`listJobAssets`). */
  async list(jobId: string, params: ForAccount = {}, options?: CallOptions): Promise<JobAssetList> {
    return this.call(JOB_ASSETS.listJobAssets, { path: { username: params.username, jobId } }, options);
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
    const spec = this.request(JOB_ASSETS.downloadJobAsset, {
      path: { username: params.username, jobId, fileName },
    });
    const { body, headers } = await this.exchange<Readable>(spec, options);
    const announcedBytes = announcedLength(headers);
    return writeStreamToFile(body, dir, safeBaseName(params.saveAs ?? fileName, 'asset'), {
      ...(params.maxBytes !== undefined ? { maxBytes: params.maxBytes } : {}),
      ...(announcedBytes !== undefined ? { announcedBytes } : {}),
    });
  }

  /** DELETE /rest/v1/{username}/jobs/{jobId}/assets: deletes every asset of the job (`deleteJobAssets`). */
  async delete(jobId: string, params: ForAccount = {}, options?: CallOptions): Promise<void> {
    await this.call(JOB_ASSETS.deleteJobAssets, { path: { username: params.username, jobId } }, options);
  }
}
