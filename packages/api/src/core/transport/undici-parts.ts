/**
 * The parts of undici the client uses, and the default dispatcher made of them: one keep-alive
 * pool per origin, reached directly or through the proxy the environment names. undici's index
 * also loads fetch, WebSocket, caches and mocks, which costs as much again at the first request;
 * these modules are loaded alone. They are internal paths, so undici is pinned to one version and
 * the bundle tests load them as the bundles give them.
 *
 * The index does one thing besides gathering its exports: it gives every dispatcher the request
 * methods (`request`, `stream`, `pipeline`, `upgrade`, `connect`), which dispatchers call on each
 * other (a proxy agent opens its tunnel with `connect` on its pool to the proxy). That is done
 * here in the same way, with undici's own list of them, so that none can go missing.
 */
import type { Dispatcher as DispatcherType } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent.js';
import dispatcherMethods from 'undici/lib/api/index.js';
import { proxyFor, type ProxyRoute } from '../addresses/proxy.ts';

// One attempt of a request (sending it, reading its answer) and the layers around it (waits,
// retries) are needed only with undici, and load with it: a step that stops before its first
// request loads none of them.
export { sendOnce } from '../attempt/attempt.ts';
export { settle, transportLayers } from '../layers/stack.ts';

Object.assign(Dispatcher.prototype, dispatcherMethods);

/** `undici.request`, on the dispatcher given. */
export function request(
  url: string,
  dispatcher: DispatcherType,
  options: Omit<DispatcherType.RequestOptions, 'origin' | 'path'>,
): Promise<DispatcherType.ResponseData> {
  const { origin, pathname, search } = new URL(url);
  return dispatcherMethods.request.call(dispatcher, {
    ...options,
    origin,
    path: pathname + search,
  }) as Promise<DispatcherType.ResponseData>;
}

/**
 * Sends each request directly, or through the proxy `proxyFor` names for its origin (read at
 * each request, like undici's `EnvHttpProxyAgent`), with one agent per proxy. `proxyFor` is the
 * same decision the transport's errors name the proxy by.
 */
export class EnvProxyDispatcher extends Dispatcher {
  readonly #options: { connectMs: number; keepAliveMs: number };
  #direct: DispatcherType | undefined;
  readonly #proxies = new Map<string, DispatcherType>();

  constructor(options: { connectMs: number; keepAliveMs: number }) {
    super();
    this.#options = options;
  }

  /** The proxy a request to `origin` goes through; throws `ProxyAddressError` for a malformed variable. */
  proxyFor(origin: string): ProxyRoute | undefined {
    return proxyFor(origin);
  }

  override dispatch(
    options: DispatcherType.DispatchOptions,
    handler: DispatcherType.DispatchHandler,
  ): boolean {
    return this.#agentFor(proxyFor(String(options.origin))).dispatch(options, handler);
  }

  #agentFor(route: ProxyRoute | undefined): DispatcherType {
    const common = {
      connect: { timeout: this.#options.connectMs },
      keepAliveTimeout: this.#options.keepAliveMs,
    };
    if (!route) {
      this.#direct ??= new Agent(common);
      return this.#direct;
    }
    let agent = this.#proxies.get(route.uri);
    if (!agent) {
      agent = new ProxyAgent({ ...common, uri: route.uri, connectTimeout: this.#options.connectMs });
      this.#proxies.set(route.uri, agent);
    }
    return agent;
  }

  #all(): DispatcherType[] {
    return [...(this.#direct ? [this.#direct] : []), ...this.#proxies.values()];
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const closed = Promise.all(this.#all().map((agent) => agent.close())).then(() => undefined);
    if (!callback) return closed;
    void closed.then(callback, callback);
  }

  override destroy(error?: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(error: Error | null, callback: () => void): void;
  override destroy(first?: Error | null | (() => void), second?: () => void): Promise<void> | void {
    const error = typeof first === 'function' ? null : (first ?? null);
    const callback = typeof first === 'function' ? first : second;
    const destroyed = Promise.all(this.#all().map((agent) => agent.destroy(error))).then(() => undefined);
    if (!callback) return destroyed;
    void destroyed.then(callback, callback);
  }
}
