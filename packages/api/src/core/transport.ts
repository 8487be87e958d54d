/**
 * The HTTP transport every operation goes through: undici with one keep-alive pool per origin,
 * proxy support from the environment, timeouts on every phase, an AbortSignal on every call,
 * retries where repeating is safe, pacing by the service's rate headers, and errors that never
 * carry a credential.
 */
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { authHeaders, redact, redactDeep, secretsOf, type Credentials } from './credentials.ts';
import { AttemptTimer, deadlineOf, readText } from './deadline.ts';
import { ApiError, reasonPhrase, serviceErrorOf, TransportError, type NotRetriedReason } from './errors.ts';
import { accountKey } from './pacing.ts';
import { ConnectionPools, loadUndici } from './pools.ts';
import { backoffDelay, retryPolicy, serverDelayMs, sleep, type RetryPolicy } from './retry.ts';
import { trimTrailingSlash } from './regions.ts';
import { USER_AGENT } from './version.ts';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryScalar = string | number | boolean | null;
export type QueryValue = QueryScalar | undefined | readonly QueryScalar[];
export type Headers = Record<string, string | string[] | undefined>;

export interface Logger {
  debug(message: string): void;
  warn(message: string): void;
}

export const silentLogger: Logger = { debug: () => {}, warn: () => {} };

export interface Timeouts {
  /** Establishing the connection (applies to the dispatcher the transport creates itself). */
  connectMs: number;
  /** From sending the request to receiving the answer's headers. */
  headersMs: number;
  /** Longest silence while receiving the answer's body. */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 60_000, bodyMs: 60_000 };

export type RequestBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'form'; fields: Record<string, string | number | boolean | undefined> }
  | {
      kind: 'stream';
      contentType: string;
      length?: number;
      /** Opens the body afresh; called once per attempt so a retried request resends it whole. */
      open: () => Readable | Buffer | AsyncIterable<Uint8Array>;
    };

export type ResponseType = 'json' | 'text' | 'stream' | 'none';

