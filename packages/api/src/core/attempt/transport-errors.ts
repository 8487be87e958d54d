/**
 * The words of a failure to get an answer: how far the request got (not sent, sent, answered
 * then cut off), whether the service may have carried it out, and, when a proxy stood in the way,
 * which proxy and which variable named it. No credential is ever part of them.
 */
import { redact } from '../values/credentials.ts';
import { ApiError, reasonPhrase, TransportError, type ProxyFailure } from '../values/errors.ts';
import { PhaseTimeoutError } from '../timing/deadline.ts';
import type { ProxyAddressError, ProxyRoute } from '../addresses/proxy.ts';

/** The connection could not be opened (no address, no route, refused, too slow): nothing was sent. */
const UNREACHABLE_CODES = [
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
];

/**
 * Network error codes meaning the connection failed before the request was sent: only these let
 * a non-idempotent request be repeated. A reset or a closed socket (ECONNRESET, UND_ERR_SOCKET)
 * may come before or after the service read the request, even on a fresh connection, and a
 * reused keep-alive connection can be closed while the request is on its way; those cannot be
 * told apart reliably, so they count as sent and a POST is not repeated after them.
 */
const NOT_SENT_CODES = new Set([
  ...UNREACHABLE_CODES,
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

/**
 * Failures on the way to a proxy, before any tunnel through it: the proxy could not be reached,
 * or it closed the connection while asked to open the tunnel (`UND_ERR_PRX_CONN`).
 */
const PROXY_UNREACHABLE_CODES = new Set([...UNREACHABLE_CODES, 'UND_ERR_PRX_CONN', 'UND_ERR_PRX_TLS']);

/** The request a failure is about. */
export interface FailedRequest {
  operation: string;
  method: string;
  signal?: AbortSignal | undefined;
}

/**
 * How far an attempt got: `inFlight` says the request may have reached the service (it was being
 * sent or answered), as opposed to an abort before sending or during a wait; `answered` is the
 * status of an answer whose body was then cut off; `proxy` the proxy it went through.
 */
interface AttemptState {
  inFlight: boolean;
  idempotent: boolean;
  answered?: number;
  proxy?: ProxyRoute | undefined;
}

/** Words a failure to get an answer. */
export function transportError(
  spec: FailedRequest,
  displayUrl: string,
  error: unknown,
  secrets: string[],
  attempt: AttemptState = { inFlight: false, idempotent: true },
): TransportError {
  if (error instanceof TransportError) return error;
  const code = errorCode(error);
  const detail = error instanceof Error ? error.message : String(error);
  const proxy =
    attempt.answered === undefined ? proxyFailureOf(error, code, detail, attempt.proxy) : undefined;
  if (proxy) {
    return new TransportError({
      operation: spec.operation,
      method: spec.method,
      url: displayUrl,
      kind: 'connect',
      ...(code ? { code } : {}),
      message: proxyMessage(proxy, code, redact(detail, secrets)),
      proxy,
    });
  }
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
  const whole = error instanceof PhaseTimeoutError && error.wholeAnswerMs !== undefined;
  const what =
    kind === 'aborted'
      ? 'request aborted'
      : kind === 'timeout'
        ? `timed out (${code})${whole ? `: ${detail}` : ''}`
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

/** A proxy variable that is not an address: nothing could be sent. */
export function proxyAddressFailure(
  spec: FailedRequest,
  displayUrl: string,
  error: ProxyAddressError,
): TransportError {
  return new TransportError({
    operation: spec.operation,
    method: spec.method,
    url: displayUrl,
    kind: 'connect',
    message: `the proxy could not be used: ${error.message}`,
    proxy: { variable: error.variable },
  });
}

/**
 * The request was given up before it was sent (again): aborted, with `sendUntil`'s reason, and
 * what the last attempt was answered, which is why it was waiting.
 */
export function notSentError(
  spec: FailedRequest & { sendUntil?: AbortSignal | undefined },
  displayUrl: string,
  last?: ApiError | TransportError,
): TransportError {
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

/** The proxy's part in a failure, when the request went through one and failed on the way to it. */
function proxyFailureOf(
  error: unknown,
  code: string | undefined,
  detail: string,
  route: ProxyRoute | undefined,
): ProxyFailure | undefined {
  if (!route) return undefined;
  const base = { url: route.display, variable: route.variable, hadCredentials: route.hasCredentials };
  // undici's words for a tunnel refused (`Proxy response (407) !== 200 when HTTP Tunneling`) and
  // for a plain http request refused by the proxy (`Proxy Authentication Required (407)`).
  const status =
    /^Proxy response \((\d{3})\)/.exec(detail)?.[1] ??
    /^Proxy Authentication Required \((407)\)/.exec(detail)?.[1];
  if (status !== undefined && error instanceof Error) return { ...base, status: Number(status) };
  if (code && PROXY_UNREACHABLE_CODES.has(code)) return base;
  return undefined;
}

function proxyMessage(proxy: ProxyFailure, code: string | undefined, detail: string): string {
  const named = `the proxy ${proxy.url} (from ${proxy.variable})`;
  if (proxy.status === 407) {
    return `${named} refused the request: 407 ${reasonPhrase(407)}; ${
      proxy.hadCredentials
        ? 'it did not accept the user name and password in the address'
        : 'its address carries no user name and password (http://user:password@host:port)'
    }. Nothing reached the service`;
  }
  if (proxy.status !== undefined) {
    return `${named} refused to open a connection to the service: it answered ${proxy.status} ${reasonPhrase(proxy.status)}. Nothing reached the service`;
  }
  return `${named} could not be reached (${code ?? 'network error'}: ${detail}). Nothing reached the service`;
}

function errorCode(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const record = error as { code?: unknown; errors?: unknown[]; cause?: unknown };
  if (typeof record.code === 'string') return record.code;
  if (Array.isArray(record.errors) && record.errors.length > 0) return errorCode(record.errors[0]);
  if (record.cause) return errorCode(record.cause);
  return undefined;
}
