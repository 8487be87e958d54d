/**
 * Multipart bodies streamed from disk with a known Content-Length, built with form-data.
 * Files are never read whole into memory; progress is reported as bytes leave the process.
 */
import { createReadStream, ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import type FormData from 'form-data';
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
  // Loaded by the first upload only; a CommonJS package loaded on demand is its default export.
  const Form = (await import('form-data')).default;
  const boundary = `----sauce-actions-${crypto.randomUUID()}`;

  /** The form, with file parts read from disk, or with empty stand-ins when only measuring. */
  const build = (measure: boolean): { form: FormData; streams: ReadStream[] } => {
    const form = new Form();
    const streams: ReadStream[] = [];
    form.setBoundary(boundary);
    for (const [name, value] of fields) form.append(name, value);
    files.forEach((file, index) => {
      const size = sizes[index] ?? 0;
      // form-data cannot measure an empty stream synchronously; an empty file is an empty buffer.
      const content = measure || size === 0 ? Buffer.alloc(0) : createReadStream(file.path);
      if (content instanceof ReadStream) streams.push(content);
      form.append(file.field, content, {
        filename: file.fileName ?? path.basename(file.path),
        contentType: file.contentType ?? 'application/octet-stream',
        knownLength: size,
      });
    });
    return { form, streams };
  };

  const length = build(true).form.getLengthSync();
  return {
    kind: 'stream',
    contentType: `multipart/form-data; boundary=${boundary}`,
    length,
    open: () => {
      const { form, streams } = build(false);
      let sent = 0;
      const output = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          sent += chunk.length;
          onProgress?.({ sentBytes: sent, totalBytes: length });
          callback(null, chunk);
        },
      });
      // form-data is a legacy stream: neither errors nor an early end of the request reach
      // its files on their own, so forward errors and close the files when the body closes.
      form.on('error', (error: Error) => output.destroy(error));
      output.on('close', () => {
        for (const stream of streams) stream.destroy();
      });
      return form.pipe(output);
    },
  };
}
