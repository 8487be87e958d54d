/**
 * Pacing from the service's rate headers (`X-Ratelimit-Limit`, `-Remaining`, `-Reset`), so that
 * the processes sharing one account (the jobs of a workflow matrix) stay under its limit instead
 * of taking turns at 429s.
 *
 * Each account on each origin has a window: what the last answer said of the account's budget,
 * less what this client has started since. The budget is the whole account's, spent by every
 * client using it, none of which sees the others; so each keeps to these rules:
 *
 * - Few left (a quarter of the limit, at least two): alone, it spreads them evenly until the
 *   reset; when others spend the window too, or none is left, it waits for the reset, then a
 *   random part of its spacing, so that the clients waiting for one reset do not all go at once.
 * - In the first short window it sees, it spreads what is above that mark until the reset: jobs
 *   that start together cannot know of each other yet, and each leaves the others room.
 * - Others spend the account when it spent more of the window than this client did. When they
 *   leave half the budget or less, or on a 429, the account is contended: the client spaces its
 *   requests by sixteen fair spacings (the window over the limit), half as much again with each
 *   window found contended, up to 24, and by a quarter less with each answer that has half the
 *   budget left once a whole spacing passed without contention. Together the clients settle on
 *   shares that keep the account under its limit.
 *
 * Nothing of this runs before an answer carried the three headers: without them a request is
 * sent at once, at the cost of one lookup. The answers also tell the poll that sent them, if
 * any, whether they met contention (`recordingContention`), so that it polls less often.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Credentials } from '../values/credentials.ts';
import { monotonicNow } from './deadline.ts';
import { headerValue, resetDelayMs, serviceNowOf } from './retry.ts';

type Headers = Record<string, string | string[] | undefined>;

/** What an answer said of the account's rate window. */
interface RateWindow {
  limit: number;
  remaining: number;
  /** When the window resets, in milliseconds since the epoch. */
  resetAt: number;
  /** The time to reset as the answer gave it, in milliseconds. */
  resetInMs: number;
}

/** The three rate headers of an answer, or undefined unless all three are there and valid. */
export function rateWindowOf(
  headers: Headers,
  now: number,
  wallNow: number = Date.now(),
): RateWindow | undefined {
  const [limit, remaining, reset] = ['limit', 'remaining', 'reset'].map((name) =>
    Number(headerValue(headers, `x-ratelimit-${name}`)?.trim() || NaN),
  ) as [number, number, number];
  if (![limit, remaining, reset].every(Number.isFinite) || limit <= 0 || remaining < 0 || reset < 0) {
    return undefined;
  }
  // A reset given as a Unix time is the service's: reckoned on the service's clock, as the
  // answer's Date header tells it; the window then lives on `now`'s clock (the monotonic one).
  const resetInMs = resetDelayMs(reset, serviceNowOf(headers, wallNow));
  return { limit, remaining: Math.floor(remaining), resetAt: now + resetInMs, resetInMs };
}

/**
 * Requests left at or under which a window counts as low: a quarter of the limit, at least two
 * (but always less than the limit, so that a client's first request never finds it low).
 */
export function lowWater(limit: number): number {
  return Math.min(limit - 1, Math.max(2, Math.floor(limit / 4)));
}

/** What a request's answer said about contention for the account's budget. */
interface ContentionSignal {
  /** The answer was a 429. */
  limited: boolean;
  /** The window was low, others were spending it too, or the answer was a 429. */
  low: boolean;
}

/** What the checks of one poll saw, filled in by every request sent while it runs. */
export interface ContentionRecord {
  limited: boolean;
  low: boolean;
}

const contentionScope = new AsyncLocalStorage<ContentionRecord>();

/** Runs `work` with a record of the contention its requests meet (a poll's check). */
export async function recordingContention<T>(
  work: () => Promise<T>,
): Promise<{ value: T; contention: ContentionRecord }> {
  const contention: ContentionRecord = { limited: false, low: false };
  const value = await contentionScope.run(contention, work);
  return { value, contention };
}

function noteContention(signal: ContentionSignal): void {
  const record = contentionScope.getStore();
  if (!record) return;
  record.limited ||= signal.limited;
  record.low ||= signal.low;
}

/** The client's view of one account's window on one origin. */
interface AccountWindow {
  limit: number;
  /** As last answered, less the requests this client started since. */
  remaining: number;
  resetAt: number;
  /** The longest time to reset seen: the window's length, as far as can be told (at least 1 s). */
  windowMs: number;
  /** This client's own spacing between request starts; 0 while the account is not contended. */
  gapMs: number;
  /** A contended answer grows the spacing once a window: not again before this time. */
  penalisedUntil: number;
  /** The last answer that said the account was contended. */
  contendedAt: number;
  /** After a window was spent: this client's turn in the next one. */
  notBefore: number;
  lastStartAt: number;
  observedAt: number;
  /** When this client first heard of the window. */
  metAt: number;
  /** When this client's requests of the last window's length started. */
  recentStarts: number[];
}

