/** Durations as users write them (`90`, `90s`, `30m`, `1h30m`, `500ms`, `2d`) and as messages show them. */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const UNIT_MS: Record<string, number> = { ms: 1, s: SECOND, m: MINUTE, h: HOUR, d: DAY };

/** The shortest and longest value a duration input takes, in milliseconds. */
export interface DurationBounds {
  minMs: number;
  maxMs: number;
}

/**
 * Node's timers hold at most 2^31 − 1 ms (about 24.8 days): a longer delay fires after 1 ms, so
 * every duration input is bounded well below it.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * `timeout`, in every action: a job on a GitHub-hosted runner ends at 6 hours; 24 hours leaves
 * room for self-hosted runners while refusing the slip of a unit (`3600h` meant as seconds).
 */
export const TIMEOUT_BOUNDS: DurationBounds = { minMs: SECOND, maxMs: 24 * HOUR };

/**
 * `poll-interval`, in every action: status checks more often than once a second learn nothing
 * new (jobs and tunnels change over seconds) and spend the account's rate limit, which every job
 * of the account shares (historically 10 requests a second); a status seen more than 10 minutes
 * late is not following it any more.
 */
export const POLL_INTERVAL_BOUNDS: DurationBounds = { minMs: SECOND, maxMs: 10 * MINUTE };

/**
 * `max-duration` of run-js-tests, sent as the job's `maxDuration` capability in seconds. The
 * seeds give only its default (180 s); the live service documents a maximum of 10800 s (3 h;
 * Sauce Labs test configuration options, and clients that set it, such as test-saucelabs).
 */
export const MAX_DURATION_BOUNDS: DurationBounds = { minMs: SECOND, maxMs: 3 * HOUR };

/** How a duration is written, for refusals and documentation. */
export const DURATION_FORM =
  'seconds (`90`) or a number with `ms`, `s`, `m`, `h` or `d` (`90s`, `30m`, `1h30m`, `2d`)';

/**
 * Milliseconds of `90` (seconds), `90s`, `30m`, `1h`, `1h30m` or `500ms`; `undefined` when
 * malformed (a sign, an exponent, a space, another unit). Too many digits give `Infinity`, which
 * no bound admits.
 */
export function parseDuration(text: string): number | undefined {
  const value = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * SECOND);
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(value)) return undefined;
  let total = 0;
  for (const match of value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)) {
    total += Number(match[1]) * (UNIT_MS[match[2] as string] as number);
  }
  return Math.round(total);
}

/** The shortest exact form: `1h`, `30m`, `90s`, `500ms`. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms % HOUR === 0) return `${ms / HOUR}h`;
  if (ms % MINUTE === 0) return `${ms / MINUTE}m`;
  if (ms % SECOND === 0) return `${ms / SECOND}s`;
  return `${ms}ms`;
}

/** `from 1s to 24h`. */
export function formatBounds(bounds: DurationBounds): string {
  return `from ${formatDuration(bounds.minMs)} to ${formatDuration(bounds.maxMs)}`;
}
