/**
 * The call's deadline: when it must be over, which no wait may outlast (the retry and pacing
 * layers plan by it), and its end as its signals tell it: once `signal` aborts nothing more
 * happens, and once `sendUntil` aborts no attempt is started and no wait before one is begun or
 * finished, while an attempt already on its way runs on under `signal`.
 */
import { deadlineOf } from '../deadline.ts';
import type { RequestSpec } from '../request.ts';
import { sleep } from '../retry.ts';
import { notSentError, transportError } from '../transport-errors.ts';
import type { Call, Layer } from './layer.ts';

/** The earliest of `spec.deadline` and the deadlines marked on its signals (`markDeadline`). */
export function callDeadline(spec: RequestSpec): number | undefined {
  // `sendUntil` may carry the step's deadline where `signal` outlives it by a grace period.
  return deadlineOf(spec.signal, deadlineOf(spec.sendUntil, spec.deadline));
}

/** Starts no attempt after the call's signal or its `sendUntil` aborted. */
export const withDeadline: Layer = (next) => async (call, onHeaders) => {
  const { spec, attempt } = call;
  if (spec.signal?.aborted) {
    throw transportError(spec, attempt.displayUrl, spec.signal.reason, attempt.secrets);
  }
  if (spec.sendUntil?.aborted) throw notSentError(spec, attempt.displayUrl, call.lastRefusal);
  return next(call, onHeaders);
};

/** Waits before an attempt; cut short by `signal`, and by `sendUntil`, after which nothing is sent. */
export async function waitBeforeAttempt(call: Call, ms: number): Promise<void> {
  const { spec, attempt } = call;
  const signals = [spec.signal, spec.sendUntil].filter((s): s is AbortSignal => s !== undefined);
  try {
    await sleep(ms, signals.length > 1 ? AbortSignal.any(signals) : signals[0]);
  } catch (error) {
    if (spec.signal?.aborted !== true && spec.sendUntil?.aborted) {
      throw notSentError(spec, attempt.displayUrl, call.lastRefusal);
    }
    throw transportError(spec, attempt.displayUrl, error, []);
  }
}
