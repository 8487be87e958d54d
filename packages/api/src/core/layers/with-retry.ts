/**
 * Sending again: a layer per rule, each with its budget of the policy. A 429 is always safe to
 * repeat (the service did not carry the request out) and shares the account's pacing; a failure
 * that may pass (a server error, a cut connection, a late or garbled answer) is repeated only
 * where repeating is safe. Each waits as the service asks, else by backoff, never past the call's
 * deadline (`retryPlan`).
 */
import type { AttemptOutcome } from '../attempt/attempt.ts';
import { ApiError, reasonPhrase, type TransportError, type UnusableAnswer } from '../values/errors.ts';
import type { RatePacer } from '../timing/pacing.ts';
import type { Logger } from '../values/request.ts';
import { backoffDelay, formatMs, retryPlan, type RetryPolicy } from '../timing/retry.ts';
import { errorOf, type Call, type Layer } from './layer.ts';
import { waitBeforeAttempt } from './with-deadline.ts';
import { pacedStart } from './with-pacing.ts';

/** What an attempt came to that a rule may send the request again after. */
type Unanswered = Exclude<AttemptOutcome, { kind: 'answer' }>;

/** When to send a request again, and how the wait before it is told. */
interface RetryRule {
  /** The policy's budget each retry spends. */
  readonly budget: 'retries' | 'rateLimitRetries';
  /** Whether the request may be sent again after this outcome. */
  covers(outcome: Unanswered, idempotent: boolean): boolean;
  /** The wait before the next attempt, given the one planned, and the warning that tells it. */
  retry(call: Call, plannedMs: number, outcome: Unanswered): { delayMs: number; warning: string };
}

/**
 * Sends the request again while `rule` covers what its attempt came to and its budget and the
 * call's deadline allow; else fails with the last attempt's error, saying why it stopped.
 */
export function withRetry(rule: RetryRule, policy: RetryPolicy, logger: Logger): Layer {
  return (next) => async (call, onHeaders) => {
    for (;;) {
      const outcome = await next(call, onHeaders);
      if (outcome.kind === 'answer' || !rule.covers(outcome, call.attempt.idempotent)) return outcome;
      const spent = call.spent[rule.budget];
      const plan = retryPlan(
        policy,
        {
          askedMs: outcome.kind === 'refused' ? outcome.askedMs : undefined,
          backoffMs: backoffDelay(policy, spent),
        },
        { spent, allowed: policy[rule.budget] },
        call.deadline,
      );
      if (!('delayMs' in plan)) throw errorOf(call, outcome, plan);
      call.spent[rule.budget]++;
      call.lastRefusal = errorOf(call, outcome, plan);
      const { delayMs, warning } = rule.retry(call, plan.delayMs, outcome);
      logger.warn(`${call.spec.operation}: ${warning}`);
      await waitBeforeAttempt(call, delayMs);
    }
  };
}

/**
 * 429 Too Many Requests: the service refused the request for its rate without carrying it out,
 * so whatever the method, sending it again cannot make anything twice. With `pacer`, the wait is
 * one: the service's, or the account's pacing when that ends later (it spreads the clients
 * waiting for the same reset), told as the time it really is.
 */
export function rateLimitRule(
  policy: Pick<RetryPolicy, 'rateLimitRetries' | 'random' | 'maxServerDelayMs'>,
  pacer: RatePacer | undefined,
): RetryRule {
  return {
    budget: 'rateLimitRetries',
    covers: (outcome) => outcome.kind === 'refused' && outcome.status === 429,
    retry(call, plannedMs, outcome) {
      let delayMs = plannedMs;
      if (pacer) {
        delayMs = Math.max(delayMs, pacedStart(pacer, policy, call).delayMs);
        call.pacedAhead = true;
      }
      const askedMs = outcome.kind === 'refused' ? outcome.askedMs : undefined;
      const why =
        askedMs === undefined
          ? ''
          : delayMs > plannedMs
            ? `, the ${formatMs(plannedMs)} the service asked and a share of the account's rate`
            : ', as the service asked';
      const count = `retry ${call.spent.rateLimitRetries} of ${policy.rateLimitRetries} for the rate limit`;
      return {
        delayMs,
        warning: `429 ${reasonPhrase(429)}; retrying in ${formatMs(delayMs)}${why} (${count})`,
      };
    },
  };
}

/**
 * A failure that may pass: a server error of `retryStatuses`, a cut connection, a late or
 * garbled answer, where repeating the request is safe; a connection that failed before
 * anything was sent, whatever the request.
 */
export function failureRule(policy: Pick<RetryPolicy, 'retries' | 'retryStatuses'>): RetryRule {
  return {
    budget: 'retries',
    covers: (outcome, idempotent) =>
      outcome.kind === 'failed'
        ? repeatable(outcome.failure, idempotent)
        : outcome.status !== 429 && idempotent && policy.retryStatuses.includes(outcome.status),
    retry(call, plannedMs, outcome) {
      const what =
        outcome.kind === 'refused'
          ? `${outcome.status} ${reasonPhrase(outcome.status)}`
          : told(outcome.failure);
      const count = `attempt ${call.spent.retries + 1} of ${policy.retries + 1}`;
      return { delayMs: plannedMs, warning: `${what}; retrying in ${formatMs(plannedMs)} (${count})` };
    },
  };
}

/** Whether sending the request again is safe and may mend what its attempt failed with. */
function repeatable(failure: ApiError | TransportError, idempotent: boolean): boolean {
  // An answer cut short or garbled on the way, or a gateway's page in its place, may come whole
  // next time; one over the limit or in an encoding not read would come the same.
  if (failure instanceof ApiError) {
    return idempotent && (failure.unusable === 'not-json' || failure.unusable === 'html');
  }
  // A proxy out of reach, or failing (5xx), may be back; one refusing (407), or a variable that
  // is not an address, would be the same next time.
  if (failure.proxy) return failure.proxy.url !== undefined && (failure.proxy.status ?? 500) >= 500;
  // Refused connections sent nothing; a cut one or a late answer may have reached the service.
  return (
    failure.kind === 'connect' || (idempotent && (failure.kind === 'network' || failure.kind === 'timeout'))
  );
}

/** What a retry's warning says of an answer that could not be used, in a reader's words. */
const UNUSABLE_WORDS: Record<UnusableAnswer, string> = {
  'not-json': 'not JSON: cut short or garbled',
  html: 'an HTML page',
  redirect: 'a redirect',
  'too-large': 'too large',
  encoding: 'in an encoding not read',
};

/** A failure as a retry's warning names it. */
function told(failure: ApiError | TransportError): string {
  return failure instanceof ApiError
    ? `${failure.status ?? ''} answer unreadable (${UNUSABLE_WORDS[failure.unusable ?? 'not-json']})`.trim()
    : (failure.code ?? failure.kind);
}
