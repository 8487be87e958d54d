/** Errors raised by the client. None of them ever holds a credential. */

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
  /** The parsed error body, for callers that need more than code and message. */
  body?: unknown;
}

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
  readonly body: unknown;

  constructor(details: ApiErrorDetails) {
    super(formatApiErrorMessage(details));
    this.operation = details.operation;
    this.method = details.method;
    this.url = details.url;
    this.status = details.status;
    this.code = details.code;
    this.serviceMessage = details.serviceMessage;
    this.retryAfterMs = details.retryAfterMs;
    this.body = details.body;
  }

  /** True when the request itself was at fault (4xx or a failure code): fixing the input is what helps. */
  get isClientError(): boolean {
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
  return `${d.operation}: ${statusPart}${codePart}${message} (${d.method} ${d.url})`;
}

/** The request did not get an answer: connection failure, timeout or abort. */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  readonly operation: string;
  readonly method: string;
  readonly url: string;
  /** `connect` (never reached the service), `timeout`, `aborted` or `network` (cut after sending). */
  readonly kind: 'connect' | 'timeout' | 'aborted' | 'network';
  /** Network error code such as ECONNREFUSED or UND_ERR_HEADERS_TIMEOUT. */
  readonly code: string | undefined;

  constructor(details: {
    operation: string;
    method: string;
    url: string;
    kind: TransportError['kind'];
    code?: string;
    message: string;
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
  }

  get isClientError(): boolean {
    return false;
  }

  get isServiceError(): boolean {
    return this.kind !== 'aborted';
  }
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
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
