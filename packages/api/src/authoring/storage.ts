/** AI authoring artifact storage: downloads to disk. */
import type { Readable } from 'node:stream';
import type { CallOptions } from '../core/values/call.ts';
import {
  fileNameFromDisposition,
  safeBaseName,
  writeStreamToFile,
  type DownloadResult,
} from '../core/files/files.ts';
import { operations } from '../core/resources/resource.ts';
import { AuthoringResource } from './context.ts';
import type { DownloadArtifactOptions } from './types.ts';

const STORAGE = operations({
  downloadArtifact: { route: 'GET /storage/{id}', responseType: 'stream' },
});

export class AuthoringStorage extends AuthoringResource {
  /**
   * GET /v1/ai-authoring/storage/{id}: streams an artifact (a screenshot, for example) into `dir`.
   * The file is named after the answer's Content-Disposition, reduced to a base name so that it
   * cannot leave `dir`, or after the artifact id when the answer names none.
   */
  async download(
    id: string,
    dir: string,
    options: DownloadArtifactOptions & CallOptions = {},
  ): Promise<DownloadResult> {
    const response = await this.exchange<Readable>(
      this.request(STORAGE.downloadArtifact, { path: { id } }),
      options,
    );
    const fallback = safeBaseName(id, 'artifact');
    const name = safeBaseName(options.fileName ?? fileNameFromDisposition(response.headers), fallback);
    return writeStreamToFile(response.body, dir, name);
  }
}
