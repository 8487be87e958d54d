/** Errors raised by the client. None of them ever holds a credential. */
import type { TokenClaims } from './credentials.ts';

export interface ApiErrorDetails {
  operation: string;
  method: string;
  /** Path and query of the request, without host or credentials. */
  url: string;
  /** HTTP status; undefined when the service answered 200 with a failure body (mobile `status: fail`). */
  status?: number;
  /** The service's own error code (upload codes 1, 5, 105; build update codes; authoring error codes). */
  code?: string | number;
  /** The service's own message, when it gave one. */
  serviceMessage?: string;
  /** How long the service asked to wait before trying again, when it said so. */
  retryAfterMs?: number;
  /** How many times the request was sent; 1 when it was not repeated. */
  attempts?: number;
  /** Why the client stopped repeating a request it would otherwise have sent again. */
  notRetriedBecause?: NotRetriedReason;
  /** The longest wait the client could still accept when it stopped (`wait-too-long`, `wait-past-deadline`). */
  waitLimitMs?: number;
  /**
   * True when the request was not safe to repeat (it creates or starts something), reached the
   * service and got a server error: the service may have carried it out, so it was not sent again.
   */
  mayHaveBeenProcessed?: boolean;
  /**
   * What was wrong with an answer the client could not use, whatever its status: a redirect, an
   * HTML page (a captive portal, a gateway's page), a body that is not JSON (garbled, cut short),
   * one over the size limit, or one in an encoding the client does not read.
   */
  unusable?: UnusableAnswer;
  /** Where a redirect pointed (its `Location`), without credentials. */
  location?: string;
  /** The parsed error body, for callers that need more than code and message. */
  body?: unknown;
  /**
   * Set when the service refused an OIDC bearer token (401, or mobile code 5): no API key was
   * sent. Its claims are the token's non-secret `aud` and `iss` (absent when it is not a JWT).
   */
  refusedToken?: { claims: TokenClaims | undefined };
}

export type UnusableAnswer = 'redirect' | 'html' | 'not-json' | 'too-large' | 'encoding';

/**
 * Why a request that could have been repeated was not:
 * - `retries-spent`: every retry the policy allows was used;
 * - `wait-too-long`: the service asked for a longer wait than the policy's `maxServerDelayMs`;
 * - `wait-past-deadline`: the next try would come after the caller's deadline.
 */
export type NotRetriedReason = 'retries-spent' | 'wait-too-long' | 'wait-past-deadline';

/** The service answered, and the answer is a failure. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly operation: string;
  readonly method: string;
  readonly url: string;
  readonly status: number | undefined;
  readonly code: string | number | undefined;
  readonly serviceMessage: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly attempts: number;
  readonly notRetriedBecause: NotRetriedReason | undefined;
  readonly waitLimitMs: number | undefined;
  readonly mayHaveBeenProcessed: boolean;
  readonly unusable: UnusableAnswer | undefined;
  readonly location: string | undefined;
  readonly body: unknown;
  readonly refusedToken: { claims: TokenClaims | undefined } | undefined;

  constructor(details: ApiErrorDetails) {
    super(formatApiErrorMessage(details));
    this.operation = details.operation;
    this.method = details.method;
    this.url = details.url;
    this.status = details.status;
    this.code = details.code;
    this.serviceMessage = details.serviceMessage;
    this.retryAfterMs = details.retryAfterMs;
    this.attempts = details.attempts ?? 1;
    this.notRetriedBecause = details.notRetriedBecause;
    this.waitLimitMs = details.waitLimitMs;
    this.mayHaveBeenProcessed = details.mayHaveBeenProcessed ?? false;
    this.unusable = details.unusable;
    this.location = details.location;
    this.body = details.body;
    this.refusedToken = details.refusedToken;
  }

  /** The service refused the request for its rate: it was not carried out, and can be sent later. */
  get isRateLimited(): boolean {
    return this.status === 429;
  }

  /** Everything the error was made from, to build a copy (for example with secrets masked). */
  get details(): ApiErrorDetails {
    return {
      operation: this.operation,
      method: this.method,
      url: this.url,
      ...(this.status !== undefined ? { status: this.status } : {}),
      ...(this.code !== undefined ? { code: this.code } : {}),
      ...(this.serviceMessage !== undefined ? { serviceMessage: this.serviceMessage } : {}),
      ...(this.retryAfterMs !== undefined ? { retryAfterMs: this.retryAfterMs } : {}),
      attempts: this.attempts,
      ...(this.notRetriedBecause !== undefined ? { notRetriedBecause: this.notRetriedBecause } : {}),
      ...(this.waitLimitMs !== undefined ? { waitLimitMs: this.waitLimitMs } : {}),
      mayHaveBeenProcessed: this.mayHaveBeenProcessed,
      ...(this.unusable !== undefined ? { unusable: this.unusable } : {}),
      ...(this.location !== undefined ? { location: this.location } : {}),
      ...(this.body !== undefined ? { body: this.body } : {}),
      ...(this.refusedToken !== undefined ? { refusedToken: this.refusedToken } : {}),
    };
  }

  /** True when the request itself was at fault (4xx or a failure code): fixing the input is what helps. */
  get isClientError(): boolean {
    if (this.unusable !== undefined) return false;
    if (this.status === undefined) return true;
    return this.status >= 400 && this.status < 500 && this.status !== 429 && this.status !== 408;
  }

  /** True when the service was unavailable or overloaded: trying later may help. */
  get isServiceError(): boolean {
    return !this.isClientError;
  }
}