/**
 * A contended client's spacing, in fair spacings (the window's length over the limit: the pace
 * of one client spending the whole budget evenly). Sixteen at first: six clients, say, then use
 * about a third of the budget between them, which leaves room for the first requests of clients
 * that know nothing yet. It grows by half with each window found contended, up to 24.
 */
const CONTENDED_GAP = 16;
const MAX_GAP = 24;
const GAP_GROWTH = 1.5;

/** This client's starts kept to tell its own spending from others': enough for most windows. */
const RECENT_STARTS = 256;

/**
 * Windows up to this long are spread over from a client's first sight of them: a few clients
 * starting together fill a short window with their first requests, whereas a long one (an
 * hourly budget) has room for them.
 */
const SHORT_WINDOW_MS = 10_000;

/** A window not heard of for this many windows (or spacings) is forgotten. */
const STALE_WINDOWS = 8;

/** The spacing at which one client alone would spend the whole budget evenly. */
function fairGapOf(window: AccountWindow): number {
  return window.windowMs / window.limit;
}

/** Credentials told apart without keeping a secret as a key. */
const credentialIds = new WeakMap<Credentials, number>();
let nextCredentialId = 1;

/** Whose budget a request spends: the account (user name, or the credentials) on the origin. */
export function accountKey(origin: string, credentials: Credentials | undefined): string {
  if (!credentials) return `${origin} anonymous`;
  if (credentials.type === 'basic') return `${origin} user:${credentials.username}`;
  let id = credentialIds.get(credentials);
  if (id === undefined) {
    id = nextCredentialId++;
    credentialIds.set(credentials, id);
  }
  return `${origin} token:${id}`;
}

export interface PacingDecision {
  /** How long to wait before sending; 0 sends at once. */
  delayMs: number;
  /** Requests the account has left in its window, as this client counts them. */
  remaining?: number;
  /** Milliseconds until the window resets. */
  resetInMs?: number;
}

const NO_DELAY: PacingDecision = { delayMs: 0 };

/**
 * The windows of the accounts one client uses, shared by all its transports (one per interface,
 * several of which may share an origin and an account).
 */
export class RatePacer {
  readonly #windows = new Map<string, AccountWindow>();
  /**
   * Starts before the first answer told of a window (requests sent in parallel): this client's
   * own, to count as such once the window is known, not as other clients' spending.
   */
  readonly #earlyStarts = new Map<string, number[]>();

  /**
   * When the next request of `key` may start, counted as started then. `latestStart` bounds the
   * wait (a deadline; the longest wait the client accepts): a wait that would go past it is not
   * started, and the request goes at once, since a late request is better than an aborted one.
   */
  schedule(
    key: string,
    options: { now?: number; random?: () => number; latestStart?: number } = {},
  ): PacingDecision {
    const window = this.#windows.get(key);
    const now = options.now ?? monotonicNow();
    if (!window) {
      const early = this.#earlyStarts.get(key) ?? [];
      early.push(now);
      if (early.length > RECENT_STARTS) early.shift();
      this.#earlyStarts.set(key, early);
      return NO_DELAY;
    }
    const random = options.random ?? Math.random;
    const lastHeard = Math.max(window.observedAt, window.lastStartAt, window.notBefore);
    if (now - lastHeard > STALE_WINDOWS * Math.max(window.windowMs, window.gapMs)) {
      this.#windows.delete(key);
      return NO_DELAY;
    }
    let start = Math.max(now, window.notBefore);
    // The client's own spacing, jittered around its mean so that clients do not fall into step.
    if (window.gapMs > 0) start = Math.max(start, window.lastStartAt + window.gapMs * (0.5 + random()));
    if (start < window.resetAt) {
      const low = window.remaining <= lowWater(window.limit);
      // Whether the rest of the window is this client's to spend: not when others spend it too
      // (it has a spacing), nor in the first window it sees, when others may have just started
      // as well (matrix jobs do) and none of them can tell yet.
      const alone = window.gapMs === 0 && start - window.metAt >= window.windowMs;
      if (window.remaining <= 0 || (low && !alone)) {
        // This client's turn comes after the reset, at a random point of its spacing.
        const spreadMs = Math.max(window.gapMs, fairGapOf(window));
        start = Math.max(start, window.resetAt + random() * spreadMs);
      } else if (low) {
        // Few left, to this client alone: spread evenly until the reset.
        const from = Math.max(window.observedAt, window.lastStartAt);
        start = Math.max(start, from + (window.resetAt - from) / window.remaining);
      } else if (start - window.metAt < window.windowMs && window.windowMs <= SHORT_WINDOW_MS) {
        // The first short window this client sees: what is above the low mark, spread evenly
        // until the reset, so that clients starting together leave each other room.
        const from = Math.max(window.observedAt, window.lastStartAt);
        const share = window.remaining - lowWater(window.limit);
        start = Math.max(start, from + (window.resetAt - from) / share);
      }
    }
    let delayMs = Math.max(0, Math.ceil(start - now));
    if (options.latestStart !== undefined && now + delayMs >= options.latestStart) delayMs = 0;
    const startAt = now + delayMs;
    window.lastStartAt = startAt;
    window.recentStarts.push(startAt);
    if (window.recentStarts.length > Math.min(window.limit, RECENT_STARTS)) window.recentStarts.shift();
    if (startAt < window.resetAt) window.remaining -= 1;
    return {
      delayMs,
      remaining: Math.max(0, window.remaining),
      resetInMs: Math.max(0, window.resetAt - now),
    };
  }

