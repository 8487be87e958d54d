/**
 * The HTTP transport every operation goes through: undici with one keep-alive pool per origin,
 * proxy support from the environment, timeouts on every phase, an AbortSignal on every call,
 * retries where repeating is safe, pacing by the service's rate headers, and errors that never
 * carry a credential. One attempt (`attempt.ts`, loaded with undici) sends and reads; this
 * module decides around it when to wait, and whether to send again.
 */
import type { Dispatcher } from 'undici';
import type { Attempt } from './attempt.ts';
import { authHeaders, redact, redactDeep, secretsOf, type Credentials } from './credentials.ts';
import { deadlineOf } from './deadline.ts';
import type { TransportError } from './errors.ts';
import { ApiError, reasonPhrase, serviceErrorOf } from './errors.ts';
import { accountKey } from './pacing.ts';
import { ConnectionPools, loadUndici, proxyRouteOf } from './pools.ts';
import { ProxyAddressError, type ProxyRoute } from './proxy.ts';
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
} from './request.ts';
import {
  backoffDelay,
  retryPlan,
  retryPolicy,
  serverDelayMs,
  sleep,
  type RetryPlan,
  type RetryPolicy,
} from './retry.ts';
import { trimTrailingSlash } from './regions.ts';
import { notSentError, proxyAddressFailure, transportError } from './transport-errors.ts';
import { USER_AGENT } from './version.ts';

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
} from './request.ts';

