/** A matrix's shards take turns on the account they share: when each plans, and when it starts its cases. */
import { REQUESTS_PER_SECOND } from '../step/request-pacer.ts';

/**
 * The longest the matrix's planning, and then its starts, are spread over: the last shard of a
 * large matrix plans within a minute and starts within four more, the turns shortened in
 * proportion where they would take longer (the account's limit then paces what is over).
 */
const MAX_PLANNING_MS = 60_000;
const MAX_STARTS_MS = 240_000;
/**
 * A shard's planning, at the kit's pace: finding the suite, listing its cases (a page of 1,000),
 * reading an earlier attempt's jobs, three requests.
 */
const PLAN_SLOT_MS = 600;

type ShardOf = { index: number; total: number };

/** Shard `index`'s turn among slots of `slotMs`, shortened in proportion to fit `maxMs`. */
function turn(shard: ShardOf, slotMs: number, maxMs: number): number {
  return Math.round(Math.min(slotMs, maxMs / shard.total) * (shard.index - 1));
}

/**
 * A matrix's shards take turns on the account they share. Its jobs start together, so each shard
 * holds its requests back by its index: first its planning, in slots of `PLAN_SLOT_MS` one after
 * another, then, once every shard has planned, its case starts, each shard in a slot as long as
 * its own starts take at the kit's pace. 20 shards of 20 cases plan within 12 s and start in
 * 4-second slots after that (the last 88 s after the step began), at most 5 requests a second
 * between them, where all at once they
 * would send 100 a second against a limit of 10; and each shard's jobs are created close
 * together, which keeps its listing windows narrow. Both are offsets from the step's start.
 */
export function planTurnMs(shard: ShardOf | undefined): number {
  if (shard === undefined || shard.total <= 1) return 0;
  return turn(shard, PLAN_SLOT_MS, MAX_PLANNING_MS);
}

/** When, from the step's start, shard `index` starts its `starts` cases. */
export function startTurnMs(shard: ShardOf | undefined, starts: number): number {
  if (shard === undefined || shard.total <= 1 || starts <= 0) return 0;
  const planned = Math.min(PLAN_SLOT_MS, MAX_PLANNING_MS / shard.total) * shard.total;
  const slotMs = Math.ceil((starts * 1000) / REQUESTS_PER_SECOND);
  return Math.round(planned) + turn(shard, slotMs, MAX_STARTS_MS);
}
