/**
 * A call of the transport as layers around one attempt, the way undici composes interceptors
 * around `dispatch`: each layer is a `Send` made from the next one, deciding around it when to
 * wait and whether to send again. They share the call's state (`Call`): its deadline, the
 * retries spent and what the last attempt was answered. Like the attempt, they load with undici
 * on the first request (`undici-parts.ts`).
 */
import type { Attempt, AttemptOutcome } from '../attempt/attempt.ts';
import { redact, redactDeep } from '../values/credentials.ts';
import { ApiError, serviceErrorOf, type TransportError } from '../values/errors.ts';
import type { ApiResponse, Headers, Logger, RequestSpec } from '../values/request.ts';
import type { RetryPlan } from '../timing/retry.ts';

/** Told each answer's status and headers as they come, before its body is read. */
type HeadersListener = (status: number, headers: Headers) => void;

/** One call of the transport: the request, and what its attempts came to so far. */
export interface Call {
  readonly spec: RequestSpec;
  /** The request as each attempt sends it; `attempt.attempts` counts them. */
  readonly attempt: Attempt;
  /** When the call must be over: `spec.deadline`, or earlier when its signals are marked with one. */
  readonly deadline: number | undefined;
  /** Whose rate window the call spends (`accountKey`). */
  readonly rateKey: string;
  /** Retries spent, per budget of the policy: failures that may pass, and 429s. */
  readonly spent: { retries: number; rateLimitRetries: number };
  /** The next attempt was paced with the wait after a 429: one wait, told once. */
  pacedAhead: boolean;
  /** What the last attempt was answered, for an error when no further attempt is made. */
  lastRefusal: ApiError | TransportError | undefined;
}

/** Sends the request once and reads its answer (`sendOnce` on the transport's dispatcher). */
export type Transmit = (attempt: Attempt, onHeaders: HeadersListener) => Promise<AttemptOutcome>;

/** Sends a call: one attempt, or layers around it that may make several. */
export type Send = (call: Call, onHeaders: HeadersListener) => Promise<AttemptOutcome>;

/** A rule around sending: made from the next `Send`, it calls it as it decides. */
export type Layer = (next: Send) => Send;

/** `layers` around `send`, the first outermost. */
export function compose(send: Send, layers: readonly Layer[]): Send {
  return layers.reduceRight((next, layer) => layer(next), send);
}

/** The innermost `Send`: one attempt, counted, its answer's status and time logged. */
export function sendAttempt(transmit: Transmit, logger: Logger): Send {
  return async (call, onHeaders) => {
    const started = performance.now();
    call.attempt.attempts++;
    return transmit(call.attempt, (status, headers) => {
      onHeaders(status, headers);
      logger.debug(
        `${call.spec.method} ${call.attempt.displayUrl} -> ${status} in ${Math.round(performance.now() - started)} ms`,
      );
    });
  };
}

/** What the call comes to: its answer, or the error for what its last attempt came to. */
export function settle<T>(call: Call, outcome: AttemptOutcome): ApiResponse<T> {
  if (outcome.kind !== 'answer') throw errorOf(call, outcome);
  const failure = call.spec.failureOf?.(outcome.body);
  if (!failure) return { status: outcome.status, headers: outcome.headers, body: outcome.body as T };
  const { spec, attempt } = call;
  throw new ApiError({
    operation: spec.operation,
    method: spec.method,
    url: attempt.displayUrl,
    ...(failure.code !== undefined ? { code: failure.code } : {}),
    ...(failure.message ? { serviceMessage: redact(failure.message, attempt.secrets) } : {}),
    attempts: attempt.attempts,
    body: redactDeep(outcome.body, attempt.secrets),
  });
}

/**
 * The error for an attempt that failed, or was refused; `plan` says why it is not sent again
 * when a retry rule covered it.
 */
export function errorOf(
  call: Call,
  outcome: Exclude<AttemptOutcome, { kind: 'answer' }>,
  plan: RetryPlan = { stop: undefined },
): ApiError | TransportError {
  if (outcome.kind === 'failed') return outcome.failure;
  const { spec, attempt } = call;
  const { status, askedMs, body } = outcome;
  const { code, message } = serviceErrorOf(body);
  return new ApiError({
    operation: spec.operation,
    method: spec.method,
    url: attempt.displayUrl,
    status,
    ...(code !== undefined ? { code } : {}),
    ...(message ? { serviceMessage: redact(message, attempt.secrets) } : {}),
    ...(askedMs !== undefined ? { retryAfterMs: askedMs } : {}),
    attempts: attempt.attempts,
    ...('stop' in plan && plan.stop !== undefined ? { notRetriedBecause: plan.stop } : {}),
    ...('waitLimitMs' in plan && plan.waitLimitMs !== undefined ? { waitLimitMs: plan.waitLimitMs } : {}),
    // A server error may come after the work was done (a gateway that gave up waiting).
    ...(!attempt.idempotent && status >= 500 ? { mayHaveBeenProcessed: true } : {}),
    body,
  });
}
