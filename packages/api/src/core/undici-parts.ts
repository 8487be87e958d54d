/**
 * The parts of undici the client uses: requests sent through an agent that honours the proxy
 * variables. undici's index also loads fetch, WebSocket, caches and mocks, which costs as much
 * again at the first request; these two modules are loaded alone. They are internal paths, so
 * undici is pinned to one version and the bundle tests load them as the bundles give them.
 */
import type { Dispatcher } from 'undici';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import dispatchRequest from 'undici/lib/api/api-request.js';

export { EnvHttpProxyAgent };

/** `undici.request`, on the dispatcher given. */
export function request(
  url: string,
  dispatcher: Dispatcher,
  options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>,
): Promise<Dispatcher.ResponseData> {
  const { origin, pathname, search } = new URL(url);
  return dispatchRequest.call(dispatcher, { ...options, origin, path: pathname + search });
}
