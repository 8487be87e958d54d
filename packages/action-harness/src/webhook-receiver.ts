/**
 * A stand-in for a chat's incoming webhook (Slack, a Teams workflow, any JSON receiver): it keeps
 * every message posted to it, and answers as a test tells it: a status, no answer at all (held
 * until it closes), or a connection cut before any answer. `url` holds a secret path, as a real
 * webhook's does, so that a test can check it never shows.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedMessage {
  path: string;
  contentType: string;
  body: unknown;
}

/** How the next messages are answered: a status (200 by default), held without an answer, or cut. */
export type WebhookAnswer = { status: number; body?: string } | 'hold' | 'cut';

export interface WebhookReceiver {
  /** The webhook's address, with its secret path. */
  url: string;
  /** The secret part of `url`. */
  secret: string;
  received: ReceivedMessage[];
  /** Answers every later message so, until told otherwise. */
  answer(answer: WebhookAnswer): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(
  secret = 'T0000/B0000/hook-secret-5f1c',
): Promise<WebhookReceiver> {
  const received: ReceivedMessage[] = [];
  let next: WebhookAnswer = { status: 200, body: 'ok' };
  const server = createServer((request, response) => {
    void readJson(request).then((body) => {
      received.push({
        path: request.url ?? '',
        contentType: String(request.headers['content-type'] ?? ''),
        body,
      });
      if (next === 'hold') return;
      if (next === 'cut') {
        request.socket.destroy();
        return;
      }
      response.writeHead(next.status, { 'content-type': 'text/plain' });
      response.end(next.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/services/${secret}`,
    secret,
    received,
    answer: (answer) => {
      next = answer;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
