/**
 * Test support: a SauceClient wired to an undici MockAgent, recording every request it sends
 * so that tests can check method, path, query, headers and body exactly.
 */
import { MockAgent } from 'undici';
import { SauceClient, type SauceClientOptions } from '../../src/index.ts';

export const AUTOMATION_ORIGIN = 'https://api.us-west-1.saucelabs.com';
export const MOBILE_ORIGIN = 'https://mobile.saucelabs.com';

export interface RecordedRequest {
  method: string;
  /** Path with query, as sent. */
  path: string;
  pathname: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  /** The body as text; a streamed body (multipart, files) is not collected: test those against a local server. */
  body: string;
  /** The body parsed as JSON when it is JSON, or as a form when it is urlencoded. */
  json: unknown;
  form: URLSearchParams | undefined;
}

export interface MockReply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface MockSetup {
  client: SauceClient;
  agent: MockAgent;
  requests: RecordedRequest[];
  /** Answers the next request to `origin` matching method and path (query ignored) with `reply`. */
  reply(origin: string, method: string, pathname: string, reply?: MockReply): void;
}

export function mockClient(options: SauceClientOptions = {}): MockSetup {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const requests: RecordedRequest[] = [];
  const client = new SauceClient({
    username: 'alice',
    accessKey: 'secret-access-key',
    email: 'alice@example.com',
    apiKey: 'secret-api-key',
    dispatcher: agent,
    retry: { retries: 0 },
    ...options,
  });
  return {
    client,
    agent,
    requests,
    reply(origin, method, pathname, reply = {}) {
      agent
        .get(origin)
        .intercept({ path: (p: string) => p.split('?')[0] === pathname, method })
        .reply((opts) => {
          requests.push(record(opts));
          const body = reply.body;
          return {
            statusCode: reply.status ?? 200,
            data:
              body === undefined
                ? ''
                : typeof body === 'string' || Buffer.isBuffer(body)
                  ? body
                  : JSON.stringify(body),
            responseOptions: {
              headers: {
                ...(body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body)
                  ? { 'content-type': 'application/json' }
                  : {}),
                ...reply.headers,
              },
            },
          };
        });
    },
  };
}

function record(opts: { method: string; path: string; headers?: unknown; body?: unknown }): RecordedRequest {
  const url = new URL(opts.path, 'http://x');
  const headers = normaliseHeaders(opts.headers);
  const body = bodyText(opts.body);
  const type = headers['content-type'] ?? '';
  let json: unknown;
  if (type.includes('json') && body) json = JSON.parse(body);
  const form = type.includes('x-www-form-urlencoded') ? new URLSearchParams(body) : undefined;
  return {
    method: opts.method,
    path: opts.path,
    pathname: url.pathname,
    query: url.searchParams,
    headers,
    body,
    json,
    form,
  };
}

function normaliseHeaders(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (Array.isArray(headers)) {
    for (let i = 0; i < headers.length; i += 2)
      out[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
    return out;
  }
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body) || body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  return String(body);
}

/** The Basic header the mock client sends for automation and authoring. */
export const SAUCE_AUTH = `Basic ${Buffer.from('alice:secret-access-key').toString('base64')}`;
/** The Basic header the mock client sends for mobile distribution. */
export const MOBILE_AUTH = `Basic ${Buffer.from('alice@example.com:secret-api-key').toString('base64')}`;
