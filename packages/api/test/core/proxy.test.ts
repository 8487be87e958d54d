/**
 * Proxies from the environment: which requests go through which proxy, and https through a real
 * CONNECT proxy with the transport's default dispatcher, as a runner behind a proxy sends them.
 * This file loads nothing of undici but what the client loads, so a method the client's undici
 * parts fail to install shows here.
 */
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { createProxy, type ProxyServer } from 'proxy';
import { generate } from 'selfsigned';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TransportError } from '../../src/index.ts';
import { bypassed, ProxyAddressError, proxyFor } from '../../src/core/addresses/proxy.ts';
import { HttpTransport } from '../../src/core/transport/transport.ts';

describe('which proxy a request goes through', () => {
  it.each([
    ['https://api.example', { HTTPS_PROXY: 'http://p:1' }, 'HTTPS_PROXY'],
    ['https://api.example', { https_proxy: 'http://p:1', HTTPS_PROXY: 'http://q:2' }, 'https_proxy'],
    ['https://api.example', { HTTP_PROXY: 'http://p:1' }, 'HTTP_PROXY'],
    ['https://api.example', { http_proxy: 'http://p:1', HTTPS_PROXY: '' }, 'http_proxy'],
    ['http://api.example', { HTTPS_PROXY: 'http://p:1' }, undefined],
    ['http://api.example', { HTTP_PROXY: 'http://p:1' }, 'HTTP_PROXY'],
    ['https://api.example', {}, undefined],
    ['https://api.example', { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'example' }, undefined],
    ['https://api.example', { HTTPS_PROXY: 'http://p:1', no_proxy: 'other.example, api.example' }, undefined],
    ['https://api.example', { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'x.example' }, 'HTTPS_PROXY'],
    ['https://api.example', { HTTPS_PROXY: 'http://p:1', NO_PROXY: '*' }, undefined],
  ] as const)('%s with %j: %s', (url, env, variable) => {
    expect(proxyFor(url, env)?.variable).toBe(variable);
  });

  it('shows the proxy without its credentials, and reads host:port as http', () => {
    expect(proxyFor('https://a.example', { HTTPS_PROXY: 'http://user:pw@proxy.example:3128/x' })).toEqual({
      uri: 'http://user:pw@proxy.example:3128/x',
      display: 'http://proxy.example:3128',
      variable: 'HTTPS_PROXY',
      hasCredentials: true,
    });
    expect(proxyFor('https://a.example', { HTTPS_PROXY: 'proxy.example:3128' })?.display).toBe(
      'http://proxy.example:3128',
    );
  });

  it('refuses a variable that is not an address', () => {
    expect(() => proxyFor('https://a.example', { HTTPS_PROXY: 'http://exa mple:x' })).toThrow(
      ProxyAddressError,
    );
    expect(() => proxyFor('https://a.example', { HTTPS_PROXY: 'ftp://proxy:21' })).toThrow(/HTTPS_PROXY/);
  });

  it.each([
    ['api.example.com', 443, 'example.com', true],
    ['example.com', 443, 'example.com', true],
    ['api.example.com', 443, '.example.com', true],
    ['example.com', 443, '*.example.com', false],
    ['api.example.com', 443, '*.example.com', true],
    ['badexample.com', 443, 'example.com', false],
    ['api.example.com', 443, 'example.com:8443', false],
    ['api.example.com', 8443, 'example.com:8443', true],
    ['127.0.0.1', 9000, '127.0.0.1', true],
    ['[::1]', 443, '::1', true],
    ['API.Example.com.', 443, 'example.com', true],
    ['api.example.com', 443, '', false],
  ] as const)('NO_PROXY: %s:%i with "%s" bypassed: %s', (host, port, noProxy, expected) => {
    expect(bypassed(host, port, noProxy)).toBe(expected);
  });
});

