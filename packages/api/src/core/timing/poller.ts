/**
 * Repeats a check until a condition holds, a deadline passes, or the signal aborts. When the
 * requests of a check meet contention for the account's rate budget (a 429, or an answer saying
 * few requests are left in the window), the next wait doubles, up to `maxContendedIntervalMs`,
 * jittered; each check without contention halves it back. Many processes polling one account
 * thus slow down together until they fit in its limit, then speed up again.
 */
import { monotonicNow } from './deadline.ts';
import { recordingContention } from './pacing.ts';
import { sleep } from './retry.ts';

export interface PollOptions<T> {
  /** Time between checks. */
  intervalMs: number;
  /** Longest total wait; after it the poll fails with a PollTimeoutError. */
  timeoutMs: number;
  /** When above 1, the interval grows by this factor after each check that saw no change. */
  backoffFactor?: number;
  /** Upper bound of the grown interval. */
  maxIntervalMs?: number;
  /**
   * Upper bound of the interval grown while the service signals contention for the rate budget
   * (default 4 × `intervalMs`; `intervalMs` itself turns that backoff off).
   */
  maxContendedIntervalMs?: number;
  /** Whether a check saw something new; default: every check counts as a change. */
  hasChanged?: (previous: T, next: T) => boolean;
  /** Called after every check, for progress reporting. */
  onCheck?: (value: T, info: PollCheckInfo) => void;
  signal?: AbortSignal;
  /** The clock the timeout and the intervals are reckoned on (default the monotonic one); for tests. */
  now?: () => number;
  /** Source of the jitter of contended waits (tests pin it). */
  random?: () => number;
}

export interface PollCheckInfo {
  attempt: number;
  elapsedMs: number;
  changed: boolean;
  /** The check's requests met a 429, or a rate window with few requests left. */
  contended?: boolean;
}

export class PollTimeoutError<T> extends Error {
  override readonly name = 'PollTimeoutError';
  readonly lastValue: T | undefined;
  readonly elapsedMs: number;

  constructor(timeoutMs: number, elapsedMs: number, lastValue: T | undefined) {
    // Whole seconds would read "within 0s" for the short waits of tests and quick checks.
    super(
      `condition not met within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)}s`}`,
    );
    this.lastValue = lastValue;
    this.elapsedMs = elapsedMs;
  }
}

export async function poll<T>(
  check: (signal: AbortSignal | undefined) => Promise<T>,
  isDone: (value: T) => boolean,
  options: PollOptions<T>,
): Promise<T> {
  const now = options.now ?? monotonicNow;
  const started = now();
  const deadline = started + options.timeoutMs;
  const factor = options.backoffFactor ?? 1;
  const maxInterval = options.maxIntervalMs ?? options.intervalMs;
  const backoff = new ContentionBackoff(
    options.maxContendedIntervalMs ?? options.intervalMs * 4,
    options.random ?? Math.random,
  );
  let interval = options.intervalMs;
  let previous: { value: T } | undefined;

  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    const { value, contention } = await recordingContention(() => check(options.signal));
    const contended = contention.limited || contention.low;
    const changed = previous === undefined || (options.hasChanged?.(previous.value, value) ?? true);
    previous = { value };
    const elapsedMs = now() - started;
    options.onCheck?.(value, { attempt, elapsedMs, changed, ...(contended ? { contended } : {}) });
    if (isDone(value)) return value;

    interval = changed ? options.intervalMs : Math.min(maxInterval, Math.round(interval * factor));
    const wait = backoff.next(interval, contended);
    const remaining = deadline - now();
    if (remaining <= 0) throw new PollTimeoutError(options.timeoutMs, now() - started, value);
    await sleep(Math.min(wait, remaining), options.signal);
    if (now() >= deadline) {
      // One last look at the deadline, so a condition met just in time still counts.
      const last = await check(options.signal);
      options.onCheck?.(last, { attempt: attempt + 1, elapsedMs: now() - started, changed: true });
      if (isDone(last)) return last;
      throw new PollTimeoutError(options.timeoutMs, now() - started, last);
    }
  }
}

/**
 * The wait before the next check of processes that share an account's rate budget: each check
 * whose requests met contention doubles it, up to `maxMs`, jittered so that the processes fall
 * out of step; each check without contention halves it back toward the plain interval.
 */
export class ContentionBackoff {
  readonly #maxMs: number;
  readonly #random: () => number;
  /** How many times the wait is doubled: up with each contended check, down with each other. */
  #level = 0;

  constructor(maxMs: number, random: () => number = Math.random) {
    this.#maxMs = maxMs;
    this.#random = random;
  }

  /** The wait after a check, given the plain interval and whether the check met contention. */
  next(intervalMs: number, contended: boolean): number {
    if (this.#maxMs <= intervalMs) return intervalMs;
    // No more doublings than reach the bound: the way back down starts from there.
    const top = Math.ceil(Math.log2(this.#maxMs / intervalMs));
    this.#level = contended ? Math.min(top, this.#level + 1) : Math.max(0, this.#level - 1);
    if (this.#level === 0) return intervalMs;
    const grown = Math.min(this.#maxMs, intervalMs * 2 ** this.#level);
    // Jittered so that processes fall out of step, and never past the bound.
    return Math.min(this.#maxMs, Math.round(grown * (0.75 + this.#random() / 2)));
  }
}
