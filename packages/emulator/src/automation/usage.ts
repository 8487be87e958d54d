/** Activity and usage figures computed from the jobs the store holds. */
import { jobTimes } from './job-view.ts';
import type { JobRecord } from './model.ts';

interface ActivityCounts {
  'in progress': number;
  all: number;
  queued: number;
}

export function activityCounts(jobs: JobRecord[], nowMs: number): ActivityCounts {
  const counts: ActivityCounts = { 'in progress': 0, all: 0, queued: 0 };
  for (const job of jobs) {
    const { status } = jobTimes(job, nowMs);
    if (status === 'queued') counts.queued++;
    if (status === 'in progress') counts['in progress']++;
  }
  // "all" counts the jobs that occupy the account now, queued or running, as the live view does.
  counts.all = counts.queued + counts['in progress'];
  return counts;
}

/** `YYYY-MM-DD` of a UTC day. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Per-day [job count, VM seconds] between two UTC days inclusive, oldest first. */
export function dailyUsage(
  jobs: JobRecord[],
  nowMs: number,
  start: string,
  end: string,
): [string, [number, number]][] {
  const days = new Map<string, [number, number]>();
  for (const job of jobs) {
    const day = utcDay(job.createdMs);
    if (day < start || day > end) continue;
    const times = jobTimes(job, nowMs);
    const vmMs = times.startMs === null ? 0 : (times.endMs ?? nowMs) - times.startMs;
    const entry = days.get(day) ?? [0, 0];
    entry[0] += 1;
    entry[1] += Math.round(vmMs / 1000);
    days.set(day, entry);
  }
  return [...days.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** Mean and peak concurrency, VM minutes and job count over a window ending now. */
export function activitySummary(jobs: JobRecord[], nowMs: number, windowMs: number) {
  const since = nowMs - windowMs;
  const events: [number, number][] = [];
  let busyMs = 0;
  let count = 0;
  for (const job of jobs) {
    const times = jobTimes(job, nowMs);
    if (job.createdMs < since) continue;
    count++;
    if (times.startMs === null) continue;
    const end = times.endMs ?? nowMs;
    busyMs += end - times.startMs;
    events.push([times.startMs, 1], [end, -1]);
  }
  // Ends sort before starts at the same instant, so back-to-back jobs do not count as concurrent.
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let current = 0;
  let peak = 0;
  for (const [, delta] of events) {
    current += delta;
    peak = Math.max(peak, current);
  }
  return {
    concurrency: { mean: Number((busyMs / windowMs).toFixed(4)), peak },
    minutes: Math.round(busyMs / 60_000),
    jobs: count,
  };
}