function formatApiErrorMessage(d: ApiErrorDetails): string {
  const statusPart = d.status !== undefined ? String(d.status) : 'failed';
  // Numeric codes (mobile distribution's 1, 5, 105, 99, …) say more than the status; a textual
  // code beside an HTTP status (authoring's NOT_FOUND) repeats it, so it stays on `code` only.
  const showCode =
    d.code !== undefined && d.code !== '' && (typeof d.code === 'number' || d.status === undefined);
  const codePart = showCode ? ` code ${d.code}` : '';
  const message = d.serviceMessage
    ? ` ${d.serviceMessage}`
    : d.status !== undefined
      ? ` ${reasonPhrase(d.status)}`
      : '';
  const attempts = d.attempts !== undefined && d.attempts > 1 ? `, ${d.attempts} attempts` : '';
  return `${d.operation}: ${statusPart}${codePart}${message}${retryNote(d)} (${d.method} ${d.url}${attempts})`;
}

/** What the client did about an answer it could have waited out, or why it did not send again. */
function retryNote(d: ApiErrorDetails): string {
  if (d.mayHaveBeenProcessed) return '; the service may have carried it out, so it was not sent again';
  const asked =
    d.retryAfterMs !== undefined ? `the service asked to wait ${formatWait(d.retryAfterMs)}` : undefined;
  const limit = d.waitLimitMs !== undefined ? formatWait(d.waitLimitMs) : undefined;
  switch (d.notRetriedBecause) {
    case 'wait-too-long':
      return `; ${asked ?? 'the next try was too far off'}, longer than the ${limit ?? 'longest wait'} the client waits at most, so it was not sent again`;
    case 'wait-past-deadline': {
      const away = limit !== undefined ? ` (${limit} away)` : '';
      return asked
        ? `; ${asked}, which ends after the deadline${away}, so it was not sent again`
        : `; the next try would come after the deadline${away}, so it was not sent again`;
    }
    default:
      return '';
  }
}

/** A wait in words: milliseconds below a second, then seconds, minutes and hours. */
function formatWait(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m ${seconds % 60}s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours}h` : `${hours}h ${minutes % 60}m`;
}

/** The proxy that failed a request: where it is and where its address came from. */
export interface ProxyFailure {
  /** Its address, without credentials (`http://proxy.example:3128`); absent when the variable is not an address. */
  url?: string;
  /** The variable that named it (`HTTPS_PROXY`, `https_proxy`, `HTTP_PROXY`, `http_proxy`). */
  variable: string;
  /** The status it answered the tunnel's CONNECT with (407: credentials missing or refused). */
  status?: number;
  /** Whether its address carried credentials. */
  hadCredentials?: boolean;
}

/** The request did not get an answer: connection failure, timeout or abort. */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  readonly operation: string;
  readonly method: string;
  readonly url: string;
  /**
   * `connect` (never reached the service), `timeout` (no answer in time), `aborted` (the caller's
   * signal) or `network` (the connection was cut once the request was on its way).
   */
  readonly kind: 'connect' | 'timeout' | 'aborted' | 'network';
  /** Network error code such as ECONNREFUSED or UND_ERR_HEADERS_TIMEOUT. */
  readonly code: string | undefined;
  /**
   * True when the request was not safe to repeat (it creates or starts something) and may have
   * reached the service before the connection failed or the answer was late: the service may have
   * carried it out, so it was not sent again. What it did must be checked before sending it anew.
   */
  readonly mayHaveBeenProcessed: boolean;
  /**
   * Set when the proxy the request went through failed it, before the service was reached: it
   * refused the tunnel (`status`, 407 for missing or wrong credentials), could not be reached,
   * or its variable is not an address. `kind` is then `connect`: nothing reached the service.
   */
  readonly proxy: ProxyFailure | undefined;

  constructor(details: {
    operation: string;
    method: string;
    url: string;
    kind: TransportError['kind'];
    code?: string;
    message: string;
    mayHaveBeenProcessed?: boolean;
    proxy?: ProxyFailure;
    cause?: unknown;
  }) {
    super(
      `${details.operation}: ${details.message} (${details.method} ${details.url})`,
      details.cause !== undefined ? { cause: details.cause } : undefined,
    );
    this.operation = details.operation;
    this.method = details.method;
    this.url = details.url;
    this.kind = details.kind;
    this.code = details.code;
    this.mayHaveBeenProcessed = details.mayHaveBeenProcessed ?? false;
    this.proxy = details.proxy;
  }

  get isClientError(): boolean {
    return false;
  }

  get isServiceError(): boolean {
    return this.kind !== 'aborted';
  }
}

const REASONS: Record<number, string> = {
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function reasonPhrase(status: number): string {
  return REASONS[status] ?? 'HTTP error';
}

/** Reads the service's error code and message from any of the three interfaces' error bodies. */
export function serviceErrorOf(body: unknown): { code?: string | number; message?: string } {
  if (typeof body === 'string') {
    const text = body.trim();
    return text && text.length <= 500 && !text.startsWith('<') ? { message: text } : {};
  }
  if (!body || typeof body !== 'object') return {};
  const record = body as Record<string, unknown>;
  // AI authoring: { error: { code, detail } }
  if (record.error && typeof record.error === 'object') {
    const inner = record.error as Record<string, unknown>;
    return {
      ...codeOf(inner.code),
      ...messageOf(inner.detail ?? inner.message),
    };
  }
  // mobile `status: fail` and automation { code, message }
  return {
    ...codeOf(record.code),
    ...messageOf(record.message ?? record.detail ?? record.error ?? record.msg),
  };
}

function codeOf(value: unknown): { code?: string | number } {
  return typeof value === 'string' || typeof value === 'number' ? { code: value } : {};
}

function messageOf(value: unknown): { message?: string } {
  if (typeof value === 'string' && value.trim()) return { message: value.trim() };
  if (value && typeof value === 'object') return { message: JSON.stringify(value) };
  return {};
}