  /**
   * Reads an answer's rate headers into the account's window. Returns what the answer said of
   * contention, or undefined when it said nothing (no rate headers and no 429).
   */
  observe(
    key: string,
    status: number,
    headers: Headers,
    options: { now?: number; random?: () => number } = {},
  ): ContentionSignal | undefined {
    const now = options.now ?? monotonicNow();
    const random = options.random ?? Math.random;
    const rate = rateWindowOf(headers, now);
    const limited = status === 429;
    if (!rate) {
      if (!limited) return undefined;
      const signal = { limited, low: true };
      noteContention(signal);
      return signal;
    }
    let window = this.#windows.get(key);
    if (!window) {
      window = {
        limit: rate.limit,
        remaining: rate.remaining,
        resetAt: rate.resetAt,
        windowMs: 1000,
        gapMs: 0,
        penalisedUntil: 0,
        contendedAt: 0,
        notBefore: 0,
        // The request answered started a moment ago: as far as spacing goes, now.
        lastStartAt: now,
        observedAt: now,
        metAt: now,
        recentStarts: this.#earlyStarts.get(key) ?? [now],
      };
      this.#windows.set(key, window);
      this.#earlyStarts.delete(key);
    }
    // Others share the account when it spent more of the window than this client started in
    // the window's length; with half the budget gone or less left, the account is contended.
    const own = window.recentStarts.filter((at) => at > now - window.windowMs).length;
    const shared = rate.limit - rate.remaining > Math.max(1, own);
    const low = rate.remaining <= lowWater(rate.limit);
    const contended = limited || (shared && rate.remaining * 2 <= rate.limit);
    window.limit = rate.limit;
    window.remaining = limited ? 0 : rate.remaining;
    window.resetAt = rate.resetAt;
    window.windowMs = Math.max(window.windowMs, rate.resetInMs);
    window.observedAt = now;
    if (contended) {
      if (now >= window.penalisedUntil) {
        window.gapMs = Math.min(
          MAX_GAP * fairGapOf(window),
          Math.max(CONTENDED_GAP * fairGapOf(window), window.gapMs * GAP_GROWTH),
        );
        window.penalisedUntil = window.resetAt;
      }
      window.contendedAt = now;
    } else if (
      window.gapMs > 0 &&
      rate.remaining * 2 >= rate.limit &&
      now - window.contendedAt >= window.gapMs
    ) {
      // Half the budget or more left, and no contention for a whole spacing: closer again.
      window.gapMs *= 0.75;
      if (window.gapMs < fairGapOf(window)) window.gapMs = 0;
    }
    if (window.remaining <= 0) {
      // Spent: this client's turn is at a random point of its spacing after the reset, so that
      // the clients waiting for the same reset go one after another.
      window.notBefore = Math.max(window.notBefore, window.resetAt + random() * window.gapMs);
    }
    const signal = { limited, low: low || contended };
    noteContention(signal);
    return signal;
  }

  /** What this client knows of an account's window, for logs and tests. */
  windowOf(
    key: string,
  ): Readonly<Pick<AccountWindow, 'limit' | 'remaining' | 'resetAt' | 'gapMs'>> | undefined {
    const window = this.#windows.get(key);
    return (
      window && {
        limit: window.limit,
        remaining: window.remaining,
        resetAt: window.resetAt,
        gapMs: window.gapMs,
      }
    );
  }
}
