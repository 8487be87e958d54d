/**
 * A download from an address outside the service's interfaces (a Sauce Connect archive), for a
 * program without a download client of its own: through the proxy the environment names, like
 * every request of the client, with no credentials, and redirects followed only to https.
 */
import type { Dispatcher } from 'undici';
import { loadUndici } from '../transport/pools.ts';
import { proxyFor } from '../addresses/proxy.ts';
import { announcedLength, writeStreamToFile, type DownloadResult } from './files.ts';
import type { Headers } from '../values/request.ts';
import { headerValue } from '../timing/retry.ts';
import { USER_AGENT } from '../values/version.ts';

export interface DownloadFileOptions {
  signal?: AbortSignal;
  /** Most bytes the file may hold; past them the download stops and nothing is kept. */
  maxBytes?: number;
  /** Longest wait for a connection, and for the answer's headers. Default 30 s. */
  connectMs?: number;
  /** Longest silence while the body streams in. Default 60 s. */
  bodyMs?: number;
}

const MAX_REDIRECTS = 5;

/** GETs `url` into `dir/name`; fails, naming the address and any proxy, on anything but a 2xx. */
export async function downloadFile(
  url: string,
  dir: string,
  name: string,
  options: DownloadFileOptions = {},
): Promise<DownloadResult> {
  const { EnvProxyDispatcher, request } = await loadUndici();
  const connectMs = options.connectMs ?? 30_000;
  const dispatcher = new EnvProxyDispatcher({ connectMs, keepAliveMs: 1_000 });
  try {
    let address = new URL(url);
    for (let redirects = 0; ; redirects++) {
      const answer = await send(request, dispatcher, address, connectMs, options);
      const location = headerValue(answer.headers, 'location');
      if (answer.statusCode >= 300 && answer.statusCode < 400 && location !== undefined) {
        await answer.body.dump();
        const next = new URL(location, address);
        if (redirects >= MAX_REDIRECTS) throw new Error(`${url} redirected more than ${MAX_REDIRECTS} times`);
        // An https download sent on to plain http could be changed on the way: refused.
        if (address.protocol === 'https:' && next.protocol !== 'https:') {
          throw new Error(`${display(address)} redirected to ${display(next)}, which is not https: refused`);
        }
        address = next;
        continue;
      }
      if (answer.statusCode < 200 || answer.statusCode >= 300) {
        await answer.body.dump();
        throw new Error(`${display(address)} answered ${answer.statusCode}`);
      }
      const announcedBytes = announcedLength(answer.headers as Headers);
      return await writeStreamToFile(answer.body, dir, name, {
        ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
        ...(announcedBytes !== undefined ? { announcedBytes } : {}),
      });
    }
  } finally {
    await dispatcher.close();
  }
}

async function send(
  request: Awaited<ReturnType<typeof loadUndici>>['request'],
  dispatcher: Dispatcher,
  address: URL,
  connectMs: number,
  options: DownloadFileOptions,
): Promise<Dispatcher.ResponseData> {
  try {
    return await request(address.href, dispatcher, {
      method: 'GET',
      headers: { 'user-agent': USER_AGENT, accept: '*/*' },
      headersTimeout: connectMs,
      bodyTimeout: options.bodyMs ?? 60_000,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const proxy = proxyFor(address);
    const via = proxy ? ` through the proxy ${proxy.display} (from ${proxy.variable})` : '';
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(`could not reach ${display(address)}${via}: ${detail}`, { cause: error });
  }
}

/** An address as errors show it: no credentials, no query (a signed address's signature). */
function display(address: URL): string {
  return `${address.protocol}//${address.host}${address.pathname}`;
}
