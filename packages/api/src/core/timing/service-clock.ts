/**
 * The service's clock, as the `Date` header of its answers tells it. The runner's wall clock may
 * be minutes off (a virtual machine resumed, no time sync): what is compared with the service's
 * own records (a job's creation time, a rate window's reset) is taken from the service's clock,
 * and a runner's clock far from it is said once.
 */
import type { Headers, Logger } from '../values/request.ts';
import { answerDateOf } from './retry.ts';

/** A skew past this is said: a minute is more than the round trip and the header's one-second steps. */
export const SKEW_WARNING_MS = 60_000;

/** The instant of an answer's `Date` header, in milliseconds since the epoch; undefined when absent or unreadable. */
export const serviceDateOf: (headers: Headers) => number | undefined = answerDateOf;

/** Minutes or seconds, as a warning tells a skew. */
function spoken(ms: number): string {
  const seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
}

export class ServiceClock {
  readonly #logger: Logger;
  readonly #wallNow: () => number;
  #offsetMs: number | undefined;
  #warned = false;

  constructor(logger: Logger, wallNow: () => number = Date.now) {
    this.#logger = logger;
    this.#wallNow = wallNow;
  }

  /**
   * How far the service's clock is ahead of this machine's (negative: behind), from the last
   * answer's `Date` header; undefined before an answer carried one.
   */
  get offsetMs(): number | undefined {
    return this.#offsetMs;
  }

  /** The service's time now (ms since the epoch): this machine's, corrected by the last offset seen. */
  now(): number {
    return this.fromLocal(this.#wallNow());
  }

  /** A time of this machine's clock as the service's clock read it then. */
  fromLocal(localMs: number): number {
    return localMs + (this.#offsetMs ?? 0);
  }

  /** Reads an answer's `Date` header; says once when this machine's clock is far from it. */
  observe(headers: Headers): void {
    const date = serviceDateOf(headers);
    if (date === undefined) return;
    // The header is cut to the second: the service's time was somewhere in the second after it.
    this.#offsetMs = date + 500 - this.#wallNow();
    if (this.#warned || Math.abs(this.#offsetMs) <= SKEW_WARNING_MS) return;
    this.#warned = true;
    const runner = -this.#offsetMs;
    this.#logger.warn(
      `This machine's clock is ${spoken(runner)} ${runner > 0 ? 'ahead of' : 'behind'} the service's (its answers' Date header): times compared with the service's records are taken from the service's clock. Set the machine's clock right (NTP) for logs and names that tell the right time.`,
    );
  }
}
