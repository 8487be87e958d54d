/**
 * The transport's layers around one attempt, outermost first: the retry rules see what each
 * attempt came to; the deadline is checked before each attempt, ahead of its pacing wait, so
 * that a call ended neither paces nor sends.
 */
import type { RatePacer } from '../timing/pacing.ts';
import type { Logger } from '../values/request.ts';
import type { RetryPolicy } from '../timing/retry.ts';
import { compose, sendAttempt, type Send, type Transmit } from './layer.ts';
import { withDeadline } from './with-deadline.ts';
import { withPacing } from './with-pacing.ts';
import { failureRule, rateLimitRule, withRetry } from './with-retry.ts';

export { settle } from './layer.ts';

interface TransportLayers {
  policy: RetryPolicy;
  logger: Logger;
  /** The account windows the requests are paced by; none sends each attempt at once. */
  pacer: RatePacer | undefined;
  transmit: Transmit;
}

/** One attempt sent by `transmit`, within the transport's layers. */
export function transportLayers({ policy, logger, pacer, transmit }: TransportLayers): Send {
  return compose(sendAttempt(transmit, logger), [
    withRetry(failureRule(policy), policy, logger),
    withRetry(rateLimitRule(policy, pacer), policy, logger),
    withDeadline,
    ...(pacer ? [withPacing(pacer, policy, logger)] : []),
  ]);
}
