import type { Timeouts } from './transport.ts';

/** Options every operation accepts. */
export interface CallOptions {
  /** Aborts the request (and any retry wait). */
  signal?: AbortSignal;
  /** Overrides the client's timeouts for this call. */
  timeouts?: Partial<Timeouts>;
}

/** Keeps only the call options a request spec takes. */
export function callSpec(options: CallOptions | undefined): Pick<CallOptions, 'signal' | 'timeouts'> {
  return {
    ...(options?.signal ? { signal: options.signal } : {}),
    ...(options?.timeouts ? { timeouts: options.timeouts } : {}),
  };
}
