/**
 * What a run reports: its rounds turned into the report model, the outputs, the results file and
 * the JUnit suites.
 */
import { runBuilds, type RunBuild, type Shard } from '@sauce-actions/action-kit';
import type { EndReason, TestRun } from '@sauce-actions/action-kit/test-run/adapter';
import {
  isFailedJob,
  retryNote,
  sortJobsForReport,
  type JobTally,
  type ReportedJob,
} from '@sauce-actions/action-kit/test-run/job-report';
import type { JUnitRerun, JUnitTestCase, JUnitTestSuite } from '@sauce-actions/action-kit/test-run/junit';
import { testRunOutputs, type TestRunOutputs } from '@sauce-actions/action-kit/test-run/results';
import type { Job } from '@sauce-actions/api';
import type { SuiteBatch } from './batch.ts';
import { endNote } from './ending.ts';
import { plannedCases, type SuitePlan } from './plan.ts';
import type { EarlierResults } from './rerun.ts';
import type { FoundSuite } from './start.ts';

export type SuiteOutputs = {
  'build-name': string;
  /** The folder of the downloaded job assets, set by a step that ran the jobs ('' when none). */
  'assets-dir'?: string;
} & TestRunOutputs;

type SuiteRun = TestRun<Job | undefined, SuiteBatch>;

/** One JUnit suite for the run; every job a case, unfinished jobs errors since they have no result. */
export function junitSuites(
  name: string,
  buildName: string,
  jobs: readonly ReportedJob[],
  startedAt: Date,
): JUnitTestSuite[] {
  const cases = jobs.map((job): JUnitTestCase => {
    const reruns = rerunsOf(job);
    const base: JUnitTestCase = {
      name: job.name,
      classname: `${name}.${job.platform}`,
      ...(job.durationSeconds !== undefined ? { timeSeconds: job.durationSeconds } : {}),
      url: job.url,
      ...(reruns.length > 0 ? { reruns } : {}),
    };
    const details = job.detail ? `${job.detail}\n${job.url}` : job.url;
    if (job.status === 'failed')
      return { ...base, failure: { message: job.detail ?? 'the job failed', details } };
    if (job.status === 'error')
      return { ...base, error: { message: job.detail ?? 'the job ended in error', details } };
    if (job.status !== 'passed')
      return { ...base, error: { message: `did not finish (${job.status})`, details } };
    return base;
  });
  return [{ name, cases, timestamp: startedAt, properties: { build: buildName } }];
}

/** A job's earlier failed runs, as Surefire reports reruns (flaky ones when the job passed at last). */
function rerunsOf(job: ReportedJob): JUnitRerun[] {
  return (job.attempts ?? []).flatMap((attempt, index): JUnitRerun[] => {
    if (!isFailedJob(attempt)) return [];
    const what = attempt.detail ?? (attempt.status === 'error' ? 'the job ended in error' : 'the job failed');
    return [
      {
        kind: attempt.status === 'error' ? 'error' : 'failure',
        message: `attempt ${index + 1}: ${what}`,
        details: attempt.detail ? `${attempt.detail}\n${attempt.url}` : attempt.url,
        url: attempt.url,
      },
    ];
  });
}

/** This job's share of a split run: the shard, the cases it ran, and the cases of the whole selection. */
export interface ShardShare extends Shard {
  cases: number;
  of: number;
}

/** A later attempt of the workflow run: the cases that passed before and were not run again. */
export interface RerunSkipped {
  attempt: number;
  /** Build names of the earlier attempts searched. */
  builds: readonly string[];
  cases: { name: string; jobs: { id: string; url: string; platform: string }[] }[];
  /** Jobs of the earlier attempts found. */
  found: number;
  /** Why the search may have missed older results, when it could not read all it needed. */
  incomplete?: string;
}

