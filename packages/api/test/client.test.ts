import { afterEach, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { BasicCredentials, BearerCredentials } from '../src/core/values/credentials.ts';
import { SauceClient, type SauceClientOptions } from '../src/index.ts';
import { json, startServer, stopAll } from './support/server.ts';

const clients: SauceClient[] = [];

function client(options: SauceClientOptions = {}): SauceClient {
  const created = new SauceClient({
    username: 'alice',
    accessKey: 'key',
    email: 'a@example.com',
    apiKey: 'api-key-1',
    ...options,
  });
  clients.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((created) => created.close()));
  await stopAll();
});

const bases = (c: SauceClient) => ({
  automation: c.automation.http.baseUrl,
  authoring: c.authoring.http.baseUrl,
  mobile: c.mobile.http.baseUrl,
  upload: c.mobile.uploadHttp.baseUrl,
});

describe('SauceClient', () => {
  it('uses the default regions', () => {
    expect(bases(client())).toEqual({
      automation: 'https://api.us-west-1.saucelabs.com',
      authoring: 'https://api.us-west-1.saucelabs.com',
      mobile: 'https://mobile.saucelabs.com',
      upload: 'https://mobile.saucelabs.com',
    });
    expect(client().authoring.prefix).toBe('/v1/ai-authoring');
  });

  it('chooses base addresses per region', () => {
    expect(bases(client({ region: 'eu-central-1', mobileRegion: 'legacy' }))).toEqual({
      automation: 'https://api.eu-central-1.saucelabs.com',
      authoring: 'https://api.eu-central-1.saucelabs.com',
      mobile: 'https://api.testfairy.com',
      upload: 'https://app.testfairy.com',
    });
    expect(bases(client({ region: 'asia-south-2', mobileRegion: 'eu-central-1' }))).toEqual({
      automation: 'https://api.asia-south-2.saucelabs.com',
      authoring: 'https://api.asia-south-2.saucelabs.com',
      mobile: 'https://mobile.eu-central-1.saucelabs.com',
      upload: 'https://mobile.eu-central-1.saucelabs.com',
    });
  });

  it('sends every interface to apiUrl, and links jobs there', () => {
    const c = client({ region: 'eu-central-1', apiUrl: 'http://127.0.0.1:4545/' });
    expect(Object.values(bases(c))).toEqual(Array(4).fill('http://127.0.0.1:4545'));
    expect(c.jobUrl('j1')).toBe('http://127.0.0.1:4545/tests/j1');
  });

  it('lets each interface override apiUrl and the region', () => {
    const c = client({
      apiUrl: 'http://127.0.0.1:1',
      automationUrl: 'http://127.0.0.1:2',
      authoringUrl: 'http://127.0.0.1:3',
      mobileUrl: 'http://127.0.0.1:4',
      uploadUrl: 'http://127.0.0.1:5',
      authoringPrefix: '/ai-authoring/v1',
      dashboardUrl: 'https://dash.example.com',
    });
    expect(bases(c)).toEqual({
      automation: 'http://127.0.0.1:2',
      authoring: 'http://127.0.0.1:3',
      mobile: 'http://127.0.0.1:4',
      upload: 'http://127.0.0.1:5',
    });
    expect(c.authoring.prefix).toBe('/ai-authoring/v1');
    expect(c.jobUrl('x')).toBe('https://dash.example.com/tests/x');
  });

  it('links jobs to the dashboard of its region', () => {
    expect(client().jobUrl('j')).toBe('https://app.saucelabs.com/tests/j');
    expect(client({ region: 'us-east-4' }).jobUrl('j')).toBe('https://app.us-east-4.saucelabs.com/tests/j');
    expect(client({ region: 'eu-central-1' }).jobUrl('j')).toBe(
      'https://app.eu-central-1.saucelabs.com/tests/j',
    );
  });

  it('gives each interface its credentials', () => {
    const basic = client();
    expect(basic.automation.http.credentials).toBeInstanceOf(BasicCredentials);
    expect(basic.automation.http.credentials?.authorizationHeader()).toBe(
      `Basic ${Buffer.from('alice:key').toString('base64')}`,
    );
    expect(basic.authoring.http.credentials).toBe(basic.automation.http.credentials);
    expect(basic.mobile.http.credentials?.authorizationHeader()).toBe(
      `Basic ${Buffer.from('a@example.com:api-key-1').toString('base64')}`,
    );
    expect(basic.automation.username).toBe('alice');

    // The token wins over the API key.
    const bearer = client({ oidcToken: 'tok', oidcConfigKey: 'cfg' });
    expect(bearer.mobile.http.credentials).toBeInstanceOf(BearerCredentials);
    expect(bearer.mobile.uploadHttp.credentials?.authorizationHeader()).toBe('Bearer tok');

    const none = new SauceClient({});
    clients.push(none);
    expect(none.automation.http.credentials).toBeUndefined();
    expect(none.mobile.http.credentials).toBeUndefined();
  });

  it('rejects an unknown region and a token without its configuration key', () => {
    expect(() => new SauceClient({ region: 'mars-1' as never })).toThrow(/unknown region "mars-1"/);
    expect(() => new SauceClient({ mobileRegion: 'us-west-1' as never })).toThrow(
      /mobile distribution region/,
    );
    expect(() => new SauceClient({ oidcToken: 'tok' })).toThrow(/oidcConfigKey/);
  });

  it('shares one connection pool across the interfaces and closes it', async () => {
    const server = await startServer((_request, response) => json(response, 200, { ok: true }));
    const c = new SauceClient({
      apiUrl: server.url,
      username: 'alice',
      accessKey: 'key',
      apiKey: 'api-key-1',
      // A request on the closed pool fails at once, without the retries' 5 s of waits.
      retry: { retries: 0 },
    });
    await c.automation.http.send({ operation: 'a', method: 'GET', path: '/rest/v1/a' });
    await c.authoring.http.send({ operation: 'b', method: 'GET', path: '/v1/ai-authoring/b' });
    await c.mobile.http.send({ operation: 'c', method: 'GET', path: '/api/1/c' });
    expect(server.requests).toHaveLength(3);
    expect(server.connections).toBe(1);
    expect(c.automation.http.pools).toBe(c.mobile.uploadHttp.pools);
    await c.close();
    await expect(c.automation.http.send({ operation: 'd', method: 'GET', path: '/x' })).rejects.toThrow(
      /The client is destroyed/,
    );
    expect(server.requests).toHaveLength(3);
  });

  it('leaves a dispatcher it was given open', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('https://api.us-west-1.saucelabs.com')
      .intercept({ path: '/x', method: 'GET' })
      .reply(200, { ok: 1 });
    const c = new SauceClient({ dispatcher: agent, retry: { retries: 0 } });
    await c.close();
    const answer = await c.automation.http.send({ operation: 'x', method: 'GET', path: '/x' });
    expect(answer.body).toEqual({ ok: 1 });
    await agent.close();
  });

  it('passes the policy, timeouts, logger and User-Agent to every transport', async () => {
    const lines: string[] = [];
    const server = await startServer((_request, response) => json(response, 200, {}));
    const c = client({
      apiUrl: server.url,
      retry: { retries: 7 },
      timeouts: { headersMs: 1234 },
      userAgent: 'custom/1',
      logger: { debug: (line) => lines.push(line), warn: (line) => lines.push(line) },
    });
    for (const http of [c.automation.http, c.authoring.http, c.mobile.http, c.mobile.uploadHttp]) {
      expect(http.retry.retries).toBe(7);
      expect(http.timeouts.headersMs).toBe(1234);
      expect(http.userAgent).toBe('custom/1');
    }
    await c.mobile.uploadHttp.send({ operation: 'u', method: 'GET', path: '/api/upload/' });
    expect(server.requests[0]?.headers['user-agent']).toBe('custom/1');
    expect(lines).toEqual([expect.stringMatching(/^GET \/api\/upload\/ -> 200 in \d+ ms$/)]);
  });
});
