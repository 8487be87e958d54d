/**
 * When a test step polls its jobs next, on an account that other steps and pipelines share.
 *
 * What a poll can learn is that a job ended, and jobs of one run take about as long as each
 * other: AI-authored cases and browser pages run for minutes, up to half an hour. Measured with
 * `npm run bench:nightly` (bench/README.md), the gaps are:
 *
 * - **Growing while nothing ends**: by half each poll, from `poll-interval` to `MAX_POLL_GAP_MS`,
 *   and never past a third of the time the jobs have been followed, so that an end is seen at
 *   most a third of that late: a 30-minute job is about 18 polls at the default 10 s instead of
 *   180. (Half instead of a third saved a third of the polls and cost 20 shards of 8-minute jobs
 *   nearly three minutes to see their end; a quarter cost 6 % more polls than a third.)
 * - **Back down when an end is expected**: to the floor once a job ended (the rest of the run are
 *   likely near theirs), and never past the expected end of the next unfinished job, that is its
 *   start plus the median time of the run's finished jobs.
 * - **Shared by a matrix**: a shard of a matrix of n polls at least n × `poll-interval` ÷
 *   `MATRIX_POLL_SHARE` apart, so that the matrix as a whole polls the account at most 2.5 times
 *   as often as one step following every job would, whatever the shard count: at the default
 *   10 s, 20 shards poll every 80 s or more each, 15 polls a minute between them, against 3,500
 *   requests an hour the account has for every pipeline.
 */
import type { Job } from '@sauce-actions/api';
import { isJobFinished } from './job-status.ts';

/** How many times as often as one step a whole matrix polls, at most. */
export const MATRIX_POLL_SHARE = 2.5;
/** The longest gap unless `poll-interval` is longer: an end is seen at most five minutes late. */
export const MAX_POLL_GAP_MS = 300_000;
/** A poll due at a job's expected end waits this much more, for the service to record the end. */
const END_MARGIN_MS = 2000;
const GROWTH = 1.5;
/** The longest gap, as a part of the time followed. */
const ELAPSED_SHARE = 1 / 3;

export interface PollPace {
  /** `poll-interval`: the first gap and, alone, the shortest. */
  baseMs: number;
  /** The longest gap (default `MAX_POLL_GAP_MS`, or `baseMs` if longer). */
  maxMs?: number;
  /** Shards of the matrix this step is one of (1 without `shard`). */
  shards?: number;
}

/** The shortest gap: `poll-interval`, or a shard's part of the matrix's spacing if longer. */
export function pollFloor(pace: PollPace): number {
  const shards = pace.shards ?? 1;
  return Math.max(pace.baseMs, (pace.baseMs * shards) / MATRIX_POLL_SHARE);
}

export interface PollState {
  /** The gap before the poll just made; absent before the first gap. */
  lastGapMs?: number;
  /** Whether a job was seen ending at the poll just made. */
  ended: boolean;
  /** Milliseconds until the next expected end of an unfinished job, when one is expected. */
  nextEndInMs?: number | undefined;
  /** How long the jobs have been followed (since the first poll); absent: no bound from it. */
  elapsedMs?: number;
}

/** The wait before the next poll. */
export function nextPollGap(pace: PollPace, state: PollState): number {
  const floor = pollFloor(pace);
  const cap = Math.max(floor, pace.maxMs ?? MAX_POLL_GAP_MS);
  let gap = state.lastGapMs === undefined || state.ended ? floor : Math.min(cap, state.lastGapMs * GROWTH);
  if (state.elapsedMs !== undefined) gap = Math.min(gap, state.elapsedMs * ELAPSED_SHARE);
  if (state.nextEndInMs !== undefined && state.nextEndInMs >= 0) {
    gap = Math.min(gap, Math.max(floor, state.nextEndInMs + END_MARGIN_MS));
  }
  return Math.round(Math.max(floor, gap));
}

/**
 * Milliseconds from `nowSeconds` (the service's clock) to the soonest expected end of a running
 * job: its start plus the median time the run's finished jobs took. Undefined until a job of the
 * run finished with both times known, or when every expected end is past (the job is late: the
 * gap grows again).
 */
export function nextExpectedEndInMs(jobs: readonly Job[], nowSeconds: number): number | undefined {
  const durations = jobs
    .filter((job) => isJobFinished(job) && job.start_time !== null && job.end_time !== null)
    .map((job) => (job.end_time as number) - (job.start_time as number))
    .filter((seconds) => Number.isFinite(seconds) && seconds >= 0)
    .sort((a, b) => a - b);
  if (durations.length === 0) return undefined;
  const median = durations[Math.floor((durations.length - 1) / 2)] as number;
  const ends = jobs
    .filter((job) => !isJobFinished(job) && job.start_time !== null)
    .map((job) => (job.start_time as number) + median)
    .filter((end) => end >= nowSeconds);
  if (ends.length === 0) return undefined;
  return (Math.min(...ends) - nowSeconds) * 1000;
}
