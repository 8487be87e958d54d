/** A small JSON client of the authoring interface for tests, over the global fetch. */
import { basic } from '../support/emulator.ts';

export const PREFIX = '/v1/ai-authoring';

export interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text, sent as is with `Content-Type: application/json`. */
  rawBody?: string;
  auth?: string | null;
  query?: Record<string, string | number | (string | number)[] | undefined>;
}

export function authoringClient(baseUrl: () => string) {
  return async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const url = new URL(PREFIX + path, baseUrl());
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(item));
    }
    const headers: Record<string, string> = {};
    const auth = options.auth === undefined ? basic() : options.auth;
    if (auth !== null) headers.authorization = auth;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    return {
      status: response.status,
      headers: response.headers,
      body: type.includes('json') && text ? JSON.parse(text) : text,
    };
  };
}
