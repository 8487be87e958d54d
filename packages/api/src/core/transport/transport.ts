/**
 * The HTTP transport every operation goes through: undici with one keep-alive pool per origin,
 * proxy support from the environment, timeouts on every phase, an AbortSignal on every call,
 * retries where repeating is safe, pacing by the service's rate headers, and errors that never
 * carry a credential. One attempt (`attempt.ts`) sends and reads; layers around it (`layers/`)
 * decide when to wait and whether to send again. Both load with undici on the first request, when
 * the layers are composed, once per transport.
 */
import type { Dispatcher } from 'undici';
import type { Attempt } from '../attempt/attempt.ts';
import { authHeaders, redact, secretsOf, type Credentials } from '../values/credentials.ts';
import { requestDeadline } from '../timing/deadline.ts';
import type { Call, Send } from '../layers/layer.ts';
import { accountKey } from '../timing/pacing.ts';
import { ConnectionPools, loadUndici, proxyRouteOf } from './pools.ts';
import { ProxyAddressError, type ProxyRoute } from '../addresses/proxy.ts';
import {
  DEFAULT_MAX_ANSWER_BYTES,
  DEFAULT_TIMEOUTS,
  silentLogger,
  type ApiResponse,
  type HttpMethod,
  type Logger,
  type QueryValue,
  type RequestSpec,
  type Timeouts,
} from '../values/request.ts';
import { retryPolicy, type RetryPolicy } from '../timing/retry.ts';
import { trimTrailingSlash } from '../addresses/regions.ts';
import { proxyAddressFailure } from '../attempt/transport-errors.ts';
import { USER_AGENT } from '../values/version.ts';

export {
  DEFAULT_MAX_ANSWER_BYTES,
  DEFAULT_TIMEOUTS,
  silentLogger,
  type ApiResponse,
  type Headers,
  type HttpMethod,
  type Logger,
  type QueryScalar,
  type QueryValue,
  type RequestBody,
  type RequestSpec,
  type ResponseType,
  type Timeouts,
} from '../values/request.ts';

interface TransportOptions {
  baseUrl: string;
  credentials?: Credentials;
  /** An undici dispatcher (Agent, ProxyAgent, MockAgent). Default: one per transport, honouring HTTP(S)_PROXY and NO_PROXY. */
  dispatcher?: Dispatcher;
  /** Pools shared with other transports of a client; they win over `dispatcher`. */
  pools?: ConnectionPools;
  retry?: Partial<RetryPolicy>;
  timeouts?: Partial<Timeouts>;
  /** The largest answer read whole (JSON, text), in bytes; default 8 MiB. */
  maxAnswerBytes?: number;
  logger?: Logger;
  userAgent?: string;
}

const IDEMPOTENT_METHODS = new Set<HttpMethod>(['GET', 'HEAD', 'PUT', 'DELETE']);

export class HttpTransport {
  readonly baseUrl: string;
  readonly credentials: Credentials | undefined;
  readonly retry: RetryPolicy;
  readonly timeouts: Timeouts;
  readonly maxAnswerBytes: number;
  readonly logger: Logger;
  readonly userAgent: string;
  readonly #pools: ConnectionPools;
  readonly #ownsPools: boolean;
  readonly #origin: string;
  #send: Send | undefined;

  constructor(options: TransportOptions) {
    this.baseUrl = trimTrailingSlash(stripUserInfo(options.baseUrl));
    this.#origin = new URL(this.baseUrl).origin;
    this.credentials = options.credentials;
    this.retry = retryPolicy(options.retry);
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    this.logger = options.logger ?? silentLogger;
    this.userAgent = options.userAgent ?? USER_AGENT;
    this.#ownsPools = options.pools === undefined;
    this.#pools =
      options.pools ??
      new ConnectionPools({
        dispatcher: options.dispatcher,
        connectMs: this.timeouts.connectMs,
        logger: this.logger,
      });
  }

  /** A transport for another base address sharing this one's dispatcher, policy and logger. */
  withBaseUrl(baseUrl: string, credentials: Credentials | undefined = this.credentials): HttpTransport {
    return new HttpTransport({
      baseUrl,
      ...(credentials ? { credentials } : {}),
      pools: this.#pools,
      retry: this.retry,
      timeouts: this.timeouts,
      maxAnswerBytes: this.maxAnswerBytes,
      logger: this.logger,
      userAgent: this.userAgent,
    });
  }

