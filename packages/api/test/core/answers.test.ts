/**
 * Answers that arrive broken or hostile: a body trickled past the time for the whole answer, a
 * body without end, a body cut short or garbled, an HTML page, a redirect, a compressed body.
 * Each is bounded, read or refused, and told as what it is; a garbled answer to a request safe
 * to repeat is sent for again.
 */
import type { ServerResponse } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, TransportError } from '../../src/index.ts';
import { json, startServer, stopAll } from '../support/server.ts';
import {
  closeTransports,
  transport as openTransport,
  wait,
  type TransportOptions,
} from '../support/transports.ts';

/** A transport whose waits before sending again are short. */
const transport = (baseUrl: string, options: TransportOptions = {}) =>
  openTransport(baseUrl, { retry: { retries: 0, minDelayMs: 1, random: () => 0 }, ...options });

afterEach(async () => {
  await closeTransports();
  await stopAll();
});
const get = { operation: 'listJobs', method: 'GET', path: '/jobs' } as const;
const post = {
  operation: 'runSuite',
  method: 'POST',
  path: '/run',
  body: { kind: 'json', value: {} },
} as const;

/** A server that writes `chunk` every `everyMs` until the client leaves, never ending the body. */
async function endlessServer(chunk: string, everyMs: number, status = 200) {
  let written = 0;
  const server = await startServer(async (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.write('{"jobs":[');
    while (!response.destroyed && !response.writableEnded) {
      if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve));
      written += chunk.length;
      if (everyMs > 0) await wait(everyMs);
      else await new Promise((resolve) => setImmediate(resolve));
      if (response.socket?.destroyed) break;
    }
  });
  return { server, written: () => written };
}

