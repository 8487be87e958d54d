/**
 * Multipart bodies streamed from disk with a known Content-Length, built with form-data.
 * Files are never read whole into memory; progress is reported as bytes leave the process.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Transform } from 'node:stream';
import FormData from 'form-data';
import type { RequestBody } from './transport.ts';

export interface MultipartFile {
  /** Form field name. */
  field: string;
  /** Path of the file on disk. */
  path: string;
  /** File name sent to the service; default the path's base name. */
  fileName?: string;
  contentType?: string;
}

export interface UploadProgress {
  sentBytes: number;
  totalBytes: number;
}

export type StreamBody = Extract<RequestBody, { kind: 'stream' }>;

/** Builds a multipart body that can be opened again for a retry, with its exact length. */
export async function multipartBody(
  fields: readonly (readonly [string, string])[],
  files: readonly MultipartFile[],
  onProgress?: (progress: UploadProgress) => void,
): Promise<StreamBody> {
  const sizes = await Promise.all(files.map(async (file) => (await stat(file.path)).size));
  const boundary = `----sauce-actions-${crypto.randomUUID()}`;

  const build = (): FormData => {
    const form = new FormData();
    form.setBoundary(boundary);
    for (const [name, value] of fields) form.append(name, value);
    files.forEach((file, index) => {
      form.append(file.field, createReadStream(file.path), {
        filename: file.fileName ?? path.basename(file.path),
        contentType: file.contentType ?? 'application/octet-stream',
        knownLength: sizes[index],
      });
    });
    return form;
  };

  const length = build().getLengthSync();
  return {
    kind: 'stream',
    contentType: `multipart/form-data; boundary=${boundary}`,
    length,
    open: () => {
      const form = build();
      if (!onProgress) return form.pipe(new PassThrough());
      let sent = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          sent += chunk.length;
          onProgress({ sentBytes: sent, totalBytes: length });
          callback(null, chunk);
        },
      });
      form.on('error', (error: Error) => counter.destroy(error));
      return form.pipe(counter);
    },
  };
}
