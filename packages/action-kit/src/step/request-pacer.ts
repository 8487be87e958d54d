/**
 * The step's one pace of requests to the service: everything the kit sends for a step (listing,
 * stopping, searching, starting, downloading assets) takes its turn from the same pacer, so that
 * a step's parts running at once never add up to more than its share of the account.
 */
import { sleep as abortableSleep, monotonicNow } from '@sauce-actions/api';

/** Requests a step starts a second: half the service's documented limit, leaving room for other steps on the account. */
export const REQUESTS_PER_SECOND = 5;

/** Spaces request starts to a rate; 0 a second does not space them (tests). */
export class RequestPacer {
  readonly #gapMs: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  #next = 0;
  /** Turns taken, by every part of the step: a part counts its own by the difference. */
  count = 0;

  /** `now`: the monotonic clock unless told, so that a wall clock set back cannot hold requests up. */
  constructor(perSecond: number, now: () => number = monotonicNow, sleep = abortableSleep) {
    this.#gapMs = perSecond > 0 ? 1000 / perSecond : 0;
    this.#now = now;
    this.#sleep = sleep;
  }

  /** Waits for the next turn: resolves when a request may start, rejects when `signal` aborts first. */
  async take(signal?: AbortSignal): Promise<void> {
    const at = this.#now();
    const start = Math.max(at, this.#next);
    this.#next = start + this.#gapMs;
    this.count += 1;
    if (start > at) await this.#sleep(start - at, signal);
  }
}
