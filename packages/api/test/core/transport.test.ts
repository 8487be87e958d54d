/**
 * What the transport sends and how it reads what comes back: its headers and credentials, the
 * query and path as encoded, one pool of kept-alive connections, the proxy of the environment,
 * and answers read as asked or turned into errors. How long a request may take and how it ends
 * early: `timeouts-and-aborts.test.ts`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/index.ts';
import { BearerCredentials } from '../../src/core/values/credentials.ts';
import { createDispatcher } from '../../src/core/transport/pools.ts';
import { queryString, segment } from '../../src/core/transport/transport.ts';
import { PACKAGE_VERSION, USER_AGENT } from '../../src/core/values/version.ts';
import { json, startServer, stopAll } from '../support/server.ts';
import { closeTransports, transport } from '../support/transports.ts';

afterEach(async () => {
  await closeTransports();
  await stopAll();
});

describe('request headers', () => {
  it('names the package and its version in the User-Agent', async () => {
    const server = await startServer((_request, response) => json(response, 200, {}));
    await transport(server.url).send({ operation: 'probe', method: 'GET', path: '/x' });
    const agent = server.requests[0]?.headers['user-agent'];
    expect(agent).toBe(USER_AGENT);
    expect(agent).toMatch(
      new RegExp(`^sauce-actions-api/${PACKAGE_VERSION.replace(/\./g, '\\.')} node/\\d+`),
    );
  });

  it('lets the client name itself', async () => {
    const server = await startServer((_request, response) => json(response, 200, {}));
    await transport(server.url, { userAgent: 'my-tool/2' }).send({
      operation: 'probe',
      method: 'GET',
      path: '/x',
    });
    expect(server.requests[0]?.headers['user-agent']).toBe('my-tool/2');
  });

  it('sends Basic username:key, or a bearer token with X-OIDC-Config-Key, or nothing', async () => {
    const server = await startServer((_request, response) => json(response, 200, {}));
    const http = transport(server.url);
    await http.send({ operation: 'a', method: 'GET', path: '/a' });
    await http.send({
      operation: 'b',
      method: 'GET',
      path: '/b',
      credentials: new BearerCredentials('token-123', 'config-1'),
    });
    await http.send({ operation: 'c', method: 'GET', path: '/c', credentials: null });
    const [basic, bearer, none] = server.requests;
    expect(basic?.headers.authorization).toBe(
      `Basic ${Buffer.from('alice:secret-access-key').toString('base64')}`,
    );
    expect(basic?.headers['x-oidc-config-key']).toBeUndefined();
    expect(bearer?.headers.authorization).toBe('Bearer token-123');
    expect(bearer?.headers['x-oidc-config-key']).toBe('config-1');
    expect(none?.headers.authorization).toBeUndefined();
  });

  it('ignores user:key@ in the base address and sends only the given credentials', async () => {
    const server = await startServer((_request, response) => json(response, 200, {}));
    const http = transport(server.url.replace('//', '//mallory:url-secret-key@') + '/');
    expect(http.baseUrl).toBe(server.url);
    await http.send({ operation: 'probe', method: 'GET', path: '/x' });
    expect(server.requests[0]?.url).toBe('/x');
    expect(server.requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from('alice:secret-access-key').toString('base64')}`,
    );
  });
});

describe('query and path encoding', () => {
  it('repeats array keys, writes null as text, leaves undefined out and escapes reserved characters', () => {
    expect(queryString({ a: 1, b: ['x', 'y'], c: undefined, d: null, e: true, f: 'a&b=c d/é', g: [] })).toBe(
      '?a=1&b=x&b=y&d=null&e=true&f=a%26b%3Dc+d%2F%C3%A9',
    );
    expect(queryString({})).toBe('');
    expect(queryString(undefined)).toBe('');
    expect(queryString({ only: undefined })).toBe('');
  });

  it('sends the query as encoded, and the server reads back the values', async () => {
    const server = await startServer((_request, response) => json(response, 200, {}));
    await transport(server.url).send({
      operation: 'probe',
      method: 'GET',
      path: `/jobs/${segment('a b/c')}`,
      query: { name: 'x&y', tag: ['1', '2'] },
    });
    const url = new URL(server.requests[0]!.url, 'http://x');
    expect(url.pathname).toBe('/jobs/a%20b%2Fc');
    expect(url.searchParams.get('name')).toBe('x&y');
    expect(url.searchParams.getAll('tag')).toEqual(['1', '2']);
  });

  it('encodes a path segment and refuses one that would leave the path', () => {
    expect(segment('a/b?c#d')).toBe('a%2Fb%3Fc%23d');
    expect(segment(42)).toBe('42');
    expect(segment('v1.2')).toBe('v1.2');
    for (const bad of ['', '.', '..', '%2e%2E', '.%2e']) expect(() => segment(bad)).toThrow(TypeError);
  });
});

describe('connections', () => {
  it('keeps one connection alive for sequential requests to one origin', async () => {
    const server = await startServer((_request, response) => json(response, 200, { ok: true }));
    const http = transport(server.url);
    for (let i = 0; i < 5; i++) await http.send({ operation: 'probe', method: 'GET', path: `/x${i}` });
    expect(server.requests).toHaveLength(5);
    expect(server.connections).toBe(1);
    expect(new Set(server.requests.map((request) => request.connection))).toEqual(new Set([1]));
  });

  it('shares the pool with a transport made for another base address', async () => {
    const server = await startServer((_request, response) => json(response, 200, {}));
    const http = transport(server.url);
    const other = http.withBaseUrl(`${server.url}/prefix`);
    await http.send({ operation: 'a', method: 'GET', path: '/a' });
    await other.send({ operation: 'b', method: 'GET', path: '/b' });
    expect(server.requests.map((request) => request.url)).toEqual(['/a', '/prefix/b']);
    expect(server.connections).toBe(1);
    expect(other.pools).toBe(http.pools);
  });
});

describe('proxy from the environment', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy']) {
      if (saved[name] === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = saved[name];
    }
  });

  function setProxyEnvironment(proxy: string, noProxy?: string) {
    for (const name of ['http_proxy', 'https_proxy', 'HTTPS_PROXY', 'no_proxy', 'NO_PROXY'])
      Reflect.deleteProperty(process.env, name);
    process.env.HTTP_PROXY = proxy;
    if (noProxy !== undefined) process.env.NO_PROXY = noProxy;
  }

  it('sends requests through HTTP_PROXY in absolute form', async () => {
    const target = await startServer((_request, response) => json(response, 200, { from: 'target' }));
    const proxy = await startServer((_request, response) => json(response, 200, { from: 'proxy' }));
    setProxyEnvironment(proxy.url);
    const dispatcher = await createDispatcher(10_000);
    const http = transport(target.url, { dispatcher });
    const answer = await http.send({ operation: 'probe', method: 'GET', path: '/x', query: { a: 1 } });
    expect(answer.body).toEqual({ from: 'proxy' });
    expect(proxy.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      `GET ${target.url}/x?a=1`,
    ]);
    expect(proxy.requests[0]?.headers.authorization).toMatch(/^Basic /);
    expect(target.requests).toHaveLength(0);
    await dispatcher.close();
  });

  it('bypasses the proxy for hosts in NO_PROXY', async () => {
    const target = await startServer((_request, response) => json(response, 200, { from: 'target' }));
    const proxy = await startServer((_request, response) => json(response, 200, { from: 'proxy' }));
    setProxyEnvironment(proxy.url, '127.0.0.1');
    const http = transport(target.url);
    const answer = await http.send({ operation: 'probe', method: 'GET', path: '/x' });
    expect(answer.body).toEqual({ from: 'target' });
    expect(proxy.requests).toHaveLength(0);
  });

  it('uses the proxy in the default dispatcher a transport creates', async () => {
    const target = await startServer((_request, response) => json(response, 200, { from: 'target' }));
    const proxy = await startServer((_request, response) => json(response, 200, { from: 'proxy' }));
    setProxyEnvironment(proxy.url);
    const answer = await transport(target.url).send({ operation: 'probe', method: 'GET', path: '/y' });
    expect(answer.body).toEqual({ from: 'proxy' });
    expect(proxy.requests[0]?.url).toBe(`${target.url}/y`);
  });
});

describe('answers', () => {
  it('reads text, a stream, or nothing as asked', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('plain words');
    });
    const http = transport(server.url);
    expect((await http.send({ operation: 't', method: 'GET', path: '/t', responseType: 'text' })).body).toBe(
      'plain words',
    );
    expect(
      (await http.send({ operation: 'n', method: 'GET', path: '/n', responseType: 'none' })).body,
    ).toBeUndefined();
    const stream = await http.send<NodeJS.ReadableStream>({
      operation: 's',
      method: 'GET',
      path: '/s',
      responseType: 'stream',
    });
    let text = '';
    for await (const chunk of stream.body) text += String(chunk);
    expect(text).toBe('plain words');
  });

  it('reports an HTML page where JSON was expected', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>gateway</html>');
    });
    const failure = await transport(server.url)
      .send({ operation: 'probe', method: 'GET', path: '/x' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).toBe(
      'probe: 200 an HTML page came where JSON was expected (a captive portal, or the page of a proxy or gateway on the way?): <html>gateway</html> (GET /x)',
    );
  });

  it('turns a failure in a successful body into an ApiError', async () => {
    const server = await startServer((_request, response) =>
      json(response, 200, { status: 'fail', code: 5, message: 'invalid API key' }),
    );
    const failure = await transport(server.url)
      .send({
        operation: 'upload',
        method: 'POST',
        path: '/api/upload/',
        failureOf: (body) => {
          const record = body as { status?: string; code?: number; message?: string };
          if (record.status !== 'fail') return undefined;
          return {
            ...(record.code !== undefined ? { code: record.code } : {}),
            ...(record.message !== undefined ? { message: record.message } : {}),
          };
        },
      })
      .catch((error: unknown) => error);
    expect((failure as ApiError).message).toBe('upload: failed code 5 invalid API key (POST /api/upload/)');
    expect((failure as ApiError).isClientError).toBe(true);
  });

  it('reads each interface error body into code and message', async () => {
    const server = await startServer((request, response) => {
      if (request.url === '/authoring')
        json(response, 404, { error: { code: 'not_found', detail: 'test suite not found' } });
      else json(response, 422, { code: 'invalid', message: 'bad platform' });
    });
    const http = transport(server.url);
    const authoring = (await http
      .send({ operation: 'runSuite', method: 'GET', path: '/authoring' })
      .catch((error: unknown) => error)) as ApiError;
    expect(authoring.message).toBe('runSuite: 404 test suite not found (GET /authoring)');
    expect(authoring.code).toBe('not_found');
    const automation = (await http
      .send({ operation: 'startJs', method: 'POST', path: '/automation' })
      .catch((error: unknown) => error)) as ApiError;
    expect(automation.status).toBe(422);
    expect(automation.serviceMessage).toBe('bad platform');
  });
});
