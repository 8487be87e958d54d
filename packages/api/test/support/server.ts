/**
 * Test support: real HTTP servers on 127.0.0.1 with a free port, for the tests where the wire
 * matters (retries, timeouts, keep-alive, proxies, uploads). Every server is closed by `stopAll`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** Which connection carried the request (1 for the first the server accepted). */
  connection: number;
}

export interface TestServer {
  url: string;
  port: number;
  server: Server;
  requests: ReceivedRequest[];
  /** Connections the server accepted. */
  connections: number;
  close(): Promise<void>;
}

export type Handler = (
  request: ReceivedRequest,
  response: ServerResponse,
  raw: IncomingMessage,
) => void | Promise<void>;

const running = new Set<TestServer>();

/**
 * Starts a server whose handler sees each request after its body has been read whole.
 * `port` 0 (the default) picks a free one; a given port lets a refused address start answering.
 */
export async function startServer(handler: Handler, port = 0): Promise<TestServer> {
  const sockets = new Set<Socket>();
  const connectionIds = new WeakMap<Socket, number>();
  const server = createServer((raw, response) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      const received: ReceivedRequest = {
        method: raw.method ?? '',
        url: raw.url ?? '',
        headers: raw.headers,
        body: Buffer.concat(chunks),
        connection: connectionIds.get(raw.socket) ?? 0,
      };
      test.requests.push(received);
      void Promise.resolve(handler(received, response, raw)).catch((error: unknown) => {
        response.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  server.on('connection', (socket: Socket) => {
    test.connections++;
    connectionIds.set(socket, test.connections);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  const test: TestServer = {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    server,
    requests: [],
    connections: 0,
    close: async () => {
      running.delete(test);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  running.add(test);
  return test;
}

/** Closes every server started by `startServer` (call it in `afterEach`). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((server) => server.close()));
}

/** Answers with JSON. */
export function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** A port on 127.0.0.1 with nothing listening (a server is started and closed to find one). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
