/**
 * A step's deadline: a signal that aborts when the host cancels the run or when `timeout` passes,
 * with a reason that tells the two apart (`abortReasonOf`). The runner kills a cancelled step
 * within seconds, so aborting is all the listeners do: the action then stops what it started.
 */
import { markDeadline, monotonicNow } from '@sauce-actions/api';
import { StepTimeoutError } from './failure.ts';

interface Deadline {
  signal: AbortSignal;
  /** Clears the timer; safe to call more than once. */
  dispose(): void;
}

/** Node's timers hold at most this many milliseconds; a longer wait is armed in turns. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** `cancel` (the host's signal) or `timeoutMs`, whichever comes first; 0 or Infinity means no deadline. */
export function withDeadline(cancel: AbortSignal, timeoutMs: number, input = 'timeout'): Deadline {
  const controller = new AbortController();
  const onCancel = (): void => controller.abort(cancel.reason);
  if (cancel.aborted) onCancel();
  else cancel.addEventListener('abort', onCancel, { once: true });

  let timer: NodeJS.Timeout | undefined;
  // On the monotonic clock: a wall clock set back must not put the deadline off.
  const endsAt = monotonicNow() + timeoutMs;
  const arm = (): void => {
    const remaining = endsAt - monotonicNow();
    if (remaining <= 0) {
      controller.abort(new StepTimeoutError(timeoutMs, input));
      return;
    }
    timer = setTimeout(arm, Math.min(remaining, MAX_TIMER_MS));
    // The deadline alone must not keep the process alive once the work is done.
    timer.unref();
  };
  if (Number.isFinite(timeoutMs) && timeoutMs > 0 && !controller.signal.aborted) {
    arm();
    // The client then starts no wait (a 429's Retry-After, a backoff) that the deadline would cut.
    markDeadline(controller.signal, endsAt);
  }

  return {
    signal: controller.signal,
    dispose: () => {
      if (timer) clearTimeout(timer);
      cancel.removeEventListener('abort', onCancel);
    },
  };
}

/**
 * A signal that aborts `graceMs` after `signal` does (with its reason), or when `graceMs` has
 * passed if it already has. For a request whose answer says what was started (a run's build,
 * test ids): cut at once, that answer would be lost while what it started runs on.
 */
export function graceAfter(signal: AbortSignal, graceMs: number): Deadline {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const onAbort = (): void => {
    timer = setTimeout(() => controller.abort(signal.reason), graceMs);
    timer.unref();
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      if (timer) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    },
  };
}
