/**
 * What a run reports: the service's jobs turned into the report model, the outputs, the step
 * summary, the results file and the JUnit suites.
 */
import {
  linkHtml,
  runBuilds,
  safeText,
  shardText,
  SummaryBuilder,
  type RunBuild,
  type Shard,
} from '@sauce-actions/action-kit';
import { reportedStatus } from '@sauce-actions/action-kit/test-run/job-follower';
import {
  isFailedJob,
  renderJobsSummary,
  sortJobsForReport,
  type JobTally,
  type ReportedJob,
} from '@sauce-actions/action-kit/test-run/job-report';
import type { JUnitRerun, JUnitTestCase, JUnitTestSuite } from '@sauce-actions/action-kit/test-run/junit';
import type { Job } from '@sauce-actions/api';
import type { FoundSuite, Started } from './start.ts';

export type SuiteOutputs = {
  'build-name': string;
  total: number;
  passed: number;
  failed: number;
  /** Jobs that passed after failing on an earlier attempt (counted in `passed`). */
  flaky: number;
  /** A JSON array: every job run, earlier attempts included. */
  'job-ids': string;
  'results-file': string;
};

export function platformOf(
  job: Pick<Job, 'browser' | 'browser_short_version' | 'browser_version' | 'os'>,
): string {
  const version = job.browser_short_version || job.browser_version || '';
  const browser = [job.browser, version].filter(Boolean).join(' ');
  return [browser, job.os].filter(Boolean).join(', ');
}

function reportJob(job: Job, jobUrl: (id: string) => string, stopped: ReadonlySet<string>): ReportedJob {
  const status = reportedStatus(job, stopped);
  const start = job.start_time ?? job.creation_time;
  const duration =
    job.end_time !== null && job.end_time !== undefined && start ? job.end_time - start : undefined;
  const detail =
    status === 'stopped'
      ? 'stopped before it finished'
      : status === 'error'
        ? (job.error ?? 'ended in error')
        : status === 'failed'
          ? (job.error ?? undefined)
          : undefined;
  return {
    id: job.id,
    name: job.name ?? job.id,
    platform: platformOf(job),
    status,
    ...(duration !== undefined && duration >= 0 ? { durationSeconds: duration } : {}),
    url: jobUrl(job.id),
    ...(detail ? { detail } : {}),
  };
}

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

/** The run's jobs, oldest first, with the known jobs the list never showed (so that totals count them). */
export function reportedJobs(
  seen: readonly Job[],
  started: Pick<Started, 'jobIds' | 'names'>,
  jobUrl: (id: string) => string,
  stopped: ReadonlySet<string>,
  endedEarly: boolean,
): ReportedJob[] {
  const ordered = [...seen].sort((a, b) => a.creation_time - b.creation_time);
  const jobs = ordered.map((job) => reportJob(job, jobUrl, stopped));
  const seenIds = new Set(seen.map((job) => job.id));
  for (const id of started.jobIds) {
    if (seenIds.has(id)) continue;
    jobs.push({
      id,
      name: started.names.get(id) ?? id,
      platform: '',
      status: stopped.has(id) ? 'stopped' : 'queued',
      url: jobUrl(id),
      ...(endedEarly ? { detail: 'not seen in the job list before the wait ended' } : {}),
    });
  }
  return jobs;
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
  /** Whether the search stopped at its page limit, so that older results may have been missed. */
  capped: boolean;
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
  ended?: 'timeout' | 'cancelled' | 'failed' | 'fail-fast';
  /** A sentence under the totals. */
  note?: string;
}

export function suiteOutputs(report: SuiteReport, tally: JobTally, resultsFile: string): SuiteOutputs {
  return {
    'build-name': report.buildName,
    total: tally.total,
    passed: tally.passed,
    failed: tally.failed,
    flaky: tally.flaky,
    'job-ids': JSON.stringify(
      report.jobs.flatMap((job) => [...(job.attempts ?? []).map((attempt) => attempt.id), job.id]),
    ),
    'results-file': resultsFile,
  };
}

