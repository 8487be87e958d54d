/**
 * The jobs of each owner in creation order, derived from the records (never persisted), so that a
 * page of the job list costs a binary search and the page instead of a filter and a sort of every
 * job the emulator holds.
 *
 * The list's order is newest first; jobs created in the same millisecond keep the order of the
 * records (`Object.values` of the jobs, which is also the order a snapshot keeps), as a stable
 * sort of the records newest first gives. Each owner's array is kept ascending by creation time and, within one
 * time, by that order, so that a new job is appended; the list then reads the array from its end,
 * each run of equal times forward.
 */
import type { JobRecord } from '../model.ts';

/** A page of the list: inclusive creation-time bounds in epoch seconds, then skip and limit. */
export interface JobPage {
  from?: number | undefined;
  to?: number | undefined;
  skip: number;
  limit: number;
}

const seconds = (job: JobRecord): number => Math.floor(job.createdMs / 1000);

/** First index in [lo, hi) whose job passes `test`, for a test false then true along the array. */
function firstWhere(jobs: JobRecord[], lo: number, hi: number, test: (job: JobRecord) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const job = jobs[mid];
    if (job && test(job)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * First index, no lower than `lo`, of the run of jobs created at `created` that holds `at`:
 * galloping back from `at`, so that a run costs the log of its length, not of the whole array.
 */
function runStart(jobs: JobRecord[], at: number, lo: number, created: number): number {
  let known = at;
  let step = 1;
  while (known - step >= lo && jobs[known - step]?.createdMs === created) {
    known -= step;
    step *= 2;
  }
  return firstWhere(jobs, Math.max(lo, known - step + 1), known, (job) => job.createdMs === created);
}

export class JobIndex {
  /** The records this index was built from: a reset or a load replaces them, and the index with them. */
  readonly source: Record<string, JobRecord>;
  readonly #byOwner = new Map<string, JobRecord[]>();
  /** Each job's place in the records' order, the tie-break of equal creation times. */
  readonly #rank = new WeakMap<JobRecord, number>();
  #nextRank = 0;
  /** Longest duration of any job indexed: a job created longer ago than this has finished. */
  #longestMs = 0;

  constructor(source: Record<string, JobRecord>) {
    this.source = source;
    for (const job of Object.values(source)) {
      this.#rank.set(job, this.#nextRank++);
      this.#longestMs = Math.max(this.#longestMs, job.durationMs);
      const jobs = this.#byOwner.get(job.owner);
      if (jobs) jobs.push(job);
      else this.#byOwner.set(job.owner, [job]);
    }
    // Once, on load: records written in creation order are already sorted.
    for (const jobs of this.#byOwner.values()) jobs.sort((a, b) => this.#compare(a, b));
  }

  /** A job just added to the records, so after every job there in their order. */
  add(job: JobRecord): void {
    this.#rank.set(job, this.#nextRank++);
    this.#longestMs = Math.max(this.#longestMs, job.durationMs);
    const jobs = this.#byOwner.get(job.owner);
    if (!jobs) {
      this.#byOwner.set(job.owner, [job]);
      return;
    }
    // A clock set back creates a job older than the newest: it goes after the last not newer.
    const at = firstWhere(jobs, 0, jobs.length, (other) => other.createdMs > job.createdMs);
    if (at === jobs.length) jobs.push(job);
    else jobs.splice(at, 0, job);
  }

  remove(job: JobRecord): void {
    const jobs = this.#byOwner.get(job.owner);
    if (!jobs) return;
    const at = firstWhere(jobs, 0, jobs.length, (other) => this.#compare(other, job) >= 0);
    if (jobs[at] === job) jobs.splice(at, 1);
  }

  /** The owner's jobs within the bounds, newest first, from `skip` on, at most `limit` of them. */
  page(owner: string, { from, to, skip, limit }: JobPage): JobRecord[] {
    const jobs = this.#byOwner.get(owner) ?? [];
    const lo = from === undefined ? 0 : firstWhere(jobs, 0, jobs.length, (job) => seconds(job) >= from);
    const hi = to === undefined ? jobs.length : firstWhere(jobs, lo, jobs.length, (job) => seconds(job) > to);
    const page: JobRecord[] = [];
    // `at` walks the array down, one place per listed job; equal times never straddle a bound in
    // seconds, so every run lies whole inside [lo, hi).
    let at = hi - 1 - skip;
    const first = jobs[at];
    if (at < lo || !first) return page;
    // The run holding the first listed job may continue above it: the list starts inside it.
    let end = firstWhere(jobs, at, hi, (job) => job.createdMs !== first.createdMs) - 1;
    for (let job = jobs[at]; job && at >= lo && page.length < limit; job = jobs[at]) {
      const start = runStart(jobs, at, lo, job.createdMs);
      // Listed in the records' order, the run's (end - at)-th job comes at place `at`.
      const begin = start + (end - at);
      const count = Math.min(end + 1 - begin, limit - page.length);
      for (const listed of jobs.slice(begin, begin + count)) page.push(listed);
      at = start - 1;
      end = at;
    }
    return page;
  }

  /**
   * The owner's jobs that may not have finished at `nowMs`, in no particular order: a job ends at
   * the latest its duration after its creation, so only the newest few are looked at.
   */
  recent(owner: string, nowMs: number): JobRecord[] {
    const jobs = this.#byOwner.get(owner) ?? [];
    const since = nowMs - this.#longestMs;
    const recent: JobRecord[] = [];
    for (let i = jobs.length - 1; i >= 0; i--) {
      const job = jobs[i];
      if (!job || job.createdMs <= since) break;
      recent.push(job);
    }
    return recent;
  }

  /** The owner's jobs created at or after `sinceMs`, oldest first. */
  createdSince(owner: string, sinceMs: number): JobRecord[] {
    const jobs = this.#byOwner.get(owner) ?? [];
    return jobs.slice(firstWhere(jobs, 0, jobs.length, (job) => job.createdMs >= sinceMs));
  }

  #compare(a: JobRecord, b: JobRecord): number {
    return a.createdMs - b.createdMs || (this.#rank.get(a) ?? 0) - (this.#rank.get(b) ?? 0);
  }
}
