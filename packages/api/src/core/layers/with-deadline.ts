/**
 * The call's end as its signals tell it: once `signal` aborts nothing more happens, and once
 * `sendUntil` aborts no attempt is started and no wait before one is begun or finished, while an
 * attempt already on its way runs on under `signal`. (When it must be over, `Call.deadline`, is
 * what the retry and pacing layers plan their waits by.)
 */
import { sleep } from '../timing/retry.ts';
import { notSentError, transportError } from '../attempt/transport-errors.ts';
import type { Call, Layer } from './layer.ts';

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