export interface SuiteReport {
  suite: FoundSuite | undefined;
  shard?: ShardShare;
  /** Cases this step set out to run (after sharding and `rerun-failed`). */
  planned: number;
  rerun?: RerunSkipped;
  buildName: string;
  builds: readonly string[];
  jobs: readonly ReportedJob[];
  /** The service's records of the jobs, for the results file. */
  seen: readonly Job[];
  /** Whether every job was seen finished. */
  complete: boolean;
  /** Why the wait ended before every job finished. */
  ended?: EndReason;
  /** A sentence under the totals. */
  note?: string;
}

/** The report of the rounds of a run: the last one says how it ended. */
export function suiteReport(
  plan: SuitePlan,
  run: SuiteRun,
  context: { retries: number; jobUrl: (jobId: string) => string },
): SuiteReport {
  const rounds = run.rounds;
  const last = rounds.at(-1);
  const notes = [
    ...(rounds.length > 1
      ? [retryNote(run.jobs, { what: 'jobs', retries: context.retries, attemptsInAll: rounds.length })]
      : []),
    ...(last ? [endNote(last)] : []),
  ].filter((note) => note !== undefined);
  const shard = plan.runs.shard;
  return {
    suite: plan.suite,
    ...(shard ? { shard: { ...shard, cases: plannedCases(plan.planned), of: plan.runs.selected } } : {}),
    planned: plan.items.length,
    ...(plan.earlier ? { rerun: rerunReport(plan.earlier, context.jobUrl) } : {}),
    buildName: rounds[0]?.batch.queued.builds[0] ?? (plan.items.length > 0 ? plan.buildName : ''),
    builds: rounds.flatMap((round) => round.batch.queued.builds),
    jobs: run.jobs,
    seen: rounds.flatMap((round) => round.batch.seen),
    complete: last?.end === undefined,
    ...(last?.end ? { ended: last.end.why } : {}),
    ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
  };
}

function rerunReport(earlier: EarlierResults, jobUrl: (jobId: string) => string): RerunSkipped {
  return {
    attempt: earlier.attempt,
    builds: earlier.builds,
    cases: earlier.passed.map(({ testCase, jobs }) => ({
      name: testCase.name ?? testCase.id,
      jobs: jobs.map((job) => ({ id: job.id, url: jobUrl(job.id), platform: job.platform })),
    })),
    found: earlier.found,
    ...(earlier.incomplete !== undefined ? { incomplete: earlier.incomplete } : {}),
  };
}

export function suiteOutputs(report: SuiteReport, run: SuiteRun, resultsFile: string): SuiteOutputs {
  return { 'build-name': report.buildName, ...testRunOutputs(run, resultsFile) };
}

/** Every build the run's jobs ran in, each linked to the page of its first job where one is known. */
export function buildsOf(report: Pick<SuiteReport, 'builds' | 'seen' | 'jobs'>): RunBuild[] {
  // A retried case's earlier attempts ran in builds of their own: their pages link those.
  const urls = new Map(
    report.jobs.flatMap((job) => [
      [job.id, job.url] as const,
      ...(job.attempts ?? []).map((attempt) => [attempt.id, attempt.url] as const),
    ]),
  );
  return runBuilds(
    report.builds,
    report.seen.map((job) => ({ build: job.build, url: urls.get(job.id) })),
  );
}

/** The results file: every job, failures first, with the service's record of it. */
export function resultsData(report: SuiteReport, tally: JobTally): unknown {
  const records = new Map(report.seen.map((job) => [job.id, job]));
  return {
    suite: report.suite ? { id: report.suite.id, name: report.suite.name } : null,
    ...(report.shard ? { shard: report.shard } : {}),
    ...(report.rerun ? { rerun: report.rerun } : {}),
    buildName: report.buildName,
    builds: buildsOf(report).map((build) => build.name),
    complete: report.complete,
    ...(report.ended !== undefined ? { ended: report.ended } : {}),
    totals: tally,
    jobs: sortJobsForReport(report.jobs).map((job) => ({ ...job, service: records.get(job.id) ?? null })),
  };
}
