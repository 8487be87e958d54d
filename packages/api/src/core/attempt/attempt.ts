/**
 * One attempt of a request: sent, answered and read within its timers, and told back as what it
 * came to (an answer, a refusal by the service, or a failure). Waiting, pacing and retrying are
 * the layers' around it (`layers/`).
 */
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { discard, readAnswer, readErrorBody, redirectError, type AnswerContext } from './answer.ts';
import { redactDeep } from '../values/credentials.ts';
import { AttemptTimer, monotonicNow } from '../timing/deadline.ts';
import { ApiError, type TransportError } from '../values/errors.ts';
import type { ProxyRoute } from '../addresses/proxy.ts';
import type { Headers, RequestBody, ResponseType, Timeouts } from '../values/request.ts';
import { serverDelayMs } from '../timing/retry.ts';
import { transportError, type FailedRequest } from './transport-errors.ts';

export interface Attempt extends FailedRequest {
  url: string;
  /** Path and query without credentials, for errors and logs. */
  displayUrl: string;
  headers: Record<string, string>;
  body?: RequestBody | undefined;
  responseType: ResponseType;
  timeouts: Timeouts;
  /** When the caller's own deadline falls (on the monotonic clock): the answer must be whole by then. */
  deadline?: number | undefined;
  maxAnswerBytes: number;
  idempotent: boolean;
  secrets: string[];
  /** How many times the request has been sent, this attempt included. */
  attempts: number;
  proxy: ProxyRoute | undefined;
}

export type AttemptOutcome =
  | { kind: 'answer'; status: number; headers: Headers; body: unknown }
  /**
   * The service answered with a failure status; its body read, bounded, secrets masked, and the
   * wait it asked for before another try (`Retry-After`; on a 429 also `X-Ratelimit-Reset`).
   */
  | { kind: 'refused'; status: number; headers: Headers; body: unknown; askedMs: number | undefined }
  /** No usable answer. */
  | { kind: 'failed'; failure: ApiError | TransportError };

/** undici's `request`, on the dispatcher given. */
type SendRequest = (
  url: string,
  dispatcher: Dispatcher,
  options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>,
) => Promise<Dispatcher.ResponseData>;

/** Sends the request once and reads its answer; `onHeaders` sees every answer's status and headers. */
export async function sendOnce(
  send: SendRequest,
  dispatcher: Dispatcher,
  attempt: Attempt,
  onHeaders: (status: number, headers: Headers) => void,
): Promise<AttemptOutcome> {
  const timer = new AttemptTimer(attempt.signal);
  const leftMs = attempt.deadline === undefined ? Infinity : attempt.deadline - monotonicNow();
  timer.headers(Math.min(attempt.timeouts.headersMs, Math.max(1, leftMs)));
  const state = { inFlight: true, idempotent: attempt.idempotent, proxy: attempt.proxy };
  let response: Dispatcher.ResponseData;
  try {
    const { body, headers: bodyHeaders } = encodeBody(attempt.body);
    response = await send(attempt.url, dispatcher, {
      method: attempt.method as Dispatcher.HttpMethod,
      headers: { ...bodyHeaders, ...attempt.headers },
      // undici writes an async iterable chunk by chunk, waiting for the socket to drain in
      // between; its types name the stream bodies only.
      ...(body !== undefined ? { body: body as string | Buffer | Readable } : {}),
      headersTimeout: attempt.timeouts.headersMs,
      bodyTimeout: attempt.timeouts.bodyMs,
      signal: timer.signal,
    });
  } catch (error) {
    timer.clear();
    return {
      kind: 'failed',
      failure: transportError(attempt, attempt.displayUrl, error, attempt.secrets, state),
    };
  }

  const headers = response.headers as Headers;
  const status = response.statusCode;
  onHeaders(status, headers);
  const success = status >= 200 && status < 300;
  // A stream is read by the caller, at the caller's pace: only silences and its signal bound it.
  timer.body(attempt.timeouts.bodyMs, !(success && attempt.responseType === 'stream'));
  const context: AnswerContext = {
    operation: attempt.operation,
    method: attempt.method,
    url: attempt.displayUrl,
    attempts: attempt.attempts,
    secrets: attempt.secrets,
    idempotent: attempt.idempotent,
  };
  try {
    if (success) {
      const body = await readAnswer(response, attempt.responseType, context, {
        maxBytes: attempt.maxAnswerBytes,
        timer,
      });
      return { kind: 'answer', status, headers, body };
    }
    if (status >= 300 && status < 400) {
      discard(response.body);
      return { kind: 'failed', failure: redirectError(context, status, headers) };
    }
    const body = redactDeep(await readErrorBody(response, timer), attempt.secrets);
    // A reset time is sent with every answer; it is a reason to wait only when the limit was hit.
    const askedMs = serverDelayMs(headers, Date.now(), { rateLimitReset: status === 429 });
    return { kind: 'refused', status, headers, body, askedMs };
  } catch (error) {
    if (error instanceof ApiError) return { kind: 'failed', failure: error };
    const answered = { ...state, answered: status };
    return {
      kind: 'failed',
      failure: transportError(attempt, attempt.displayUrl, error, attempt.secrets, answered),
    };
  } finally {
    timer.clear();
  }
}

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
