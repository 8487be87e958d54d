/**
 * Pacing by the account's rate window (`pacing.ts`): each attempt starts when the account's
 * budget allows, and each answer's rate headers tell the window, as they come.
 */
import { monotonicNow } from '../timing/deadline.ts';
import type { PacingDecision, RatePacer } from '../timing/pacing.ts';
import type { Logger } from '../values/request.ts';
import { formatMs, type RetryPolicy } from '../timing/retry.ts';
import type { Call, Layer } from './layer.ts';
import { waitBeforeAttempt } from './with-deadline.ts';

type PacingPolicy = Pick<RetryPolicy, 'random' | 'maxServerDelayMs'>;

/** Waits for the account's pace before each attempt (unless a 429's wait took it), and learns from each answer. */
export function withPacing(pacer: RatePacer, policy: PacingPolicy, logger: Logger): Layer {
  return (next) => async (call, onHeaders) => {
    if (!call.pacedAhead) {
      const paced = pacedStart(pacer, policy, call);
      if (paced.delayMs > 0) {
        logger.debug(
          `${call.spec.operation}: paced ${formatMs(paced.delayMs)} (${paced.remaining} request(s) left in the rate window, which resets in ${formatMs(paced.resetInMs ?? 0)})`,
        );
        await waitBeforeAttempt(call, paced.delayMs);
      }
    }
    call.pacedAhead = false;
    return next(call, (status, headers) => {
      pacer.observe(call.rateKey, status, headers, { random: policy.random });
      onHeaders(status, headers);
    });
  };
}

/**
 * When the call's next attempt may start, counted as started then: never later than the client
 * would wait when asked by the service, nor past the call's deadline.
 */
export function pacedStart(pacer: RatePacer, policy: PacingPolicy, call: Call): PacingDecision {
  const now = monotonicNow();
  const latestStart = Math.min(call.deadline ?? Infinity, now + policy.maxServerDelayMs);
  return pacer.schedule(call.rateKey, { now, random: policy.random, latestStart });
}
