/** Spaces request starts to a rate: listing and stopping jobs share one budget of requests a second. */
import { sleep as abortableSleep, monotonicNow } from '@sauce-actions/api';

/** Requests a step starts a second unless told: half the service's documented limit, leaving room for other steps on the account. */
export const REQUESTS_PER_SECOND = 5;

/** Paces request starts to a rate, shared by listing and stopping. */
export class RequestPacer {
  readonly #gapMs: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  #next = 0;
  count = 0;

  /** `now`: the monotonic clock unless told, so that a wall clock set back cannot hold requests up. */
  constructor(perSecond: number, now: () => number = monotonicNow, sleep = abortableSleep) {
    this.#gapMs = perSecond > 0 ? 1000 / perSecond : 0;
    this.#now = now;
    this.#sleep = sleep;
  }

  async take(signal?: AbortSignal): Promise<void> {
    const at = this.#now();
    const start = Math.max(at, this.#next);
    this.#next = start + this.#gapMs;
    this.count += 1;
    if (start > at) await this.#sleep(start - at, signal);
  }
}