export interface TransportOptions {
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
      new ConnectionPools({ dispatcher: options.dispatcher, connectMs: this.timeouts.connectMs });
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
    const credentials = spec.credentials === null ? undefined : (spec.credentials ?? this.credentials);
    const secrets = secretsOf(credentials, this.credentials);
    const pathAndQuery = spec.path + queryString(spec.query);
    // What errors and logs show: a caller may have put a key in the query (legacy mobile calls do).
    const displayUrl = redact(pathAndQuery, secrets);
    const idempotent = spec.idempotent ?? IDEMPOTENT_METHODS.has(spec.method);
    // `sendUntil` may carry the step's deadline where `signal` outlives it by a grace period.
    const deadline = deadlineOf(spec.signal, deadlineOf(spec.sendUntil, spec.deadline));
    const policy = this.retry;
    const pacer = policy.pacing ? this.#pools.pacer : undefined;
    const rateKey = pacer ? accountKey(this.#origin, credentials) : '';
    // Two budgets: failures that may pass (where repeating is safe), and 429s (always safe).
    let retriesSpent = 0;
    let rateLimitRetriesSpent = 0;
    // The attempt after a 429 was paced with the wait for it: one wait, told once.
    let pacedAhead = false;
    // What the last attempt was answered, for an error when no further attempt is made.
    let lastRefusal: ApiError | TransportError | undefined;

    const [{ request, sendOnce }, dispatcher] = await Promise.all([loadUndici(), this.#pools.dispatcher()]);
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
      idempotent,
      secrets,
      attempts: 0,
      proxy: this.#proxyRoute(dispatcher, spec, displayUrl),
    };
    for (;;) {
      if (spec.signal?.aborted) throw transportError(spec, displayUrl, spec.signal.reason, secrets);
      if (spec.sendUntil?.aborted) throw notSentError(spec, displayUrl, lastRefusal);
      if (pacer && !pacedAhead) {
        // Never longer than the client would wait when asked by the service, nor past the deadline.
        const now = Date.now();
        const latestStart = Math.min(deadline ?? Infinity, now + policy.maxServerDelayMs);
        const paced = pacer.schedule(rateKey, { now, random: policy.random, latestStart });
        if (paced.delayMs > 0) {
          this.logger.debug(
            `${spec.operation}: paced ${formatMs(paced.delayMs)} (${paced.remaining} request(s) left in the rate window, which resets in ${formatMs(paced.resetInMs ?? 0)})`,
          );
          await this.#wait(paced.delayMs, spec, displayUrl, lastRefusal);
        }
      }
      pacedAhead = false;
      const started = performance.now();
      attempt.attempts++;
      const outcome = await sendOnce(request, dispatcher, attempt, (status, headers) => {
        pacer?.observe(rateKey, status, headers, { random: policy.random });
        this.logger.debug(
          `${spec.method} ${displayUrl} -> ${status} in ${Math.round(performance.now() - started)} ms`,
        );
      });

      if (outcome.kind === 'answer') {
        const failure = spec.failureOf?.(outcome.body);
        if (failure) {
          throw new ApiError({
            operation: spec.operation,
            method: spec.method,
            url: displayUrl,
            ...(failure.code !== undefined ? { code: failure.code } : {}),
            ...(failure.message ? { serviceMessage: redact(failure.message, secrets) } : {}),
            attempts: attempt.attempts,
            body: redactDeep(outcome.body, secrets),
          });
        }
        return { status: outcome.status, headers: outcome.headers, body: outcome.body as T };
      }

      if (outcome.kind === 'failed') {
        const { failure } = outcome;
        if (!outcome.repeatable) throw failure;
        const plan = retryPlan(
          policy,
          { askedMs: undefined, backoffMs: backoffDelay(policy, retriesSpent) },
          { spent: retriesSpent, allowed: policy.retries },
          deadline,
        );
        if (!('delayMs' in plan)) throw failure;
        retriesSpent++;
        lastRefusal = failure;
        const what =
          failure instanceof ApiError
            ? `${failure.status ?? ''} answer unreadable (${failure.unusable ?? 'not JSON'})`.trim()
            : (failure.code ?? failure.kind);
        this.logger.warn(
          `${spec.operation}: ${what}; retrying in ${formatMs(plan.delayMs)} (attempt ${retriesSpent + 1} of ${policy.retries + 1})`,
        );
        await this.#wait(plan.delayMs, spec, displayUrl, lastRefusal);
        continue;
      }

      const { status, headers, body: errorBody } = outcome;
      // A reset time is sent with every answer; it is a reason to wait only when the limit was hit.
      const waitMs = serverDelayMs(headers, Date.now(), { rateLimitReset: status === 429 });
      const { code, message } = serviceErrorOf(errorBody);
      const refusal = (plan: RetryPlan): ApiError =>
        new ApiError({
          operation: spec.operation,
          method: spec.method,
          url: displayUrl,
          status,
          ...(code !== undefined ? { code } : {}),
          ...(message ? { serviceMessage: redact(message, secrets) } : {}),
          ...(waitMs !== undefined ? { retryAfterMs: waitMs } : {}),
          attempts: attempt.attempts,
          ...('stop' in plan && plan.stop !== undefined ? { notRetriedBecause: plan.stop } : {}),
          ...('waitLimitMs' in plan && plan.waitLimitMs !== undefined
            ? { waitLimitMs: plan.waitLimitMs }
            : {}),
          // A server error may come after the work was done (a gateway that gave up waiting).
          ...(!idempotent && status >= 500 ? { mayHaveBeenProcessed: true } : {}),
          body: errorBody,
        });
      let plan: RetryPlan = { stop: undefined };
      if (status === 429) {
        // The service refused the request for its rate without carrying it out: whatever the
        // method, sending it again cannot make anything twice.
        plan = retryPlan(
          policy,
          { askedMs: waitMs, backoffMs: backoffDelay(policy, rateLimitRetriesSpent) },
          { spent: rateLimitRetriesSpent, allowed: policy.rateLimitRetries },
          deadline,
        );
        if ('delayMs' in plan) {
          rateLimitRetriesSpent++;
          lastRefusal = refusal(plan);
          // One wait: the service's, or the account's pacing when that ends later (it spreads the
          // clients waiting for the same reset), told as the time it really is.
          let delayMs = plan.delayMs;
          if (pacer) {
            const now = Date.now();
            const latestStart = Math.min(deadline ?? Infinity, now + policy.maxServerDelayMs);
            delayMs = Math.max(
              delayMs,
              pacer.schedule(rateKey, { now, random: policy.random, latestStart }).delayMs,
            );
            pacedAhead = true;
          }
          const why =
            waitMs === undefined
              ? ''
              : delayMs > plan.delayMs
                ? `, the ${formatMs(plan.delayMs)} the service asked and a share of the account's rate`
                : ', as the service asked';
          this.logger.warn(
            `${spec.operation}: 429 ${reasonPhrase(429)}; retrying in ${formatMs(delayMs)}${why} (retry ${rateLimitRetriesSpent} of ${policy.rateLimitRetries} for the rate limit)`,
          );
          await this.#wait(delayMs, spec, displayUrl, lastRefusal);
          continue;
        }
      } else if (idempotent && policy.retryStatuses.includes(status)) {
        plan = retryPlan(
          policy,
          { askedMs: waitMs, backoffMs: backoffDelay(policy, retriesSpent) },
          { spent: retriesSpent, allowed: policy.retries },
          deadline,
        );
        if ('delayMs' in plan) {
          retriesSpent++;
          lastRefusal = refusal(plan);
          this.logger.warn(
            `${spec.operation}: ${status} ${reasonPhrase(status)}; retrying in ${formatMs(plan.delayMs)} (attempt ${retriesSpent + 1} of ${policy.retries + 1})`,
          );
          await this.#wait(plan.delayMs, spec, displayUrl, lastRefusal);
          continue;
        }
      }
      throw refusal(plan);
    }
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

  /** Waits before an attempt; cut short by `signal`, and by `sendUntil`, after which nothing is sent. */
  async #wait(
    ms: number,
    spec: RequestSpec,
    displayUrl: string,
    last?: ApiError | TransportError,
  ): Promise<void> {
    const signals = [spec.signal, spec.sendUntil].filter((s): s is AbortSignal => s !== undefined);
    try {
      await sleep(ms, signals.length > 1 ? AbortSignal.any(signals) : signals[0]);
    } catch (error) {
      if (spec.signal?.aborted !== true && spec.sendUntil?.aborted)
        throw notSentError(spec, displayUrl, last);
      throw transportError(spec, displayUrl, error, []);
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

export function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)}s`;
}