export function suiteSummary(report: SuiteReport, tally: JobTally): string {
  const { shard } = report;
  const label = `${report.suite ? `Suite ${report.suite.name}` : 'Test cases'}${shard ? `, shard ${shardText(shard)}` : ''}`;
  const title =
    report.planned === 0
      ? `${label}: nothing to run`
      : `${label}: ${tally.passed} of ${tally.total} jobs passed`;
  const notes = [
    ...(shard ? [shardNote(report.suite, shard)] : []),
    ...(report.rerun ? [rerunNote(report.rerun, report.planned)] : []),
    ...(report.note !== undefined ? [report.note] : []),
  ];
  const builds = buildsOf(report);
  // One build is named under the title; several are listed, linked, after the table.
  const html = renderJobsSummary({
    title,
    ...(report.buildName !== '' && builds.length <= 1 ? { buildName: report.buildName } : {}),
    jobs: report.jobs,
    ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
  });
  const summary = new SummaryBuilder().raw(html);
  if (builds.length > 1) summary.raw(buildsHtml(builds));
  if (report.rerun && report.rerun.cases.length > 0) {
    summary.heading(`Passed in an earlier attempt, not run again (${report.rerun.cases.length})`, 3);
    summary.raw(earlierLinks(report.rerun));
  }
  return summary.toString();
}

/** Every build the run's jobs ran in, each linked to the page of its first job where one is known. */
export function buildsOf(report: Pick<SuiteReport, 'builds' | 'seen' | 'jobs'>): RunBuild[] {
  const urls = new Map(report.jobs.map((job) => [job.id, job.url]));
  return runBuilds(
    report.builds,
    report.seen.map((job) => ({ build: job.build, url: urls.get(job.id) })),
  );
}

/** Builds listed at most: the summary has a size limit, and the results file has them all. */
const MAX_BUILDS_LISTED = 50;

function buildsHtml(builds: readonly RunBuild[]): string {
  const items = builds
    .slice(0, MAX_BUILDS_LISTED)
    .map((build) => (build.url ? linkHtml({ text: build.name, href: build.url }) : safeText(build.name)));
  const more =
    builds.length > MAX_BUILDS_LISTED
      ? `, and ${builds.length - MAX_BUILDS_LISTED} more in the results file`
      : '';
  return `<p>Builds (${builds.length}: the service makes every build name unique, so each case run has its own): ${items.join(', ')}${more}.</p>`;
}

/** Cases skipped, at most this many listed with their links: the summary has a size limit. */
const MAX_SKIPPED_LISTED = 200;

/** What `rerun-failed` found of the earlier attempts, and what it left out. */
function rerunNote(rerun: RerunSkipped, planned: number): string {
  const builds = rerun.builds.map((build) => `"${build}"`).join(', ');
  const where = `build${rerun.builds.length === 1 ? '' : 's'} ${builds}`;
  const capped = rerun.capped
    ? ' The search stopped at the newest 5,000 jobs of the account: a case whose earlier result is older runs again.'
    : '';
  if (rerun.found === 0) {
    return `Attempt ${rerun.attempt} of the workflow run: no job of an earlier attempt was found in ${where} (nor with a suffix such as " - 1"), so every case runs.${capped}`;
  }
  const ran =
    planned === 0
      ? 'nothing had to run again'
      : `only the ${planned} that failed or did not finish there ran`;
  return `Attempt ${rerun.attempt} of the workflow run (\`rerun-failed\`): ${rerun.cases.length} case(s) passed in an earlier attempt (${where}) and were not run again; ${ran}.${capped}`;
}

/** Each skipped case with a link to its earlier passing job on every platform. */
function earlierLinks(rerun: RerunSkipped): string {
  const items = rerun.cases.slice(0, MAX_SKIPPED_LISTED).map(({ name, jobs }) => {
    const links = jobs.map(
      (job) =>
        `${linkHtml({ text: job.id, href: job.url })}${job.platform ? ` (${safeText(job.platform)})` : ''}`,
    );
    return `<li>${safeText(name)}: ${links.join(', ')}</li>`;
  });
  const more =
    rerun.cases.length > MAX_SKIPPED_LISTED
      ? `<p>${rerun.cases.length - MAX_SKIPPED_LISTED} more are in the results file.</p>`
      : '';
  return `<ul>${items.join('')}</ul>${more}`;
}

/** Which share of the cases this job ran: every case runs in exactly one shard. */
function shardNote(suite: FoundSuite | undefined, shard: ShardShare): string {
  const whose = suite ? "the suite's" : 'the';
  const split = `${whose} ${shard.of} test case(s) are split among ${shard.total} shards by case id`;
  return shard.cases === 0
    ? `Shard ${shardText(shard)} has no test case to run: ${split}, and this shard's share is empty.`
    : `Shard ${shardText(shard)} has ${shard.cases} of ${whose} ${shard.of} test case(s), split among ${shard.total} shards by case id; the other shards run the rest.`;
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
