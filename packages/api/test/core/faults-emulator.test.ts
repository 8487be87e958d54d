/**
 * Faults on real HTTP: the emulator's injected 429s, server errors and cut connections on the
 * requests that start or create something, and a service that answers 429 before it has read a
 * streamed upload.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, SauceClient, TransportError } from '../../src/index.ts';
import { multipartBody } from '../../src/core/files/multipart.ts';
import { HttpTransport } from '../../src/core/transport/transport.ts';

describe('against the emulator', () => {
  let emulator: RunningEmulator;
  let client: SauceClient;
  let dir: string;
  const warnings: string[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, jobDurationMs: 10 });
    dir = await mkdtemp(path.join(tmpdir(), 'faults-'));
  });
  afterAll(async () => {
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await client.close();
    await admin('DELETE', '/_emulator/faults');
    await admin('DELETE', '/_emulator/requests');
    warnings.length = 0;
  });

  function connect(): SauceClient {
    client = new SauceClient({
      username: 'demo',
      accessKey: 'demo-access-key',
      email: 'demo@example.com',
      apiKey: 'demo-api-key',
      apiUrl: emulator.url,
      logger: { debug: () => {}, warn: (message) => warnings.push(message) },
    });
    return client;
  }

  async function admin(method: string, pathname: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${emulator.url}${pathname}`, {
      method,
      ...(body !== undefined
        ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
        : {}),
    });
    expect(response.ok).toBe(true);
    return response.json();
  }

  /** Method and status of each request the emulator received on a path matching `pattern`. */
  async function journal(pattern: RegExp): Promise<string[]> {
    const { requests } = (await admin('GET', '/_emulator/requests')) as {
      requests: { method: string; path: string; status: number }[];
    };
    return requests
      .filter((entry) => pattern.test(entry.path))
      .map((entry) => `${entry.method} ${entry.status}`);
  }

  async function smokeSuiteId(sauce: SauceClient): Promise<string> {
    const page = await sauce.authoring.testSuites.list({ search: 'Smoke' });
    const suite = page.items.find((item) => item.name === 'Smoke');
    expect(suite).toBeDefined();
    return suite!.id;
  }

  const RUN = /\/testsuites\/[^/]+\/run$/;

  it('starts a suite once after a 429 with Retry-After on its POST', async () => {
    const sauce = connect();
    const id = await smokeSuiteId(sauce);
    await admin('POST', '/_emulator/faults', {
      method: 'POST',
      path: '/\\/testsuites\\/[^/]+\\/run$/',
      status: 429,
      retryAfter: 1,
    });
    const started = performance.now();
    const run = await sauce.authoring.testSuites.run(id, { buildName: 'after-429' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(run.runCount).toBe(3);
    expect(await journal(RUN)).toEqual(['POST 429', 'POST 200']);
    expect(warnings).toEqual([
      'runSuite: 429 Too Many Requests; retrying in 1.0s, as the service asked (retry 1 of 10 for the rate limit)',
    ]);
  });

  it('uploads a build whole after a 429 answered before the file was read', async () => {
    const sauce = connect();
    const apk = path.join(dir, 'retry.apk');
    await createSampleApk(apk, {
      packageId: 'com.example.retry',
      name: 'Retry',
      version: '1.4.0',
      versionCode: 14,
      padding: 3 * 1024 * 1024,
    });
    await admin('POST', '/_emulator/faults', {
      method: 'POST',
      path: '/api/upload/',
      status: 429,
      retryAfter: 1,
    });
    const result = await sauce.mobile.uploads.build(apk, { appName: 'Retry' });
    expect(result).toMatchObject({ status: 'ok', app_version: '1.4.0' });
    expect(await journal(/^\/api\/upload\/$/)).toEqual(['POST 429', 'POST 200']);
  });

  it('does not send a suite run again when its connection is cut, and says why', async () => {
    const sauce = connect();
    const id = await smokeSuiteId(sauce);
    await admin('POST', '/_emulator/faults', {
      method: 'POST',
      path: '/\\/testsuites\\/[^/]+\\/run$/',
      drop: true,
    });
    const failure = await sauce.authoring.testSuites.run(id).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect(failure).toMatchObject({ kind: 'network', mayHaveBeenProcessed: true });
    expect((failure as TransportError).message).toContain(
      'the service may have carried it out, so it was not sent again',
    );
    expect(await journal(RUN)).toEqual(['POST 0']);
  });

  it('does not send a suite run again after a 503', async () => {
    const sauce = connect();
    const id = await smokeSuiteId(sauce);
    await admin('POST', '/_emulator/faults', {
      method: 'POST',
      path: '/\\/testsuites\\/[^/]+\\/run$/',
      status: 503,
    });
    const failure = await sauce.authoring.testSuites.run(id).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 503, mayHaveBeenProcessed: true });
    expect(await journal(RUN)).toEqual(['POST 503']);
  });

  it('reads a suite again after a 503 on its GET', async () => {
    const sauce = connect();
    const id = await smokeSuiteId(sauce);
    await admin('POST', '/_emulator/faults', {
      method: 'GET',
      path: `/v1/ai-authoring/testsuites/${id}`,
      status: 503,
    });
    const suite = await sauce.authoring.testSuites.get(id);
    expect(suite.name).toBe('Smoke');
    expect(await journal(new RegExp(`/testsuites/${id}$`))).toEqual(['GET 503', 'GET 200']);
  });
});

describe('a service that answers 429 before reading the body', () => {
  let server: Server | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server?.closeAllConnections();
    if (dir) await rm(dir, { recursive: true, force: true });
    server = undefined;
    dir = undefined;
  });

  it('sends the multipart body whole on the next attempt', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'faults-'));
    const file = path.join(dir, 'app.bin');
    // More than the two 1 MiB buffers the body is read through, with every byte value.
    const bytes = Buffer.alloc(5 * 1024 * 1024 + 123);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) % 256;
    await writeFile(file, bytes);
    const bodies: Buffer[] = [];
    let requests = 0;
    server = createServer((request, response) => {
      if (++requests === 1) {
        // A gateway refusing at once: the body is not read.
        response.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' });
        response.end('{"message":"slow down"}');
        return;
      }
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        bodies.push(Buffer.concat(chunks));
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"status":"ok"}');
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const body = await multipartBody([['app_name', 'App']], [{ field: 'file', path: file }]);
    const http = new HttpTransport({ baseUrl: url, retry: { rateLimitRetries: 2, retries: 0 } });
    try {
      const answer = await http.send({
        operation: 'uploadBuild',
        method: 'POST',
        path: '/api/upload/',
        body,
      });
      expect(answer.body).toEqual({ status: 'ok' });
    } finally {
      await http.close();
    }
    expect(requests).toBe(2);
    expect(bodies).toHaveLength(1);
    const sent = bodies[0]!;
    expect(sent.length).toBe(body.length);
    const start = sent.indexOf('\r\n\r\n', sent.indexOf('filename="app.bin"')) + 4;
    expect(sent.subarray(start, start + bytes.length).equals(bytes)).toBe(true);
  });
});
