/**
 * One abort signal for a waiting action: it fires at the deadline and when the runner cancels the
 * job. The runner sends SIGINT, then SIGTERM, then kills the process within seconds, so the
 * listeners only abort: the action's own code then stops what it started and reports, quickly.
 */

export type CancellationReason = 'timeout' | 'cancelled';

export interface CancellationOptions {
  /** Longest time before the signal aborts with reason `timeout`; 0 or Infinity means none. */
  timeoutMs: number;
  /** Signals that mean the run is cancelled (default SIGINT and SIGTERM). */
  signals?: readonly NodeJS.Signals[];
  /** Called once when the signal aborts, for a log line. */
  onAbort?: (reason: CancellationReason) => void;
}

export interface Cancellation {
  signal: AbortSignal;
  /** Why the signal aborted, or undefined while it has not. */
  reason(): CancellationReason | undefined;
  /** Clears the timer and the process listeners; safe to call more than once. */
  dispose(): void;
}

export function startCancellation(options: CancellationOptions): Cancellation {
  const controller = new AbortController();
  let why: CancellationReason | undefined;
  const signals = options.signals ?? ['SIGINT', 'SIGTERM'];

  const abort = (reason: CancellationReason): void => {
    if (why !== undefined) return;
    why = reason;
    const error = new Error(reason === 'timeout' ? `timed out after ${options.timeoutMs} ms` : 'cancelled');
    error.name = reason === 'timeout' ? 'TimeoutError' : 'AbortError';
    controller.abort(error);
    options.onAbort?.(reason);
  };

  const onSignal = (): void => abort('cancelled');
  // Installing a listener replaces Node's default exit on these signals, which is what lets the
  // action clean up; a second signal while cleaning up changes nothing more.
  for (const name of signals) process.on(name, onSignal);

  const timer =
    Number.isFinite(options.timeoutMs) && options.timeoutMs > 0
      ? setTimeout(() => abort('timeout'), options.timeoutMs)
      : undefined;
  // The deadline alone must not keep the process alive once the work is done.
  timer?.unref();

  let disposed = false;
  return {
    signal: controller.signal,
    reason: () => why,
    dispose: () => {
      if (disposed) return;
      disposed = true;
      if (timer) clearTimeout(timer);
      for (const name of signals) process.off(name, onSignal);
    },
  };
}
