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

  constructor(code: PhaseTimeoutError['code'], ms: number) {
    super(`${code === 'UND_ERR_HEADERS_TIMEOUT' ? 'headers' : 'body'} not received within ${ms} ms`);
    this.code = code;
  }
}

export class AttemptTimer {
  readonly #controller = new AbortController();
  readonly signal: AbortSignal;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(callerSignal: AbortSignal | undefined) {
    this.signal = callerSignal
      ? AbortSignal.any([callerSignal, this.#controller.signal])
      : this.#controller.signal;
  }

  /** Starts waiting for the answer's headers. */
  headers(ms: number): void {
    this.#arm('UND_ERR_HEADERS_TIMEOUT', ms);
  }

  /** Starts the silence timer of the body; `activity` restarts it. */
  body(ms: number): void {
    this.#arm('UND_ERR_BODY_TIMEOUT', ms);
  }

  activity(): void {
    this.#timer?.refresh();
  }

  clear(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(code: PhaseTimeoutError['code'], ms: number): void {
    this.clear();
    if (!Number.isFinite(ms) || ms <= 0) return;
    this.#timer = setTimeout(() => this.#controller.abort(new PhaseTimeoutError(code, ms)), ms);
    this.#timer.unref();
  }
}

/** Reads a body whole as text, restarting the silence timer on every chunk. */
export async function readText(body: AsyncIterable<Buffer>, timer: AttemptTimer): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) {
    timer.activity();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const signalDeadlines = new WeakMap<AbortSignal, number>();

/**
 * Records that `signal` aborts on its own at `endsAt` (milliseconds since the epoch; a step's
 * deadline), so that a request sent with it does not start a wait the deadline would cut short.
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
export function deadlineOf(signal: AbortSignal | undefined, deadline?: number): number | undefined {
  const marked = signal ? signalDeadlines.get(signal) : undefined;
  if (marked === undefined) return deadline;
  return deadline === undefined ? marked : Math.min(marked, deadline);
}
