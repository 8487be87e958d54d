/** Repeats a check until a condition holds, a deadline passes, or the signal aborts. */
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
  /** Whether a check saw something new; default: every check counts as a change. */
  hasChanged?: (previous: T, next: T) => boolean;
  /** Called after every check, for progress reporting. */
  onCheck?: (value: T, info: { attempt: number; elapsedMs: number; changed: boolean }) => void;
  signal?: AbortSignal;
  /** Clock, for tests. */
  now?: () => number;
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
  const now = options.now ?? Date.now;
  const started = now();
  const deadline = started + options.timeoutMs;
  const factor = options.backoffFactor ?? 1;
  const maxInterval = options.maxIntervalMs ?? options.intervalMs;
  let interval = options.intervalMs;
  let previous: { value: T } | undefined;

  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    const value = await check(options.signal);
    const changed = previous === undefined || (options.hasChanged?.(previous.value, value) ?? true);
    previous = { value };
    const elapsedMs = now() - started;
    options.onCheck?.(value, { attempt, elapsedMs, changed });
    if (isDone(value)) return value;

    interval = changed ? options.intervalMs : Math.min(maxInterval, Math.round(interval * factor));
    const remaining = deadline - now();
    if (remaining <= 0) throw new PollTimeoutError(options.timeoutMs, now() - started, value);
    await sleep(Math.min(interval, remaining), options.signal);
    if (now() >= deadline) {
      // One last look at the deadline, so a condition met just in time still counts.
      const last = await check(options.signal);
      options.onCheck?.(last, { attempt: attempt + 1, elapsedMs: now() - started, changed: true });
      if (isDone(last)) return last;
      throw new PollTimeoutError(options.timeoutMs, now() - started, last);
    }
  }
}
