/**
 * The nightly's figures, from the emulator's journal and the marks the benchmark took (when the
 * shards started, when the report ran, when the re-run began). Only what a scenario's own steps
 * sent counts: the other pipeline's requests are left out by their path.
 */
import type { JournalEntry } from './journal-recorder.ts';
import { caseNumber, shardOfCase } from './nightly-seed.ts';
import { isOtherPipeline } from './other-pipeline.ts';
import { START_PATH } from './shard-proxy.ts';

export interface Marks {
  /** When the shards were started (ms since the epoch). */
  start: number;
  reportStart: number;
  reportEnd: number;
  rerunStart?: number;
  rerunEnd?: number;
}

export interface Count {
  requests: number;
  rateLimited: number;
}

export interface NightlyFigures {
  /** Shards and report, from the first request to the report's end. */
  nightly: Count;
  /** From the first request to the last case (or suite) run start, inclusive. */
  startPhase: Count & { seconds: number };
  steady: {
    /** From the last start to the first job's end (the first start plus the job duration). */
    window: { from: string; to: string; seconds: number } | null;
    requests: number;
    perMinute: number | null;
    perHour: number | null;
  };
  report: Count;
  byEndpoint: Record<string, Count>;
  /** The other pipeline's requests on the account in the same time, left out of the rest. */
  otherPipeline: Count;
  rerun?: RerunFigures;
}

export interface RerunFigures {
  /** Every request of the re-run until it was stopped. */
  all: Count;
  /** Requests before the first case start of any shard, and before the last shard's first start. */
  beforeFirstStart: number;
  beforeLastFirstStart: number;
  /** Shards that started a case, and the seconds from the re-run's start to the last one's first start. */
  shardsStarted: number;
  lastFirstStartSeconds: number | null;
  byEndpoint: Record<string, Count>;
}

const timeOf = (entry: JournalEntry): number => Date.parse(entry.time);

export function isStart(entry: JournalEntry): boolean {
  return entry.method === 'POST' && START_PATH.test(entry.path) && entry.status >= 200 && entry.status < 300;
}

/** A path with its ids (hex, UUIDs, numbers) replaced by `:id`. */
export function endpointOf(entry: { method: string; path: string }): string {
  const path = entry.path
    .split('/')
    .map((segment) =>
      /^[0-9a-f]{12,}$/i.test(segment) ||
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(segment) ||
      /^\d+$/.test(segment)
        ? ':id'
        : segment,
    )
    .join('/');
  return `${entry.method} ${path}`;
}

function count(entries: readonly JournalEntry[]): Count {
  return { requests: entries.length, rateLimited: entries.filter((entry) => entry.status === 429).length };
}

function byEndpoint(entries: readonly JournalEntry[]): Record<string, Count> {
  const counts = new Map<string, Count>();
  for (const entry of entries) {
    const key = endpointOf(entry);
    const known = counts.get(key) ?? { requests: 0, rateLimited: 0 };
    known.requests += 1;
    if (entry.status === 429) known.rateLimited += 1;
    counts.set(key, known);
  }
  return Object.fromEntries([...counts].sort((a, b) => b[1].requests - a[1].requests));
}

const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits;

export function nightlyFigures(
  journal: readonly JournalEntry[],
  marks: Marks,
  jobDurationMs: number,
  shards: number,
): NightlyFigures {
  const ours = journal.filter((entry) => !isOtherPipeline(entry));
  const others = journal.filter(
    (entry) => isOtherPipeline(entry) && timeOf(entry) <= (marks.rerunStart ?? marks.reportEnd),
  );
  const nightly = ours.filter((entry) => timeOf(entry) <= marks.reportEnd);
  const starts = nightly.filter(isStart).map(timeOf);
  const firstStart = starts.length > 0 ? Math.min(...starts) : undefined;
  const lastStart = starts.length > 0 ? Math.max(...starts) : undefined;
  const first = nightly.length > 0 ? timeOf(nightly[0]!) : marks.start;
  const startPhase = lastStart === undefined ? [] : nightly.filter((entry) => timeOf(entry) <= lastStart);

  let steady: NightlyFigures['steady'] = { window: null, requests: 0, perMinute: null, perHour: null };
  if (firstStart !== undefined && lastStart !== undefined && firstStart + jobDurationMs > lastStart) {
    const to = firstStart + jobDurationMs;
    const inWindow = nightly.filter((entry) => timeOf(entry) > lastStart && timeOf(entry) <= to).length;
    const minutes = (to - lastStart) / 60_000;
    steady = {
      window: {
        from: new Date(lastStart).toISOString(),
        to: new Date(to).toISOString(),
        seconds: round((to - lastStart) / 1000),
      },
      requests: inWindow,
      perMinute: round(inWindow / minutes),
      perHour: Math.round((inWindow / minutes) * 60),
    };
  }
  const report = nightly.filter((entry) => timeOf(entry) >= marks.reportStart);
  return {
    nightly: count(nightly),
    startPhase: {
      ...count(startPhase),
      seconds: lastStart === undefined ? 0 : round((lastStart - first) / 1000),
    },
    steady,
    report: count(report),
    byEndpoint: byEndpoint(nightly),
    otherPipeline: count(others),
    ...(marks.rerunStart !== undefined
      ? { rerun: rerunFigures(ours, marks.rerunStart, marks.rerunEnd ?? Infinity, shards) }
      : {}),
  };
}

function rerunFigures(ours: readonly JournalEntry[], from: number, to: number, shards: number): RerunFigures {
  const rerun = ours.filter((entry) => timeOf(entry) >= from && timeOf(entry) <= to);
  const firstByShard = new Map<number, number>();
  for (const entry of rerun.filter(isStart)) {
    const n = caseNumber(entry.path.split('/')[4] ?? '');
    if (n === undefined) continue;
    const shard = shardOfCase(n, shards);
    firstByShard.set(shard, Math.min(firstByShard.get(shard) ?? Infinity, timeOf(entry)));
  }
  const firsts = [...firstByShard.values()];
  const earliest = firsts.length > 0 ? Math.min(...firsts) : Infinity;
  const latest = firsts.length > 0 ? Math.max(...firsts) : Infinity;
  return {
    all: count(rerun),
    beforeFirstStart: rerun.filter((entry) => timeOf(entry) < earliest).length,
    beforeLastFirstStart: rerun.filter((entry) => timeOf(entry) < latest).length,
    shardsStarted: firsts.length,
    lastFirstStartSeconds: firsts.length > 0 ? round((latest - from) / 1000) : null,
    byEndpoint: byEndpoint(rerun.filter((entry) => timeOf(entry) < latest)),
  };
}