describe('the time for the whole answer', () => {
  it('covers a body trickled within every silence limit', async () => {
    // Limits far above what a loaded machine takes to send the headers and each slice of the body,
    // which never ends: only the limit of the whole answer can end the wait.
    const { server } = await endlessServer(' ', 20);
    const failure = (await transport(server.url, { timeouts: { headersMs: 3000, bodyMs: 2000 } })
      .send(get)
      .catch((error: unknown) => error)) as TransportError;
    expect(failure).toBeInstanceOf(TransportError);
    expect(failure.kind).toBe('timeout');
    expect(failure.message).toBe(
      'listJobs: timed out (UND_ERR_BODY_TIMEOUT): the whole answer did not come within 3000 ms of sending the request (GET /jobs)',
    );
  });

  it('of a request that started something, says it was carried out and sends it no more', async () => {
    const { server } = await endlessServer(' ', 20);
    const failure = (await transport(server.url, { timeouts: { headersMs: 200 }, retry: { retries: 4 } })
      .send(post)
      .catch((error: unknown) => error)) as TransportError;
    expect(failure.mayHaveBeenProcessed).toBe(true);
    expect(failure.message).toMatch(
      /^runSuite: the service answered 200 but the answer was cut off \(timed out/,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('ends at the caller’s deadline and at its signal, body included', async () => {
    const { server } = await endlessServer(' ', 20);
    const started = performance.now();
    const late = (await transport(server.url)
      .send({ ...get, deadline: performance.now() + 250 })
      .catch((error: unknown) => error)) as TransportError;
    expect(late.kind).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(1500);
    const why = new Error('the step timed out');
    const aborted = (await transport(server.url)
      .send({ ...get, signal: AbortSignal.any([AbortSignal.timeout(250)]) })
      .catch((error: unknown) => error)) as TransportError;
    expect(aborted.kind).toBe('aborted');
    const controller = new AbortController();
    setTimeout(() => controller.abort(why), 200);
    const cancelled = (await transport(server.url)
      .send({ ...get, signal: controller.signal })
      .catch((error: unknown) => error)) as TransportError;
    expect(cancelled.cause).toBe(why);
  });

  it('leaves a stream to the caller’s pace', async () => {
    // Headers at once, well within the limit however loaded the machine; the whole stream, longer.
    const server = await startServer(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (let i = 0; i < 4; i++) {
        response.write('x');
        await wait(800);
      }
      response.end();
    });
    const answer = await transport(server.url, { timeouts: { headersMs: 2500 } }).send<NodeJS.ReadableStream>(
      {
        ...get,
        responseType: 'stream',
      },
    );
    let text = '';
    for await (const chunk of answer.body) text += String(chunk);
    expect(text).toBe('xxxx');
  });
});

describe('the size of an answer read whole', () => {
  it('stops a body without end at the limit and says what came', async () => {
    const { server, written } = await endlessServer('{"id":"0123456789abcdef"},'.repeat(1000), 0);
    const failure = (await transport(server.url, { maxAnswerBytes: 1024 * 1024, retry: { retries: 3 } })
      .send(get)
      .catch((error: unknown) => error)) as ApiError;
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure.unusable).toBe('too-large');
    // What came is the limit and what the last read brought past it: up to 64 KiB, as many as the
    // socket held when it was read, which a loaded machine lets grow.
    expect(failure.message).toMatch(
      /^listJobs: 200 the answer is larger than the 1\.0 MiB an answer may have: 1\.[01] MiB of application\/json came before it was given up \(GET \/jobs\)$/,
    );
    // Not asked again, and the connection was closed: the server stopped soon after the limit.
    expect(server.requests).toHaveLength(1);
    await wait(100);
    expect(written()).toBeLessThan(8 * 1024 * 1024);
  });

  it('reads no more than the start of an error’s body', async () => {
    const { server } = await endlessServer('"filler",', 0, 500);
    const failure = (await transport(server.url, { retry: { retries: 0 } })
      .send(get)
      .catch((error: unknown) => error)) as ApiError;
    expect(failure.status).toBe(500);
    expect(failure.message).toBe('listJobs: 500 Internal Server Error (GET /jobs)');
  });

  it('takes the limit per request', async () => {
    const server = await startServer((_request, response) => json(response, 200, { text: 'x'.repeat(5000) }));
    const http = transport(server.url);
    expect((await http.send<{ text: string }>(get)).body.text).toHaveLength(5000);
    const failure = (await http
      .send({ ...get, maxAnswerBytes: 1000 })
      .catch((error: unknown) => error)) as ApiError;
    expect(failure.unusable).toBe('too-large');
  });
});

describe('a garbled answer', () => {
  it.each([
    [
      'cut short but complete as HTTP',
      (response: ServerResponse) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('[{"id":"a"},{"id":');
      },
    ],
    [
      'cut off mid-body',
      (response: ServerResponse) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        response.write('[{"id":"a"},{"id":');
        setTimeout(() => response.destroy(), 20);
      },
    ],
  ])('is asked for again when %s, on a request safe to repeat', async (_how, garble) => {
    const server = await startServer((_request, response) => {
      if (server.requests.length === 1) garble(response);
      else json(response, 200, [{ id: 'a' }, { id: 'b' }]);
    });
    const answer = await transport(server.url, {
      retry: { retries: 2, minDelayMs: 1, random: () => 0 },
    }).send(get);
    expect(answer.body).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('is not asked for again on a request that starts something, and says it may have been done', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"runs":[{"id":');
    });
    const failure = (await transport(server.url, { retry: { retries: 4 } })
      .send(post)
      .catch((error: unknown) => error)) as ApiError;
    expect(failure.unusable).toBe('not-json');
    expect(failure.mayHaveBeenProcessed).toBe(true);
    expect(failure.message).toBe(
      'runSuite: 200 answer is not JSON (cut short or garbled: 15 bytes of application/json): {"runs":[{"id":; the service may have carried it out, so it was not sent again (POST /run)',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('says so when an HTML page comes instead (a captive portal), after asking again', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        '<!DOCTYPE html><html><head><title>Hotel Wi-Fi: sign in</title></head><body>…</body></html>',
      );
    });
    const failure = (await transport(server.url, { retry: { retries: 1, minDelayMs: 1, random: () => 0 } })
      .send(get)
      .catch((error: unknown) => error)) as ApiError;
    expect(failure.unusable).toBe('html');
    expect(failure.attempts).toBe(2);
    expect(failure.message).toBe(
      'listJobs: 200 an HTML page came where JSON was expected (a captive portal, or the page of a proxy or gateway on the way?): "Hotel Wi-Fi: sign in" (GET /jobs, 2 attempts)',
    );
  });

  it('names where a redirect points, follows none and does not ask again', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(302, { location: 'https://user:pw@portal.example/login?next=%2Fjobs' });
      response.end('<html>moved</html>');
    });
    const failure = (await transport(server.url, { retry: { retries: 3 } })
      .send(get)
      .catch((error: unknown) => error)) as ApiError;
    expect(failure.unusable).toBe('redirect');
    expect(failure.location).toBe('https://portal.example/login?next=%2Fjobs');
    expect(failure.message).toBe(
      'listJobs: 302 redirected to https://portal.example/login?next=%2Fjobs (GET /jobs)',
    );
    expect(failure.isClientError).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('never prints binary bytes', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x1b, 0x5b, 0x33, 0x31, 0x6d, 0x00, 0x01, 0x02, 0xff]),
      );
    });
    const failure = (await transport(server.url)
      .send(get)
      .catch((error: unknown) => error)) as ApiError;
    expect(failure.message).toBe(
      'listJobs: 200 answer is not JSON (cut short or garbled: 13 bytes of application/json): (binary data) (GET /jobs)',
    );
  });
});

describe('a compressed answer', () => {
  const body = { jobs: [{ id: 'a', name: 'ünïcode' }] };
  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('is decoded from %s', async (encoding, compress) => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      response.end(compress(Buffer.from(JSON.stringify(body))));
    });
    expect((await transport(server.url).send(get)).body).toEqual(body);
  });

  it('is refused, by name, in an encoding the client cannot read', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'compress' });
      response.end(Buffer.from([0x1f, 0x9d, 0x90, 0x7b, 0x22]));
    });
    const failure = (await transport(server.url)
      .send(get)
      .catch((error: unknown) => error)) as ApiError;
    expect(failure.unusable).toBe('encoding');
    expect(failure.message).toBe(
      'listJobs: 200 the answer is encoded as "compress" (application/json), which the client cannot read (GET /jobs)',
    );
  });

  it('that does not decode counts as garbled, and is asked for again', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(server.requests.length === 1 ? Buffer.from('not gzip') : gzipSync('{"ok":true}'));
    });
    const answer = await transport(server.url, {
      retry: { retries: 1, minDelayMs: 1, random: () => 0 },
    }).send(get);
    expect(answer.body).toEqual({ ok: true });
    expect(server.requests).toHaveLength(2);
  });
});
