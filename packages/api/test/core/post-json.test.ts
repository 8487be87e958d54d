/**
 * A JSON POST to an address outside the interfaces (a chat's webhook) against a local server:
 * the status and the start of the answer, whatever the status; an answer that never ends read
 * no further than its start; no answer, a refused connection or a deadline thrown naming the
 * origin alone, never the path that holds the webhook's token.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy } from 'proxy';
import { afterEach, describe, expect, it } from 'vitest';
import { addressOrigin, postJson } from '../../src/index.ts';

const SECRET_PATH = '/services/T000/B000/s3cr3t-t0ken';
let server: Server | undefined;

async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${SECRET_PATH}`;
}

afterEach(async () => {
  const open = server;
  server = undefined;
  if (open === undefined) return;
  open.closeAllConnections();
  await new Promise((resolve) => open.close(resolve));
});

describe('postJson', () => {
  it('sends the body as JSON and answers the status and the answer', async () => {
    let received: { method: string | undefined; type: string | undefined; body: string } | undefined;
    const url = await serve((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received = { method: request.method, type: request.headers['content-type'], body };
        response.end('ok');
      });
    });
    expect(await postJson(url, { text: 'hello' })).toEqual({ status: 200, text: 'ok' });
    expect(received).toEqual({ method: 'POST', type: 'application/json', body: '{"text":"hello"}' });
  });

  it.each([400, 404, 429, 500])('answers a %i as it is, for the caller to judge', async (status) => {
    const url = await serve((_request, response) => {
      response.statusCode = status;
      response.end('invalid_payload');
    });
    expect(await postJson(url, {})).toEqual({ status, text: 'invalid_payload' });
  });

  it('reads no further than the start of an answer that never ends', async () => {
    const url = await serve((_request, response) => {
      const more = (): void => void (response.write('x'.repeat(1000)) && setImmediate(more));
      response.on('drain', more);
      more();
    });
    const answer = await postJson(url, {});
    expect(answer.status).toBe(200);
    expect(answer.text.length).toBe(2000);
  });

  it('throws on no answer within its deadline, naming the origin and not the token', async () => {
    const url = await serve(() => {
      // Never answers.
    });
    const failed = postJson(url, {}, { timeoutMs: 300 });
    await expect(failed).rejects.toThrow(`POST to ${addressOrigin(url)} failed: no answer within 0.3s`);
    await expect(failed).rejects.not.toThrow(/s3cr3t/);
  });

  it('throws on a refused connection, naming the origin and not the token', async () => {
    const url = await serve(() => {});
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    const failed = postJson(url, {});
    await expect(failed).rejects.toThrow(`POST to ${addressOrigin(url)} failed`);
    await expect(failed).rejects.not.toThrow(/s3cr3t/);
  });

  it('goes through the proxy HTTP_PROXY names, as every request of the client does', async () => {
    const url = await serve((_request, response) => response.end('through'));
    const proxied: string[] = [];
    const proxy = createProxy(createServer());
    proxy.on('request', (request: IncomingMessage) => proxied.push(`${request.method} ${request.url}`));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const before = { lower: process.env.http_proxy, upper: process.env.HTTP_PROXY };
    delete process.env.http_proxy;
    process.env.HTTP_PROXY = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      expect(await postJson(url, { text: 'hi' })).toEqual({ status: 200, text: 'through' });
      expect(proxied).toEqual([`POST ${url}`]);
    } finally {
      if (before.upper === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = before.upper;
      if (before.lower !== undefined) process.env.http_proxy = before.lower;
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('shows an address by its origin alone', () => {
    expect(addressOrigin('https://hooks.slack.com/services/T/B/token?x=1')).toBe('https://hooks.slack.com');
    expect(addressOrigin('not an address')).toBe('an address that is not one');
  });
});
