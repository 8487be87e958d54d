import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { TransportError } from '../../src/index.ts';
import { ApiError, jobDashboardUrl, SauceClient } from '../../src/index.ts';
import {
  BasicCredentials,
  BearerCredentials,
  redact,
  redactDeep,
  secretsOf,
} from '../../src/core/values/credentials.ts';
import { HttpTransport } from '../../src/core/transport/transport.ts';
import { closedPort, json, startServer, stopAll } from '../support/server.ts';
import { closeTransports, transport as openTransport, type TransportOptions } from '../support/transports.ts';

const ACCESS_KEY = 'ak-0123456789abcdef';
const API_KEY = 'apikey-fedcba9876543210';
const TOKEN = 'oidc-token-abcdefghijkl';
const SECRETS = [ACCESS_KEY, API_KEY, TOKEN];
const BASIC = Buffer.from(`alice:${ACCESS_KEY}`).toString('base64');

/** Every way an object may be shown to a user or written to a log. */
function renderings(value: unknown): string[] {
  const out = [String(value), inspect(value, { depth: 10, showHidden: true }), JSON.stringify(value) ?? ''];
  if (value instanceof Error) out.push(value.message, value.stack ?? '');
  return out;
}

function expectNoSecret(value: unknown): void {
  for (const text of renderings(value)) {
    for (const secret of [...SECRETS, BASIC]) expect(text).not.toContain(secret);
  }
}

const clients: SauceClient[] = [];

/** A transport as alice with the access key the tests look for. */
const transport = (baseUrl: string, options: TransportOptions = {}) =>
  openTransport(baseUrl, { credentials: new BasicCredentials('alice', ACCESS_KEY), ...options });

afterEach(async () => {
  await closeTransports();
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await stopAll();
});