export interface RequestSpec {
  /** Name of the operation, used in errors and logs (for example `runSuite`). */
  operation: string;
  method: HttpMethod;
  /** Path below the base address, starting with `/`, with every segment already encoded. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: RequestBody;
  headers?: Record<string, string>;
  /** Credentials for this request: `null` sends none (public operations); omitted uses the transport's. */
  credentials?: Credentials | null;
  signal?: AbortSignal;
  /**
   * Once this aborts, no attempt is started and no wait (pacing, retry) is begun or finished; an
   * attempt already on its way runs on under `signal`. For a request whose answer says what it
   * started: cut in flight, the answer is lost; not yet sent, it must not be sent any more.
   */
  sendUntil?: AbortSignal;
  /**
   * When the request must be over (milliseconds since the epoch), where `signal` aborts on its
   * own; a signal marked with `markDeadline` brings its own. No retry wait is started that would
   * end later: the request fails at once with its last answer.
   */
  deadline?: number;
  /**
   * Whether the request may be repeated after it could have reached the service.
   * Defaults to true for GET, HEAD, PUT and DELETE. A request that is not idempotent is only
   * repeated when the connection failed before anything was sent, or when the service answered
   * 429 (it did not carry the request out).
   */
  idempotent?: boolean;
  timeouts?: Partial<Timeouts>;
  responseType?: ResponseType;
  /** Reads a failure from a successful answer's body (mobile distribution's `status: fail`). */
  failureOf?: (body: unknown) => { code?: string | number; message?: string } | undefined;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TransportOptions {
  baseUrl: string;
  credentials?: Credentials;
  /** An undici dispatcher (Agent, ProxyAgent, MockAgent). Default: one per transport, honouring HTTP(S)_PROXY and NO_PROXY. */
  dispatcher?: Dispatcher;
  /** Pools shared with other transports of a client; they win over `dispatcher`. */
  pools?: ConnectionPools;
  retry?: Partial<RetryPolicy>;
  timeouts?: Partial<Timeouts>;
  logger?: Logger;
  userAgent?: string;
}

const IDEMPOTENT_METHODS = new Set<HttpMethod>(['GET', 'HEAD', 'PUT', 'DELETE']);

/**
 * Network error codes meaning the connection failed before the request was sent: only these let
 * a non-idempotent request be repeated. A reset or a closed socket (ECONNRESET, UND_ERR_SOCKET)
 * may come before or after the service read the request, even on a fresh connection, and a
 * reused keep-alive connection can be closed while the request is on its way; those cannot be
 * told apart reliably, so they count as sent and a POST is not repeated after them.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  // The certificate was refused during the handshake, before the request (a proxy that
  // intercepts TLS, a gateway with a wrong certificate): the address or the network is at fault.
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export class HttpTransport {
  readonly baseUrl: string;
  readonly credentials: Credentials | undefined;
  readonly retry: RetryPolicy;
  readonly timeouts: Timeouts;
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
    const url = this.baseUrl + pathAndQuery;
    // What errors and logs show: a caller may have put a key in the query (legacy mobile calls do).
    const displayUrl = redact(pathAndQuery, secrets);
    const idempotent = spec.idempotent ?? IDEMPOTENT_METHODS.has(spec.method);
    const timeouts = { ...this.timeouts, ...spec.timeouts };
    // `sendUntil` may carry the step's deadline where `signal` outlives it by a grace period.
    const deadline = deadlineOf(spec.signal, deadlineOf(spec.sendUntil, spec.deadline));
    const policy = this.retry;
    let attempts = 0;
    // Two budgets: failures that may pass (where repeating is safe), and 429s (always safe).
    let retriesSpent = 0;
    let rateLimitRetriesSpent = 0;
    const pacer = policy.pacing ? this.#pools.pacer : undefined;
    // The attempt after a 429 was paced with the wait for it: one wait, told once.
    let pacedAhead = false;
    // What the last attempt was answered, for an error when no further attempt is made.
    let lastRefusal: ApiError | TransportError | undefined;
    const rateKey = pacer ? accountKey(this.#origin, credentials) : '';

    const [{ request }, dispatcher] = await Promise.all([loadUndici(), this.#pools.dispatcher()]);
    for (;;) {
      if (spec.signal?.aborted) throw this.#transportError(spec, displayUrl, spec.signal.reason, secrets);
      if (spec.sendUntil?.aborted) throw this.#notSent(spec, displayUrl, lastRefusal);
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
      const timer = new AttemptTimer(spec.signal);
      timer.headers(timeouts.headersMs);
      let response: Dispatcher.ResponseData;
      attempts++;
      try {
        const { body, headers: bodyHeaders } = encodeBody(spec.body);
        response = await request(url, dispatcher, {
          method: spec.method,
          headers: {
            'user-agent': this.userAgent,
            accept: spec.responseType === 'stream' ? '*/*' : 'application/json',
            ...bodyHeaders,
            ...spec.headers,
            ...authHeaders(credentials),
          },
          // undici writes an async iterable chunk by chunk, waiting for the socket to drain in
          // between; its types name the stream bodies only.
          ...(body !== undefined ? { body: body as string | Buffer | Readable } : {}),
          headersTimeout: timeouts.headersMs,
          bodyTimeout: timeouts.bodyMs,
          signal: timer.signal,
        });
      } catch (error) {
        timer.clear();
        const failure = this.#transportError(spec, displayUrl, error, secrets, {
          inFlight: true,
          idempotent,
        });
        const retryable =
          failure.kind === 'connect' ||
          (idempotent && (failure.kind === 'network' || failure.kind === 'timeout'));
        if (!retryable) throw failure;
        const plan = this.#retryPlan(
          undefined,
          backoffDelay(policy, retriesSpent),
          retriesSpent,
          policy.retries,
          deadline,
        );
        if (!('delayMs' in plan)) throw failure;
        retriesSpent++;
        lastRefusal = failure;
        this.logger.warn(
          `${spec.operation}: ${failure.code ?? failure.kind}; retrying in ${formatMs(plan.delayMs)} (attempt ${retriesSpent + 1} of ${policy.retries + 1})`,
        );
        await this.#wait(plan.delayMs, spec, displayUrl, lastRefusal);
        continue;
      }

      const headers = response.headers as Headers;
      const status = response.statusCode;
      pacer?.observe(rateKey, status, headers, { random: policy.random });
      // A stream is read by the caller, at the caller's pace: undici's body timeout covers it.
      if (spec.responseType === 'stream' && status >= 200 && status < 300) timer.clear();
      else timer.body(timeouts.bodyMs);
      this.logger.debug(
        `${spec.method} ${displayUrl} -> ${status} in ${Math.round(performance.now() - started)} ms`,
      );

      if (status >= 200 && status < 300) {
        const body = await this.#readBody(
          spec,
          displayUrl,
          response,
          secrets,
          timer,
          idempotent,
          attempts,
        ).finally(() => timer.clear());
        const failure = spec.failureOf?.(body);
        if (failure) {
          throw new ApiError({
            operation: spec.operation,
            method: spec.method,
            url: displayUrl,
            ...(failure.code !== undefined ? { code: failure.code } : {}),
            ...(failure.message ? { serviceMessage: redact(failure.message, secrets) } : {}),
            attempts,
            body: redactDeep(body, secrets),
          });
        }
        return { status, headers, body: body as T };
      }

      const errorBody = redactDeep(
        await readErrorBody(response, timer).finally(() => timer.clear()),
        secrets,
      );
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
          attempts,
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
        plan = this.#retryPlan(
          waitMs,
          backoffDelay(policy, rateLimitRetriesSpent),
          rateLimitRetriesSpent,
          policy.rateLimitRetries,
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
        plan = this.#retryPlan(
          waitMs,
          backoffDelay(policy, retriesSpent),
          retriesSpent,
          policy.retries,
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

  /**
   * Whether to send a request again and after how long: the wait the service asked for, else the
   * backoff; not when the budget is spent, the service asks for more than the policy accepts, or
   * the wait would end after the caller's deadline (the request would be aborted before it).
   */
  #retryPlan(
    askedMs: number | undefined,
    backoffMs: number,
    spent: number,
    budget: number,
    deadline: number | undefined,
  ): RetryPlan {
    // A budget of 0 means retrying is off: nothing was given up, so nothing is said about it.
    if (spent >= budget) return { stop: budget > 0 ? 'retries-spent' : undefined };
    const delayMs = askedMs ?? backoffMs;
    const leftMs = deadline === undefined ? Infinity : Math.max(0, deadline - Date.now());
    const maxMs = askedMs === undefined ? Infinity : this.retry.maxServerDelayMs;
    if (delayMs < leftMs && delayMs <= maxMs) return { delayMs };
    return leftMs <= maxMs
      ? { stop: 'wait-past-deadline', waitLimitMs: leftMs }
      : { stop: 'wait-too-long', waitLimitMs: maxMs };
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
        throw this.#notSent(spec, displayUrl, last);
      throw this.#transportError(spec, displayUrl, error, []);
    }
  }

  /**
   * The request was given up before it was sent (again): aborted, with `sendUntil`'s reason, and
   * what the last attempt was answered, which is why it was waiting.
   */
  #notSent(spec: RequestSpec, displayUrl: string, last?: ApiError | TransportError): TransportError {
    const after =
      last instanceof ApiError && last.status !== undefined
        ? ` again; the last attempt was answered ${last.status} ${reasonPhrase(last.status)}`
        : last instanceof TransportError
          ? ` again; the last attempt failed (${last.code ?? last.kind})`
          : '';
    return new TransportError({
      operation: spec.operation,
      method: spec.method,
      url: displayUrl,
      kind: 'aborted',
      message: `request aborted before it was sent${after}`,
      cause: spec.sendUntil?.reason,
    });
  }

  /** What logs and `util.inspect` show: the policy, never the credentials' secret. */
  toString(): string {
    return `HttpTransport(${this.baseUrl})`;
  }

  async #readBody(
    spec: RequestSpec,
    displayUrl: string,
    response: Dispatcher.ResponseData,
    secrets: string[],
    timer: AttemptTimer,
    idempotent: boolean,
    attempts: number,
  ): Promise<unknown> {
    const type = spec.responseType ?? 'json';
    if (type === 'stream') return response.body;
    try {
      if (type === 'none') {
        await readText(response.body, timer);
        await connectionReleased();
        return undefined;
      }
      const text = await readText(response.body, timer);
      await connectionReleased();
      if (type === 'text') return text;
      if (text.trim() === '') return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new ApiError({
          operation: spec.operation,
          method: spec.method,
          url: displayUrl,
          status: response.statusCode,
          serviceMessage: `answer is not JSON: ${redact(text.slice(0, 120), secrets)}`,
          attempts,
        });
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw this.#transportError(spec, displayUrl, error, secrets, {
        inFlight: true,
        idempotent,
        answered: response.statusCode,
      });
    }
  }

  /**
   * Words a failure to get an answer. `inFlight` says the request may have reached the service
   * (it was being sent or answered), as opposed to an abort before sending or during a wait;
   * `answered` is the status of an answer whose body was then cut off.
   */
  #transportError(
    spec: RequestSpec,
    displayUrl: string,
    error: unknown,
    secrets: string[],
    attempt: { inFlight: boolean; idempotent: boolean; answered?: number } = {
      inFlight: false,
      idempotent: true,
    },
  ): TransportError {
    if (error instanceof TransportError) return error;
    const code = errorCode(error);
    const aborted = spec.signal?.aborted === true || (error instanceof Error && error.name === 'AbortError');
    const kind: TransportError['kind'] = aborted
      ? 'aborted'
      : code && NOT_SENT_CODES.has(code)
        ? 'connect'
        : code && TIMEOUT_CODES.has(code)
          ? 'timeout'
          : 'network';
    // Repeating a request that changes something could do it twice: the caller must check first.
    const mayHaveBeenProcessed = attempt.inFlight && !attempt.idempotent && kind !== 'connect';
    const detail = error instanceof Error ? error.message : String(error);
    const what =
      kind === 'aborted'
        ? 'request aborted'
        : kind === 'timeout'
          ? `timed out (${code})`
          : `${code ?? 'network error'}: ${redact(detail, secrets)}`;
    const message = !mayHaveBeenProcessed
      ? what
      : attempt.answered !== undefined
        ? `the service answered ${attempt.answered} but the answer was cut off (${what}); it carried out the request, so it was not sent again`
        : kind === 'aborted'
          ? `${what} while it was on its way; the service may have carried it out`
          : kind === 'timeout'
            ? `no answer came after the request was sent (${what}); the service may have carried it out, so it was not sent again`
            : `the connection was cut after the request was sent (${what}); the service may have carried it out, so it was not sent again`;
    return new TransportError({
      operation: spec.operation,
      method: spec.method,
      url: displayUrl,
      kind,
      ...(code ? { code } : {}),
      message,
      ...(mayHaveBeenProcessed ? { mayHaveBeenProcessed } : {}),
      // Why the caller aborted (its deadline, a cancellation) stays readable on the error.
      ...(kind === 'aborted' && spec.signal?.aborted ? { cause: spec.signal.reason } : {}),
    });
  }
}

