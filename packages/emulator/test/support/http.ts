/** Small raw-HTTP helpers over the global fetch, for tests where the wire matters. */
import { basic } from './emulator.ts';

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export async function call(
  url: string,
  init: {
    method?: string;
    auth?: string | null;
    json?: unknown;
    headers?: Record<string, string>;
    body?: string | Uint8Array;
  } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...init.headers };
  // Default credentials are the seed's demo account; null sends none.
  if (init.auth !== null) headers['authorization'] = init.auth ?? basic();
  let body = init.body;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  }
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}
