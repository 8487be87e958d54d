import type { Timeouts } from './request.ts';

/** Options every operation accepts. */
export interface CallOptions {
  /** Aborts the request (and any retry wait). */
  signal?: AbortSignal;
  /**
   * Once this aborts, the request is not sent again and no wait before it goes on, while an
   * attempt already on its way runs on under `signal` (a start whose answer names what it started).
   */
  sendUntil?: AbortSignal;
  /**
   * When the call must be over, on the monotonic clock (`monotonicNow()`, which is
   * `performance.now()`; a step's deadline, at which
   * `signal` aborts). A wait the service asks for that would end later is not started: the call
   * fails at once, saying how long the service asked to wait; an answer still coming then, its
   * body included, is given up.
   */
  deadline?: number;
  /** Overrides the client's timeouts for this call. */
  timeouts?: Partial<Timeouts>;
}

/** Keeps only the call options a request spec takes. */
export function callSpec(
  options: CallOptions | undefined,
): Pick<CallOptions, 'signal' | 'sendUntil' | 'deadline' | 'timeouts'> {
  return {
    ...(options?.signal ? { signal: options.signal } : {}),
    ...(options?.sendUntil ? { sendUntil: options.sendUntil } : {}),
    ...(options?.deadline !== undefined ? { deadline: options.deadline } : {}),
    ...(options?.timeouts ? { timeouts: options.timeouts } : {}),
  };
}
