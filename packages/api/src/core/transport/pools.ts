/**
 * The connection pools the transports of one client share, made on the first request. undici is
 * the largest part of the client: loaded with the pools, a program that stops before its first
 * request (a step refusing its inputs) never pays for it.
 */
import type { Dispatcher } from 'undici';
import { RatePacer } from '../timing/pacing.ts';
import type { ProxyRoute } from '../addresses/proxy.ts';
import { silentLogger, type Logger } from '../values/request.ts';
import { ServiceClock } from '../timing/service-clock.ts';
import type * as UndiciPartsModule from './undici-parts.ts';

type UndiciParts = typeof UndiciPartsModule;

let undici: Promise<UndiciParts> | undefined;

/** The parts of undici the client uses, loaded once. */
export function loadUndici(): Promise<UndiciParts> {
  undici ??= import('./undici-parts.ts');
  return undici;
}

/** The default dispatcher: keep-alive pools per origin, proxies from HTTP(S)_PROXY and NO_PROXY. */
export async function createDispatcher(connectMs: number): Promise<Dispatcher> {
  const { EnvProxyDispatcher } = await loadUndici();
  return new EnvProxyDispatcher({ connectMs, keepAliveMs: 4_000 });
}

/**
 * The proxy a request to `origin` goes through on `dispatcher`, when the dispatcher is the default
 * one (a dispatcher of the caller's is not looked into). Throws `ProxyAddressError` when the
 * variable that applies is not an address.
 */
export function proxyRouteOf(dispatcher: Dispatcher, origin: string): ProxyRoute | undefined {
  const routing = dispatcher as Dispatcher & { proxyFor?: (origin: string) => ProxyRoute | undefined };
  return typeof routing.proxyFor === 'function' ? routing.proxyFor(origin) : undefined;
}

export class ConnectionPools {
  /**
   * The accounts' rate windows, as the answers through these pools told them: shared like the
   * pools, so that every transport of a client paces by the same account budget.
   */
  readonly pacer = new RatePacer();
  /** The service's clock, from the `Date` header of every answer through these pools. */
  readonly serviceClock: ServiceClock;
  readonly #given: Dispatcher | undefined;
  readonly #connectMs: number;
  #made: Promise<Dispatcher> | undefined;

  /** `dispatcher`: one of the caller's (a proxy, a mock), used as it is and closed by the caller. */
  constructor(options: {
    dispatcher?: Dispatcher | undefined;
    connectMs: number;
    logger?: Logger | undefined;
  }) {
    this.serviceClock = new ServiceClock(options.logger ?? silentLogger);
    this.#given = options.dispatcher;
    this.#connectMs = options.connectMs;
  }

  dispatcher(): Promise<Dispatcher> {
    if (this.#given) return Promise.resolve(this.#given);
    this.#made ??= createDispatcher(this.#connectMs);
    return this.#made;
  }

  /** Closes the pools made here; a given dispatcher is its owner's to close. */
  async close(): Promise<void> {
    if (this.#made) await (await this.#made).close();
  }
}