describe('https through a CONNECT proxy', () => {
  const PROXY_NAMES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy'];
  const saved = Object.fromEntries(PROXY_NAMES.map((name) => [name, process.env[name]]));
  let target: Server;
  let targetUrl: string;
  let proxy: ProxyServer;
  let proxyPort: number;
  let wantsCredentials = false;
  let connects: { target: string; authorization: string | undefined }[] = [];
  let answered = 0;
  const defaultCAs = tls.getCACertificates('default');
  const transports: HttpTransport[] = [];

  beforeAll(async () => {
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keySize: 2048,
      algorithm: 'sha256',
      extensions: [
        { name: 'basicConstraints', cA: true },
        { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
      ],
    });
    // What NODE_EXTRA_CA_CERTS does for a process that starts with it.
    tls.setDefaultCACertificates([...defaultCAs, pems.cert]);
    target = createHttpsServer({ key: pems.private, cert: pems.cert }, (_request, response) => {
      answered++;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"from":"target"}');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetUrl = `https://127.0.0.1:${(target.address() as AddressInfo).port}`;
    proxy = createProxy(createHttpServer());
    proxy.authenticate = (request: IncomingMessage) =>
      !wantsCredentials ||
      request.headers['proxy-authorization'] === `Basic ${Buffer.from('alice:s3cret').toString('base64')}`;
    proxy.on('connect', (request: IncomingMessage) => {
      connects.push({ target: request.url ?? '', authorization: request.headers['proxy-authorization'] });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyPort = (proxy.address() as AddressInfo).port;
  });

  afterEach(async () => {
    await Promise.all(transports.splice(0).map((http) => http.close()));
    for (const name of PROXY_NAMES) {
      if (saved[name] === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = saved[name];
    }
    connects = [];
    answered = 0;
    wantsCredentials = false;
  });

  afterAll(async () => {
    tls.setDefaultCACertificates(defaultCAs);
    await new Promise<void>((resolve) => target.close(() => resolve()));
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
  });

  function through(proxyUrl: string, extra: Record<string, string> = {}, retries = 0): HttpTransport {
    for (const name of PROXY_NAMES) Reflect.deleteProperty(process.env, name);
    Object.assign(process.env, { HTTPS_PROXY: proxyUrl }, extra);
    const http = new HttpTransport({
      baseUrl: targetUrl,
      retry: { retries, minDelayMs: 1, random: () => 0 },
    });
    transports.push(http);
    return http;
  }

  const probe = { operation: 'probe', method: 'POST', path: '/x' } as const;

  it.each([
    ['without credentials', false, ''],
    ['with credentials', true, 'alice:s3cret@'],
  ])('reaches the service %s, through one tunnel', async (_how, credentials, userInfo) => {
    wantsCredentials = credentials;
    const http = through(`http://${userInfo}127.0.0.1:${proxyPort}`);
    for (let i = 0; i < 3; i++) expect((await http.send(probe)).body).toEqual({ from: 'target' });
    expect(connects).toEqual([
      {
        target: new URL(targetUrl).host,
        authorization: credentials ? `Basic ${Buffer.from('alice:s3cret').toString('base64')}` : undefined,
      },
    ]);
    expect(answered).toBe(3);
  });

  it('goes around the proxy for a host in NO_PROXY', async () => {
    const http = through(`http://127.0.0.1:${proxyPort}`, { NO_PROXY: '127.0.0.1' });
    expect((await http.send(probe)).body).toEqual({ from: 'target' });
    expect(connects).toEqual([]);
  });

  it.each([
    ['none', '', 'its address carries no user name and password (http://user:password@host:port)'],
    ['wrong ones', 'alice:wrong@', 'it did not accept the user name and password in the address'],
  ])(
    'names the proxy and its variable when it wants credentials and gets %s, and asks once',
    async (_given, userInfo, why) => {
      wantsCredentials = true;
      const http = through(`http://${userInfo}127.0.0.1:${proxyPort}`, {}, 4);
      const failure = (await http.send(probe).catch((error: unknown) => error)) as TransportError;
      expect(failure).toBeInstanceOf(TransportError);
      expect(failure.message).toBe(
        `probe: the proxy http://127.0.0.1:${proxyPort} (from HTTPS_PROXY) refused the request: 407 Proxy Authentication Required; ${why}. Nothing reached the service (POST /x)`,
      );
      expect(failure.kind).toBe('connect');
      expect(failure.mayHaveBeenProcessed).toBe(false);
      expect(failure.proxy).toEqual({
        url: `http://127.0.0.1:${proxyPort}`,
        variable: 'HTTPS_PROXY',
        status: 407,
        hadCredentials: userInfo !== '',
      });
      expect(failure.message).not.toContain('wrong');
      expect(connects).toHaveLength(1);
      expect(answered).toBe(0);
    },
  );

  it('names a proxy that cannot be reached, and tries it again like any failure to connect', async () => {
    const closed = createHttpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const http = through(`http://127.0.0.1:${port}`, { https_proxy: `http://127.0.0.1:${port}` }, 2);
    const failure = (await http.send(probe).catch((error: unknown) => error)) as TransportError;
    expect(failure.message).toBe(
      `probe: the proxy http://127.0.0.1:${port} (from https_proxy) could not be reached (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port}). Nothing reached the service (POST /x)`,
    );
    expect(failure.proxy).toMatchObject({ variable: 'https_proxy' });
  });

  it('names a variable that is not an address, before sending anything', async () => {
    const http = through('http://exa mple:x', {}, 4);
    const failure = (await http.send(probe).catch((error: unknown) => error)) as TransportError;
    expect(failure.message).toBe(
      'probe: the proxy could not be used: HTTPS_PROXY is not a proxy address (expected http://[user:password@]host:port) (POST /x)',
    );
    expect(failure.proxy).toEqual({ variable: 'HTTPS_PROXY' });
  });
});
