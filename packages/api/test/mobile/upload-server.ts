/** A loopback server standing in for the upload interface: it keeps each request's raw body. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedUpload {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface UploadServer {
  url: string;
  received: ReceivedUpload[];
  close(): Promise<void>;
}

export interface UploadAnswer {
  status?: number;
  body: unknown;
  /** Waits this long after the body arrived before answering. */
  delayMs?: number;
}

export async function startUploadServer(answer: UploadAnswer): Promise<UploadServer> {
  const received: ReceivedUpload[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      const send = () => {
        response.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(answer.body));
      };
      if (!answer.delayMs) return send();
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, answer.delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Parses a recorded multipart body with the platform's own form-data reader. */
export async function multipartFields(upload: ReceivedUpload): Promise<FormData> {
  const type = upload.headers['content-type'] ?? '';
  return new Response(new Uint8Array(upload.body), { headers: { 'content-type': type } }).formData();
}
