import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type UploadProgress } from '../../src/index.ts';
import { HttpTransport } from '../../src/core/transport/transport.ts';
import { multipartBody } from '../../src/core/files/multipart.ts';
import { closedPort, json, startServer, stopAll } from '../support/server.ts';

let dir: string;
const transports: HttpTransport[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sauce-api-files-'));
});
afterEach(async () => {
  await Promise.all(transports.splice(0).map((http) => http.close()));
  await stopAll();
  await rm(dir, { recursive: true, force: true });
});

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Splits a multipart body on its boundary into parts of headers and raw content. */
function parts(body: Buffer, boundary: string): { headers: string; content: Buffer }[] {
  const out: { headers: string; content: Buffer }[] = [];
  const marker = Buffer.from(`--${boundary}`);
  let start = body.indexOf(marker);
  while (start !== -1) {
    const next = body.indexOf(marker, start + marker.length);
    if (next === -1) break;
    const part = body.subarray(start + marker.length + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    out.push({ headers: part.subarray(0, split).toString(), content: part.subarray(split + 4) });
    start = next;
  }
  return out;
}

describe('multipartBody', () => {
  it('streams fields and files with an exact Content-Length and reports progress to the total', async () => {
    const file = path.join(dir, 'app.apk');
    const data = randomBytes(300_000);
    await writeFile(file, data);
    const empty = path.join(dir, 'empty.txt');
    await writeFile(empty, '');
    const progress: UploadProgress[] = [];
    const body = await multipartBody(
      [
        ['api_key', 'k'],
        ['comment', 'héllo'],
      ],
      [
        { field: 'file', path: file, contentType: 'application/vnd.android.package-archive' },
        { field: 'symbols_file', path: empty, fileName: 'sym.txt' },
      ],
      (update) => progress.push(update),
    );
    const server = await startServer((_request, response) => json(response, 200, { status: 'ok' }));
    const http = new HttpTransport({ baseUrl: server.url, retry: { retries: 0 } });
    transports.push(http);
    await http.send({ operation: 'upload', method: 'POST', path: '/api/upload/', body });

    const received = server.requests[0]!;
    expect(Number(received.headers['content-length'])).toBe(body.length);
    expect(received.body.length).toBe(body.length);
    const boundary = /boundary=(.+)$/.exec(String(received.headers['content-type']))![1]!;
    const [key, comment, upload, symbols] = parts(received.body, boundary);
    expect(key?.headers).toContain('name="api_key"');
    expect(key?.content.toString()).toBe('k');
    expect(comment?.content.toString()).toBe('héllo');
    expect(upload?.headers).toContain('filename="app.apk"');
    expect(upload?.headers).toContain('Content-Type: application/vnd.android.package-archive');
    expect(sha(upload!.content)).toBe(sha(data));
    expect(symbols?.headers).toContain('filename="sym.txt"');
    expect(symbols?.content.length).toBe(0);
    // Progress counts the files' bytes, not the multipart framing around them.
    expect(progress.at(-1)).toEqual({ sentBytes: data.length, totalBytes: data.length });
    expect(progress.map((update) => update.sentBytes)).toEqual(
      [...progress.map((u) => u.sentBytes)].sort((a, b) => a - b),
    );
  });

  it('sends a file of many chunks intact to a receiver slower than the disk, holding two buffers', async () => {
    const file = path.join(dir, 'large.apk');
    // Not a whole number of chunks, so that the last one is short.
    const data = randomBytes(5 * 1024 * 1024 + 12_345);
    await writeFile(file, data);
    const progress: UploadProgress[] = [];
    const body = await multipartBody([['api_key', 'k']], [{ field: 'file', path: file }], (update) =>
      progress.push(update),
    );
    const received: Buffer[] = [];
    const server = createServer((request, response) => {
      // Reads in small bites with pauses, so that the sender's socket fills and must drain.
      request.on('data', (chunk: Buffer) => {
        received.push(Buffer.from(chunk));
        request.pause();
        setTimeout(() => request.resume(), 1);
      });
      request.on('end', () => response.end('{"status":"ok"}'));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const http = new HttpTransport({ baseUrl: `http://127.0.0.1:${port}`, retry: { retries: 0 } });
    transports.push(http);
    try {
      await http.send({ operation: 'upload', method: 'POST', path: '/api/upload/', body });
    } finally {
      server.close();
    }
    const all = Buffer.concat(received);
    expect(all.length).toBe(body.length);
    const boundary = /boundary=(.+)$/.exec(body.contentType)![1]!;
    const [, upload] = parts(all, boundary);
    expect(upload!.content.length).toBe(data.length);
    expect(sha(upload!.content)).toBe(sha(data));
    expect(progress.map((update) => update.sentBytes)).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => Math.min(n * 1024 * 1024, data.length)),
    );
  });

  it('names fields and files safely, whatever characters they hold', async () => {
    const file = path.join(dir, 'a"b\r\nc.apk');
    await writeFile(file, 'x');
    const body = await multipartBody([['note"\r\nX-Injected: 1', 'v']], [{ field: 'file', path: file }]);
    const text = (await readAll(body.open())).toString();
    expect(text).toContain('name="note%22%0D%0AX-Injected: 1"');
    expect(text).toContain('filename="a%22b%0D%0Ac.apk"');
    expect(text).not.toMatch(/^X-Injected/m);
  });

  it('opens afresh for a retry, sending the whole body again', async () => {
    const file = path.join(dir, 'build.ipa');
    const data = randomBytes(50_000);
    await writeFile(file, data);
    const body = await multipartBody([], [{ field: 'file', path: file }]);
    const first = await readAll(body.open());
    const second = await readAll(body.open());
    expect(first.length).toBe(body.length);
    expect(second.equals(first)).toBe(true);
  });

  it('is resent whole when a POST is retried after a refused connection', async () => {
    const file = path.join(dir, 'build.zip');
    const data = randomBytes(20_000);
    await writeFile(file, data);
    const body = await multipartBody([['a', 'b']], [{ field: 'file', path: file }]);
    const port = await closedPort();
    const http = new HttpTransport({
      baseUrl: `http://127.0.0.1:${port}`,
      retry: { retries: 5, minDelayMs: 20, maxDelayMs: 20, random: () => 1 },
    });
    transports.push(http);
    const sent = http.send({ operation: 'upload', method: 'POST', path: '/api/upload/', body });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const server = await startServer((_request, response) => json(response, 200, { status: 'ok' }), port);
    await sent;
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body.length).toBe(body.length);
  });

  it('fails when a file is missing', async () => {
    await expect(multipartBody([], [{ field: 'file', path: path.join(dir, 'absent.apk') }])).rejects.toThrow(
      /ENOENT/,
    );
  });
});

async function readAll(stream: Readable | Buffer | AsyncIterable<Uint8Array>): Promise<Buffer> {
  if (Buffer.isBuffer(stream)) return stream;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}
