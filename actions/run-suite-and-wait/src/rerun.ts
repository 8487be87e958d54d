/**
 * "Re-run failed jobs": an attempt of a workflow run after the first runs only the cases that did
 * not pass in the attempts before. Their results are the service's own jobs, found by the build
 * names those attempts used (the default name has the run's identity and the attempt in it; a
 * `build-name` of the user's is the same in every attempt), so no artifact and no extra permission
 * is needed.
 */
import type { RequestPacer } from '@sauce-actions/action-kit/step/request-pacer';
import type { WorkflowRun } from '@sauce-actions/action-kit';
import type { JobLister } from '@sauce-actions/action-kit/test-run/job-follower';
import { attemptBuildNames } from '@sauce-actions/action-kit/test-run/build-names';
import { findBuildJobs, type BuildJobsFound } from '@sauce-actions/action-kit/test-run/build-search';
import { reportedStatus } from '@sauce-actions/action-kit/test-run/job-status';
import type { Job } from '@sauce-actions/api';
import { CaseFinder, type KnownCase } from './attempts.ts';
import { platformOf } from './jobs.ts';

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
  /** Why the search may have missed earlier results: it could not read all it needed. */
  incomplete?: string;
}

/**
 * The build names of the attempts before this one; none on a first attempt, or when they cannot be
 * known (no identity of the run: the default name then has a time in it).
 */
export function earlierBuildNames(
  label: string,
  buildName: string | undefined,
  workflow: WorkflowRun,
): { attempt: number; builds: string[] } | undefined {
  const attempt = Number(workflow.runAttempt ?? '1');
  if (!Number.isInteger(attempt) || attempt < 2) return undefined;
  if (buildName !== undefined) return { attempt, builds: [buildName] };
  const builds = attemptBuildNames(label, workflow);
  return builds === undefined ? undefined : { attempt, builds: builds.slice(0, -1) };
}

/**
 * The build names a report gathers: `build-name` when given (the same in every attempt), else the
 * default name of every attempt of the workflow run so far; none without an identity of the run,
 * since the default name then holds the time each shard started.
 */
export function reportBuildNames(
  label: string,
  buildName: string | undefined,
  workflow: WorkflowRun,
): string[] | undefined {
  return buildName !== undefined ? [buildName] : attemptBuildNames(label, workflow);
}

/**
 * The jobs of the earlier attempts' builds, newest first, and the cases among `cases` whose latest
 * run passed on every platform it ran on.
 */
export async function findEarlierResults(
  jobs: JobLister,
  request: BuildJobsRequest & {
    /** The cases this step runs (a shard's share): the ones judged. */
    cases: readonly KnownCase[];
    /** Every case the runs may hold (the whole suite), to tell each job's case; default `cases`. */
    known?: readonly KnownCase[];
    attempt: number;
  },
): Promise<EarlierResults> {
  const finder = new CaseFinder(request.known ?? request.cases);
  const found = await findCaseJobs(jobs, { ...request, finder, judged: request.cases });
  return {
    attempt: request.attempt,
    builds: [...request.builds],
    passed: passedCases(request.cases, finder, found.jobs),
    found: found.jobs.length,
    ...(found.incomplete !== undefined ? { incomplete: found.incomplete } : {}),
  };
}

interface BuildJobsRequest {
  builds: readonly string[];
  nowMs: number;
  /** When the workflow run was created, where the CI system tells: the search goes back to it. */
  runCreatedAtMs?: number | undefined;
  signal: AbortSignal;
  pacer: RequestPacer;
}

/**
 * The jobs of some builds (with the service's ` - N` suffixes), newest first; the search ends a
 * page after every case of `judged` and every build showed (see the kit's `findBuildJobs`).
 */
export async function findCaseJobs(
  jobs: JobLister,
  request: BuildJobsRequest & {
    /** Tells each job's case. */
    finder: CaseFinder;
    judged: readonly KnownCase[];
  },
): Promise<BuildJobsFound> {
  const { finder } = request;
  const judged = new Set(request.judged.map((testCase) => testCase.id));
  return findBuildJobs(jobs, {
    builds: request.builds,
    itemOf: (job) => {
      const caseId = finder.caseOf(job);
      return caseId !== undefined && judged.has(caseId) ? caseId : undefined;
    },
    items: judged.size,
    nowMs: request.nowMs,
    runCreatedAtMs: request.runCreatedAtMs,
    signal: request.signal,
    pacer: request.pacer,
  });
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
