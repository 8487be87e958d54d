/**
 * "Re-run failed jobs": an attempt of a workflow run after the first runs only the cases that did
 * not pass in the attempts before. Their results are the service's own jobs, found by the build
 * names those attempts used (the default name has the attempt in it; a `build-name` of the user's
 * is the same in every attempt), so no artifact and no extra permission is needed.
 */
import type { WorkflowRun } from '@sauce-actions/action-kit';
import type { JobLister } from '@sauce-actions/action-kit/test-run/job-follower';
import { reportedStatus } from '@sauce-actions/action-kit/test-run/job-status';
import { RequestPacer } from '@sauce-actions/action-kit/test-run/request-pacer';
import type { Job } from '@sauce-actions/api';
import { CaseFinder, type KnownCase } from './attempts.ts';
import { platformOf } from './jobs.ts';
import { defaultBuildName } from './selection.ts';

/** GitHub re-runs a workflow run for 30 days after it ran: older jobs cannot be of an earlier attempt. */
const RERUN_WINDOW_MS = 31 * 24 * 3600_000;
/** Jobs listed per page, and pages at most: the newest 5,000 jobs of the account. */
const PAGE_SIZE = 100;
const MAX_PAGES = 50;

/** A job of an earlier attempt, for the summary's links. */
interface EarlierJob {
  id: string;
  platform: string;
  build: string;
}

export interface EarlierResults {
  /** The attempt this is (2 or more). */
  attempt: number;
  /** Build names of the earlier attempts, as asked for (the service may have added ` - N`). */
  builds: string[];
  /** Cases whose last run on every platform passed: not run again. */
  passed: { testCase: KnownCase; jobs: EarlierJob[] }[];
  /** Jobs of the earlier attempts found, of any case. */
  found: number;
  /** Whether the search ended before the jobs of the window ran out (the page limit). */
  capped: boolean;
}

/**
 * The build names of the attempts before this one; none on a first attempt, or when they cannot be
 * known (no run number: the default name then has a time in it).
 */
export function earlierBuildNames(
  label: string,
  buildName: string | undefined,
  workflow: WorkflowRun,
  now: Date,
): { attempt: number; builds: string[] } | undefined {
  const attempt = Number(workflow.runAttempt ?? '1');
  if (!Number.isInteger(attempt) || attempt < 2) return undefined;
  if (buildName !== undefined) return { attempt, builds: [buildName] };
  if (!workflow.runNumber) return undefined;
  const builds = Array.from({ length: attempt - 1 }, (_, k) =>
    defaultBuildName(label, { ...workflow, runAttempt: String(k + 1) }, now),
  );
  return { attempt, builds };
}

/** Whether the service's build name is one of the names asked for, with or without its ` - N` suffixes. */
export function buildMatcher(builds: readonly string[]): (build: string | null) => boolean {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^(?:${builds.map(escape).join('|')})(?: - \\d+)*$`);
  return (build) => build !== null && pattern.test(build);
}

/**
 * The jobs of the earlier attempts' builds, newest first, and the cases among `cases` whose latest
 * run passed on every platform it ran on. The search lists the account's jobs of the last 31 days
 * newest first, and ends once every case has shown and one more page has been read, at the end of
 * the list, or after `MAX_PAGES` pages.
 */
export async function findEarlierResults(
  jobs: JobLister,
  request: {
    /** The cases this step runs (a shard's share): the ones judged. */
    cases: readonly KnownCase[];
    /** Every case the runs may hold (the whole suite), to tell each job's case; default `cases`. */
    known?: readonly KnownCase[];
    attempt: number;
    builds: readonly string[];
    nowMs: number;
    signal: AbortSignal;
    maxRequestsPerSecond: number;
  },
): Promise<EarlierResults> {
  const matches = buildMatcher(request.builds);
  const finder = new CaseFinder(request.known ?? request.cases);
  const judged = new Set(request.cases.map((testCase) => testCase.id));
  const pacer = new RequestPacer(request.maxRequestsPerSecond);
  const from = Math.floor((request.nowMs - RERUN_WINDOW_MS) / 1000);
  const found: Job[] = [];
  const seenCases = new Set<string>();
  let pagesAfterAll = 0;
  let page = 0;
  // Whether the list ended, or every case showed, before the page limit did.
  let ended = false;
  for (; page < MAX_PAGES && !ended; page++) {
    await pacer.take(request.signal);
    const listed = await jobs.list(
      { full: true, from, skip: page * PAGE_SIZE, limit: PAGE_SIZE },
      { signal: request.signal },
    );
    for (const job of listed) {
      if (!matches(job.build)) continue;
      found.push(job);
      const caseId = finder.caseOf(job);
      if (caseId !== undefined && judged.has(caseId)) seenCases.add(caseId);
    }
    // The runs of a case on several platforms are listed together: one more page after the last case shows.
    if (seenCases.size >= judged.size) pagesAfterAll += 1;
    ended = listed.length < PAGE_SIZE || pagesAfterAll >= 2;
  }
  return {
    attempt: request.attempt,
    builds: [...request.builds],
    passed: passedCases(request.cases, finder, found),
    found: found.length,
    capped: !ended,
  };
}

/** The cases whose newest job on each platform passed; `jobs` newest first. */
export function passedCases(
  cases: readonly KnownCase[],
  finder: CaseFinder,
  jobs: readonly Job[],
): { testCase: KnownCase; jobs: EarlierJob[] }[] {
  const latest = new Map<string, Map<string, Job>>();
  for (const job of jobs) {
    const caseId = finder.caseOf(job);
    if (caseId === undefined) continue;
    const byPlatform = latest.get(caseId) ?? new Map<string, Job>();
    const platform = platformOf(job);
    if (!byPlatform.has(platform)) byPlatform.set(platform, job);
    latest.set(caseId, byPlatform);
  }
  return cases.flatMap((testCase) => {
    const runs = [...(latest.get(testCase.id)?.values() ?? [])];
    if (runs.length === 0 || runs.some((job) => reportedStatus(job) !== 'passed')) return [];
    const earlier = runs.map((job) => ({ id: job.id, platform: platformOf(job), build: job.build ?? '' }));
    return [{ testCase, jobs: earlier }];
  });
}