describe('redaction', () => {
  it('keeps secrets out of credentials however they are shown', () => {
    const basic = new BasicCredentials('alice', ACCESS_KEY);
    const bearer = new BearerCredentials(TOKEN, 'config-key');
    expectNoSecret(basic);
    expectNoSecret(bearer);
    expectNoSecret({ nested: { basic, bearer } });
    expect(String(basic)).toBe('BasicCredentials(alice:***)');
    expect(basic.authorizationHeader()).toBe(`Basic ${BASIC}`);
  });

  it('keeps secrets out of transports and clients', () => {
    const client = new SauceClient({
      username: 'alice',
      accessKey: ACCESS_KEY,
      email: 'alice@example.com',
      apiKey: API_KEY,
      apiUrl: `http://alice:${ACCESS_KEY}@127.0.0.1:1`,
    });
    clients.push(client);
    const bearerClient = new SauceClient({ oidcToken: TOKEN, oidcConfigKey: 'cfg' });
    clients.push(bearerClient);
    expectNoSecret(client);
    expectNoSecret(bearerClient);
    expectNoSecret(client.automation.http);
    expectNoSecret(bearerClient.mobile.http);
    expect(client.automation.http.baseUrl).toBe('http://127.0.0.1:1');
    expect(client.jobUrl('j1')).toBe('http://127.0.0.1:1/tests/j1');
  });

  it('redacts an error body and message that echo the key, in plain, URL and Basic forms', async () => {
    const server = await startServer((request, response) =>
      json(response, 401, {
        message: `bad key ${ACCESS_KEY}`,
        sent: request.headers.authorization,
        query: request.url,
        list: [ACCESS_KEY, { deep: `x${ACCESS_KEY}y` }],
      }),
    );
    const failure = await transport(server.url)
      .send({ operation: 'probe', method: 'GET', path: '/x', query: { key: ACCESS_KEY } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    const error = failure as ApiError;
    expect(error.message).toBe('probe: 401 bad key *** (GET /x?key=***)');
    expect(error.body).toEqual({
      message: 'bad key ***',
      sent: 'Basic ***',
      query: '/x?key=***',
      list: ['***', { deep: 'x***y' }],
    });
    expectNoSecret(error);
  });

  it('redacts a text error body and a failure inside a successful answer', async () => {
    const server = await startServer((request, response) => {
      if (request.url === '/text') {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(`key ${API_KEY} rejected`);
      } else json(response, 200, { status: 'fail', code: 5, message: `invalid ${API_KEY}`, echo: API_KEY });
    });
    const http = transport(server.url, { credentials: new BasicCredentials('alice@example.com', API_KEY) });
    const text = await http
      .send({ operation: 'a', method: 'GET', path: '/text' })
      .catch((error: unknown) => error);
    expect((text as ApiError).message).toBe('a: 500 key *** rejected (GET /text)');
    expectNoSecret(text);
    const fail = await http
      .send({
        operation: 'upload',
        method: 'POST',
        path: '/upload',
        failureOf: (body) => {
          const record = body as { status: string; code: number; message: string };
          return record.status === 'fail' ? record : undefined;
        },
      })
      .catch((error: unknown) => error);
    expect((fail as ApiError).message).toBe('upload: failed code 5 invalid *** (POST /upload)');
    expectNoSecret(fail);
  });

  it('keeps secrets out of network, timeout and abort errors, and out of logs', async () => {
    const lines: string[] = [];
    const logger = { debug: (line: string) => lines.push(line), warn: (line: string) => lines.push(line) };
    const port = await closedPort();
    const refused = await transport(`http://alice:${ACCESS_KEY}@127.0.0.1:${port}`, {
      logger,
      retry: { retries: 1, minDelayMs: 1 },
    })
      .send({ operation: 'a', method: 'GET', path: '/x', query: { token: ACCESS_KEY } })
      .catch((error: unknown) => error);
    expect((refused as TransportError).kind).toBe('connect');
    expectNoSecret(refused);

    const slow = await startServer((_request, response) => {
      setTimeout(() => json(response, 200, {}), 200);
    });
    const timedOut = await transport(slow.url, { logger, timeouts: { headersMs: 20 } })
      .send({ operation: 'b', method: 'GET', path: `/x/${ACCESS_KEY}` })
      .catch((error: unknown) => error);
    expect((timedOut as TransportError).kind).toBe('timeout');
    expect((timedOut as TransportError).url).toBe('/x/***');
    expectNoSecret(timedOut);

    const aborted = await transport(slow.url, { logger })
      .send({ operation: 'c', method: 'GET', path: '/x', signal: AbortSignal.timeout(20) })
      .catch((error: unknown) => error);
    expect((aborted as TransportError).kind).toBe('aborted');
    expectNoSecret(aborted);

    const ok = await startServer((_request, response) => json(response, 200, {}));
    await transport(ok.url, { logger }).send({
      operation: 'd',
      method: 'GET',
      path: '/x',
      query: { k: ACCESS_KEY },
    });
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) for (const secret of SECRETS) expect(line).not.toContain(secret);
  });

  it('keeps a key given in a base address out of errors and links', () => {
    expect(() => new HttpTransport({ baseUrl: `not a url ${ACCESS_KEY}@` })).toThrow(TypeError);
    try {
      new HttpTransport({ baseUrl: `http//alice:${ACCESS_KEY}@host` });
    } catch (error) {
      expectNoSecret(error);
    }
    expect(jobDashboardUrl('j', { baseUrl: `https://alice:${ACCESS_KEY}@gw.example.com/` })).toBe(
      'https://gw.example.com/tests/j',
    );
  });

  it('lists every form of a secret, longest first, and redacts deep values', () => {
    const secrets = secretsOf(new BasicCredentials('alice', 'a b+c'), undefined);
    expect(secrets).toEqual([Buffer.from('alice:a b+c').toString('base64'), 'a%20b%2Bc', 'a b+c']);
    expect(redact('x a b+c y a%20b%2Bc', secrets)).toBe('x *** y ***');
    expect(redactDeep({ [`k-${'a b+c'}`]: ['a b+c', 1, null] }, secrets)).toEqual({
      'k-***': ['***', 1, null],
    });
  });
});
