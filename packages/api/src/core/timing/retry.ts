/** Retry policy: exponential backoff with full jitter, honouring what the service asks for. */
import { monotonicNow } from './deadline.ts';
import type { NotRetriedReason } from '../values/errors.ts';

export interface RetryPolicy {
  /**
   * Retries after a failure that may pass (a server error, a timeout, a cut or refused connection),
   * where repeating is safe; 0 disables them.
   */
  retries: number;
  /**
   * Retries after 429 Too Many Requests, for every method, POSTs included: a 429 means the request
   * was not carried out. Counted apart from `retries` and larger: an account's limit is shared by
   * every job using it, so a step can miss the next window several times in a row while the others
   * take it, and each wait is the one the service asked for (bounded by `maxServerDelayMs` and by
   * the caller's deadline), so more tries do not press the service harder. 0 disables them.
   */
  rateLimitRetries: number;
  /** Base delay of the backoff. */
  minDelayMs: number;
  /** Upper bound of one backoff delay. */
  maxDelayMs: number;
  /** Statuses worth repeating a safe request for (429 is waited out apart, see `rateLimitRetries`). */
  retryStatuses: readonly number[];
  /** Longest wait the client accepts from Retry-After or X-Ratelimit-Reset; a longer one fails at once. */
  maxServerDelayMs: number;
  /** Source of randomness for the jitter (tests pin it). */
  random: () => number;
  /**
   * Whether requests are paced from the rate headers of earlier answers (`X-Ratelimit-Limit`,
   * `-Remaining`, `-Reset`), before the service has to refuse one: when few requests are left in
   * the account's window the next ones are spread until it resets, and a client that finds
   * others spending the same account spaces its requests out (see `pacing.ts`). The transports
   * of one client share what they learn, per account and origin. A pacing wait never outlasts
   * the call's deadline or `maxServerDelayMs`, and the call's signal ends it. Without those
   * headers nothing is paced, whatever this says. false sends every request as soon as it is made.
   */
  pacing: boolean;
}

const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: 4,
  rateLimitRetries: 10,
  minDelayMs: 500,
  maxDelayMs: 20_000,
  // A 500 is often one server's passing trouble (the next request lands elsewhere): a safe
  // request is worth one more try, bounded and paced like the gateways' 502 to 504.
  retryStatuses: [500, 502, 503, 504],
  maxServerDelayMs: 120_000,
  random: Math.random,
  pacing: true,
};

export function retryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  return { ...DEFAULT_RETRY_POLICY, ...overrides };
}

/** Full jitter: a uniformly random delay between 0 and the exponential cap of this attempt. */
export function backoffDelay(policy: RetryPolicy, attempt: number): number {
  const cap = Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** attempt);
  return Math.round(policy.random() * cap);
}

/** Whether and when to send a request again: after `delayMs`, or not, and why not. */
export type RetryPlan = { delayMs: number } | { stop: NotRetriedReason | undefined; waitLimitMs?: number };

/**
 * Whether to send a request again and after how long: the wait the service asked for
 * (`askedMs`), else the backoff; not when the budget is spent, the service asks for more than the
 * policy accepts, or the wait would end after the caller's deadline (the request would be
 * aborted before it). `deadline` and `now` are on the monotonic clock (`monotonicNow()`).
 */
export function retryPlan(
  policy: Pick<RetryPolicy, 'maxServerDelayMs'>,
  wait: { askedMs: number | undefined; backoffMs: number },
  budget: { spent: number; allowed: number },
  deadline: number | undefined,
  now: number = monotonicNow(),
): RetryPlan {
  // A budget of 0 means retrying is off: nothing was given up, so nothing is said about it.
  if (budget.spent >= budget.allowed) return { stop: budget.allowed > 0 ? 'retries-spent' : undefined };
  const delayMs = wait.askedMs ?? wait.backoffMs;
  const leftMs = deadline === undefined ? Infinity : Math.max(0, deadline - now);
  const maxMs = wait.askedMs === undefined ? Infinity : policy.maxServerDelayMs;
  if (delayMs < leftMs && delayMs <= maxMs) return { delayMs };
  return leftMs <= maxMs
    ? { stop: 'wait-past-deadline', waitLimitMs: leftMs }
    : { stop: 'wait-too-long', waitLimitMs: maxMs };
}

/**
 * How long the service asked us to wait, from `Retry-After` (seconds or an HTTP date) or,
 * unless `rateLimitReset` is false, `X-Ratelimit-Reset` (a Unix time in seconds, or seconds
 * from now when small). An absolute time is the service's: it is reckoned from the answer's own
 * `Date` header when it has one, so that a machine's clock minutes off neither skips the wait
 * nor makes it too long to accept.
 */
export function serverDelayMs(
  headers: Record<string, string | string[] | undefined>,
  localNow: number = Date.now(),
  options: { rateLimitReset?: boolean } = {},
): number | undefined {
  const now = serviceNowOf(headers, localNow);
  const retryAfter = headerValue(headers, 'retry-after')?.trim();
  if (retryAfter) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  const reset =
    options.rateLimitReset === false ? undefined : headerValue(headers, 'x-ratelimit-reset')?.trim();
  if (reset) {
    const value = Number(reset);
    if (Number.isFinite(value) && value >= 0) return resetDelayMs(value, now);
  }
  return undefined;
}

/**
 * The time until an `X-Ratelimit-Reset` of `value`: values that look like a Unix time (over
 * 10^9) are absolute, smaller ones a count of seconds.
 */
export function resetDelayMs(value: number, now: number): number {
  return value > 1_000_000_000 ? Math.max(0, value * 1000 - now) : Math.ceil(value * 1000);
}

/** The instant of an answer's `Date` header (ms since the epoch), when it reads as one of this era. */
export function answerDateOf(headers: Record<string, string | string[] | undefined>): number | undefined {
  const text = headerValue(headers, 'date')?.trim();
  if (!text) return undefined;
  const date = Date.parse(text);
  // Years 2000 to 9999 only: a garbled header must not move every wait by decades.
  return Number.isFinite(date) && date >= 946_684_800_000 && date < 253_402_300_800_000 ? date : undefined;
}

/**
 * The service's time when it answered: this machine's `localNow`, unless the answer's `Date`
 * is further from it than the header's one-second steps and a round trip explain (a machine's
 * clock off), then the `Date`, taken at the middle of its second.
 */
export function serviceNowOf(
  headers: Record<string, string | string[] | undefined>,
  localNow: number,
): number {
  const date = answerDateOf(headers);
  if (date === undefined || Math.abs(date + 500 - localNow) <= 2500) return localNow;
  return date + 500;
}

export function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A wait as logs tell it: milliseconds under a second, else seconds to a tenth. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)}s`;
}
