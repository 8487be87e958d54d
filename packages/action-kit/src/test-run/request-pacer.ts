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

/** The longest a shard holds its starts back: the last of a large matrix starts within this. */
const MAX_STAGGER_MS = 120_000;

/**
 * How long shard `index` of a matrix holds back its first start, so that shards starting
 * together (as a matrix does) queue their cases one after another, each in a slot as long as its
 * own starts take at the kit's pace, instead of all at once against one account's limit: 20
 * shards of 20 cases each start in 4-second slots, at most 5 requests a second between them.
 * Each shard's jobs are then created close together, which keeps its listing windows narrow.
 */
export function shardStaggerMs(shard: { index: number; total: number }, starts: number): number {
  if (shard.total <= 1 || starts <= 0) return 0;
  const slotMs = Math.ceil((starts * 1000) / REQUESTS_PER_SECOND);
  return Math.min((shard.index - 1) * slotMs, Math.round((MAX_STAGGER_MS * (shard.index - 1)) / shard.total));
}