/** Whether and when to send a request again: after `delayMs`, or not, and why not. */
type RetryPlan = { delayMs: number } | { stop: NotRetriedReason | undefined; waitLimitMs?: number };

function encodeBody(body: RequestBody | undefined): {
  body?: string | Buffer | Readable | AsyncIterable<Uint8Array>;
  headers: Record<string, string>;
} {
  if (!body) return { headers: {} };
  switch (body.kind) {
    case 'json':
      return { body: JSON.stringify(body.value ?? {}), headers: { 'content-type': 'application/json' } };
    case 'form': {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(body.fields)) {
        if (value !== undefined) params.append(key, String(value));
      }
      return {
        body: params.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      };
    }
    case 'stream':
      return {
        body: body.open(),
        headers: {
          'content-type': body.contentType,
          ...(body.length !== undefined ? { 'content-length': String(body.length) } : {}),
        },
      };
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

/**
 * undici hands the connection back to its pool a moment after the body ends; a request sent
 * before that would open a second connection. Waiting one turn of the event loop lets
 * sequential calls reuse one keep-alive connection.
 */
function connectionReleased(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

async function readErrorBody(response: Dispatcher.ResponseData, timer: AttemptTimer): Promise<unknown> {
  try {
    const text = await readText(response.body, timer);
    if (!text.trim()) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  } catch {
    return undefined;
  }
}

function errorCode(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const record = error as { code?: unknown; errors?: unknown[]; cause?: unknown };
  if (typeof record.code === 'string') return record.code;
  if (Array.isArray(record.errors) && record.errors.length > 0) return errorCode(record.errors[0]);
  if (record.cause) return errorCode(record.cause);
  return undefined;
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
