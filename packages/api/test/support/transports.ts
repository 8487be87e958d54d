/**
 * Test support: transports to the test servers, as alice and sending each request once unless a
 * test says otherwise. Every transport is closed by `closeTransports`.
 */
import { BasicCredentials } from '../../src/core/values/credentials.ts';
import { HttpTransport } from '../../src/core/transport/transport.ts';

export type TransportOptions = Partial<ConstructorParameters<typeof HttpTransport>[0]>;

const open: HttpTransport[] = [];

/** A transport to `baseUrl`; `options` win over the defaults, a `retry` given replaces theirs whole. */
export function transport(baseUrl: string, options: TransportOptions = {}): HttpTransport {
  const http = new HttpTransport({
    baseUrl,
    credentials: new BasicCredentials('alice', 'secret-access-key'),
    retry: { retries: 0 },
    ...options,
  });
  open.push(http);
  return http;
}

/** Closes every transport made by `transport` (call it in `afterEach`). */
export async function closeTransports(): Promise<void> {
  await Promise.all(open.splice(0).map((http) => http.close()));
}

export const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
