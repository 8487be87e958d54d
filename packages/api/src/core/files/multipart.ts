/**
 * Multipart bodies streamed from disk, with their exact length known before the first byte.
 *
 * A file goes to the socket in 1 MiB chunks read into two buffers used in turn, the next chunk
 * read while the last one is sent: an upload of any size holds about 2 MiB and makes no copy
 * between the disk and the socket. Reusing a buffer is safe because a chunk is only asked for once
 * the chunk before it has left the process: a socket accepts a write without waiting only when
 * its queue stays below its high-water mark (16 to 64 KiB, far less than a chunk), and otherwise
 * the request waits for the queue to drain before it takes the next chunk.
 */
import { randomUUID } from 'node:crypto';
import { open, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { RequestBody } from '../values/request.ts';

export interface MultipartFile {
  /** Form field name. */
  field: string;
  /** Path of the file on disk. */
  path: string;
  /** File name sent to the service; default the path's base name. */
  fileName?: string;
  contentType?: string;
}

/** Bytes of the files (not of the whole body) that have left the process. */
export interface UploadProgress {
  sentBytes: number;
  totalBytes: number;
}

type StreamBody = Extract<RequestBody, { kind: 'stream' }>;

const CHUNK_BYTES = 1024 * 1024;
const CRLF = Buffer.from('\r\n');

/** Builds a multipart body that can be opened again for a retry, with its exact length. */
export async function multipartBody(
  fields: readonly (readonly [string, string])[],
  files: readonly MultipartFile[],
  onProgress?: (progress: UploadProgress) => void,
): Promise<StreamBody> {
  const sizes = await Promise.all(files.map(async (file) => (await stat(file.path)).size));
  const boundary = `----sauce-actions-${randomUUID()}`;
  const fieldParts = Buffer.from(
    fields
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`,
      )
      .join(''),
  );
  const fileHeads = files.map((file) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.field)}"; ` +
        `filename="${quoted(file.fileName ?? path.basename(file.path))}"\r\n` +
        `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
    ),
  );
  const end = Buffer.from(`--${boundary}--\r\n`);
  const totalBytes = sizes.reduce((sum, size) => sum + size, 0);
  const length =
    fieldParts.length +
    fileHeads.reduce((sum, head, index) => sum + head.length + (sizes[index] ?? 0) + CRLF.length, 0) +
    end.length;

  async function* chunks(): AsyncGenerator<Buffer, void, undefined> {
    if (fieldParts.length > 0) yield fieldParts;
    let sentBytes = 0;
    for (const [index, file] of files.entries()) {
      yield fileHeads[index] as Buffer;
      for await (const chunk of fileChunks(file.path, sizes[index] ?? 0)) {
        yield chunk;
        // Asked for the next chunk: this one has been written.
        sentBytes += chunk.length;
        onProgress?.({ sentBytes, totalBytes });
      }
      yield CRLF;
    }
    yield end;
  }

  return {
    kind: 'stream',
    contentType: `multipart/form-data; boundary=${boundary}`,
    length,
    open: chunks,
  };
}

/** The first `size` bytes of a file, a chunk at a time, the next one read while this one is sent. */
async function* fileChunks(file: string, size: number): AsyncGenerator<Buffer, void, undefined> {
  if (size === 0) return;
  const handle = await open(file, 'r');
  let next: Promise<Buffer> | undefined;
  try {
    const buffers = [Buffer.allocUnsafeSlow(Math.min(CHUNK_BYTES, size))];
    if (size > CHUNK_BYTES) buffers.push(Buffer.allocUnsafeSlow(CHUNK_BYTES));
    let position = 0;
    let turn = 0;
    next = readChunk(handle, file, buffers[0] as Buffer, 0, size);
    while (next) {
      const chunk = await next;
      position += chunk.length;
      turn = (turn + 1) % buffers.length;
      next = position < size ? readChunk(handle, file, buffers[turn] as Buffer, position, size) : undefined;
      yield chunk;
    }
  } finally {
    // A request given up mid-file may leave a read going: it ends before the file closes.
    await next?.catch(() => {});
    await handle.close();
  }
}

async function readChunk(
  handle: FileHandle,
  file: string,
  buffer: Buffer,
  position: number,
  size: number,
): Promise<Buffer> {
  const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
  // The length was announced before sending: a file that shrinks meanwhile cannot be sent.
  if (bytesRead === 0) throw new Error(`${file} became shorter while it was being sent`);
  return buffer.subarray(0, bytesRead);
}

/** A name in a quoted header parameter, escaped as browsers do. */
function quoted(name: string): string {
  return name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