  get pools(): ConnectionPools {
    return this.#pools;
  }

  /** Closes the connection pools when this transport created them. */
  async close(): Promise<void> {
    if (this.#ownsPools) await this.#pools.close();
  }

  /** Sends a request and reads the answer as JSON (default), text, a stream or nothing. */
  async send<T = unknown>(spec: RequestSpec): Promise<ApiResponse<T>> {
    const [parts, dispatcher] = await Promise.all([loadUndici(), this.#pools.dispatcher()]);
    this.#send ??= parts.transportLayers({
      policy: this.retry,
      logger: this.logger,
      pacer: this.retry.pacing ? this.#pools.pacer : undefined,
      transmit: (attempt, onHeaders) => parts.sendOnce(parts.request, dispatcher, attempt, onHeaders),
    });
    const call = this.#callOf(spec, dispatcher);
    const clock = this.#pools.serviceClock;
    return parts.settle<T>(call, await this.#send(call, (_status, headers) => clock.observe(headers)));
  }

  /** The call of `spec`: the request as each attempt sends it, and what its attempts came to. */
  #callOf(spec: RequestSpec, dispatcher: Dispatcher): Call {
    const credentials = spec.credentials === null ? undefined : (spec.credentials ?? this.credentials);
    const secrets = secretsOf(credentials, this.credentials);
    const pathAndQuery = spec.path + queryString(spec.query);
    // What errors and logs show: a caller may have put a key in the query (legacy mobile calls do).
    const displayUrl = redact(pathAndQuery, secrets);
    const attempt: Attempt = {
      operation: spec.operation,
      method: spec.method,
      signal: spec.signal,
      url: this.baseUrl + pathAndQuery,
      displayUrl,
      headers: {
        'user-agent': this.userAgent,
        accept: spec.responseType === 'stream' ? '*/*' : 'application/json',
        ...spec.headers,
        ...authHeaders(credentials),
      },
      body: spec.body,
      responseType: spec.responseType ?? 'json',
      timeouts: { ...this.timeouts, ...spec.timeouts },
      deadline: spec.deadline,
      maxAnswerBytes: spec.maxAnswerBytes ?? this.maxAnswerBytes,
      idempotent: spec.idempotent ?? IDEMPOTENT_METHODS.has(spec.method),
      secrets,
      attempts: 0,
      proxy: this.#proxyRoute(dispatcher, spec, displayUrl),
    };
    return {
      spec,
      attempt,
      deadline: requestDeadline(spec),
      rateKey: this.retry.pacing ? accountKey(this.#origin, credentials) : '',
      spent: { retries: 0, rateLimitRetries: 0 },
      pacedAhead: false,
      lastRefusal: undefined,
    };
  }

  /** The proxy the default dispatcher sends this transport's requests through, if any. */
  #proxyRoute(dispatcher: Dispatcher, spec: RequestSpec, displayUrl: string): ProxyRoute | undefined {
    try {
      return proxyRouteOf(dispatcher, this.#origin);
    } catch (error) {
      if (error instanceof ProxyAddressError) throw proxyAddressFailure(spec, displayUrl, error);
      throw error;
    }
  }

  /** What logs and `util.inspect` show: the policy, never the credentials' secret. */
  toString(): string {
    return `HttpTransport(${this.baseUrl})`;
  }
}

/** Encodes a query: arrays repeat the key, `null` is sent as the text `null`, undefined is left out. */
export function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) params.append(key, item === null ? 'null' : String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Encodes one path segment. */
export function segment(value: string | number): string {
  const text = String(value);
  if (text === '') throw new TypeError('a path parameter is empty');
  // URL parsing resolves `.` and `..` (also as %2E) even when encoded, so they would leave the path.
  if (/^(\.|%2e){1,2}$/i.test(text)) throw new TypeError(`a path parameter cannot be "${text}"`);
  return encodeURIComponent(text);
}

function stripUserInfo(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    throw new TypeError(`base address is not a valid URL: ${url.replace(/\/\/[^@/]*@/, '//***@')}`);
  }
}
