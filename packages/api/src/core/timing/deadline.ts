/**
 * Time limits of a request: the caller's deadline, and precise timers for the phases of one
 * attempt. undici's own header and body timeouts run on a coarse clock (about a second), so a
 * short timeout would fire late; these fire on time and abort the attempt through its signal.
 * undici's stay in place as a backstop.
 */

/** The reason an attempt's signal is aborted with when a phase runs out of time. */
export class PhaseTimeoutError extends Error {
  override readonly name = 'TimeoutError';
  readonly code: 'UND_ERR_HEADERS_TIMEOUT' | 'UND_ERR_BODY_TIMEOUT';
  /** Set when the body was still coming at the limit for the whole answer (not a silence). */
  readonly wholeAnswerMs: number | undefined;

  constructor(code: PhaseTimeoutError['code'], ms: number, whole = false) {
    super(
      whole
        ? `the whole answer did not come within ${ms} ms of sending the request`
        : `${code === 'UND_ERR_HEADERS_TIMEOUT' ? 'headers' : 'body'} not received within ${ms} ms`,
    );
    this.code = code;
    this.wholeAnswerMs = whole ? ms : undefined;
  }
}

/**
 * The timers of one attempt: one for the whole answer (its headers, and the body of an answer
 * read whole), and one for silences in the body. Either aborts the attempt's signal.
 */
export class AttemptTimer {
  readonly #controller = new AbortController();
  readonly signal: AbortSignal;
  #answer: ReturnType<typeof setTimeout> | undefined;
  #silence: ReturnType<typeof setTimeout> | undefined;
  #headersReceived = false;

  constructor(callerSignal: AbortSignal | undefined) {
    this.signal = callerSignal
      ? AbortSignal.any([callerSignal, this.#controller.signal])
      : this.#controller.signal;
  }

  /** Starts waiting for the answer: its headers, then (unless `body` says otherwise) its whole body. */
  headers(ms: number): void {
    clearTimeout(this.#answer);
    this.#answer = this.#arm(ms, () =>
      this.#headersReceived
        ? new PhaseTimeoutError('UND_ERR_BODY_TIMEOUT', ms, true)
        : new PhaseTimeoutError('UND_ERR_HEADERS_TIMEOUT', ms),
    );
  }

  /**
   * The headers came: the silence timer of the body starts. `whole` keeps the answer's timer
   * running to the body's end (an answer read whole); else the body is the caller's to pace.
   */
  body(ms: number, whole = true): void {
    this.#headersReceived = true;
    if (!whole) {
      clearTimeout(this.#answer);
      this.#answer = undefined;
    }
    clearTimeout(this.#silence);
    this.#silence = this.#arm(ms, () => new PhaseTimeoutError('UND_ERR_BODY_TIMEOUT', ms));
  }

  /** Bytes came: the silence starts again. */
  activity(): void {
    this.#silence?.refresh();
  }

  clear(): void {
    clearTimeout(this.#answer);
    clearTimeout(this.#silence);
    this.#answer = undefined;
    this.#silence = undefined;
  }

  #arm(ms: number, reason: () => Error): ReturnType<typeof setTimeout> | undefined {
    if (!Number.isFinite(ms) || ms <= 0) return undefined;
    const timer = setTimeout(() => this.#controller.abort(reason()), ms);
    timer.unref();
    return timer;
  }
}

/**
 * Milliseconds on the monotonic clock (`performance.now()`), which deadlines are reckoned on: a
 * wall clock set back or forward (NTP, a virtual machine resumed) moves neither a deadline nor an
 * interval.
 */
export function monotonicNow(): number {
  return performance.now();
}

const signalDeadlines = new WeakMap<AbortSignal, number>();

/**
 * Records that `signal` aborts on its own at `endsAt` (on the monotonic clock, `monotonicNow()`;
 * a step's deadline), so that a request sent with it does not start a wait the deadline would
 * cut short.
 */
export function markDeadline(signal: AbortSignal, endsAt: number): void {
  signalDeadlines.set(signal, endsAt);
}

/**
 * A signal that aborts when any of `signals` does, with the earliest deadline marked on them:
 * `AbortSignal.any` alone would lose it, and a request sent with the result would start waits
 * that the deadline cuts short.
 */
export function anySignal(...signals: AbortSignal[]): AbortSignal {
  const any = AbortSignal.any(signals);
  const ends = signals.flatMap((signal) => signalDeadlines.get(signal) ?? []);
  if (ends.length > 0) signalDeadlines.set(any, Math.min(...ends));
  return any;
}

/** When a request must be over: the earlier of an explicit deadline and its signal's marked one. */
function deadlineOf(signal: AbortSignal | undefined, deadline?: number): number | undefined {
  const marked = signal ? signalDeadlines.get(signal) : undefined;
  if (marked === undefined) return deadline;
  return deadline === undefined ? marked : Math.min(marked, deadline);
}

/** When a request must be over: its `deadline`, or earlier when its signals are marked with one. */
export function requestDeadline(request: {
  signal?: AbortSignal | undefined;
  sendUntil?: AbortSignal | undefined;
  deadline?: number | undefined;
}): number | undefined {
  // `sendUntil` may carry the step's deadline where `signal` outlives it by a grace period.
  return deadlineOf(request.signal, deadlineOf(request.sendUntil, request.deadline));
}
