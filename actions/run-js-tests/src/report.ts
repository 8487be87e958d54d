/**
 * The report of a run: what it holds, jobs for the kit's report helpers, the JUnit suites, the
 * results file and the step summary.
 */
import { shardText, SummaryBuilder, type Shard } from '@sauce-actions/action-kit';
import {
  formatJobDuration,
  renderJobsTable,
  retryNote,
  tallyJobs,
  writeResultsFile,
  type ReportedJob,
} from '@sauce-actions/action-kit/test-run/job-report';
import type { JUnitRerun, JUnitTestCase, JUnitTestSuite } from '@sauce-actions/action-kit/test-run/junit';
import type { JsTestFramework, JsTestPlatform, JsTestStatus } from '@sauce-actions/api';
import { reportedTests, type TestCounts } from './results.ts';

export type PlatformStatus = 'passed' | 'failed' | 'error' | 'queued' | 'running' | 'stopped';

export interface PlatformResult {
  /** Id of the JS test of this platform. */
  id: string;
  platform: JsTestPlatform;
  name: string;
  jobId?: string;
  url?: string;
  status: PlatformStatus;
  counts?: TestCounts;
  durationSeconds?: number;
  /** As the service answered: the page's report, a text why the job ended without one, or null. */
  result: JsTestStatus['result'];
  detail?: string;
  /** Earlier runs of this platform, oldest first, when it failed and was run again. */
  attempts?: Omit<PlatformResult, 'attempts'>[];
}

/**
 * How the wait ended: every platform final, the `timeout` or a cancellation (unfinished jobs were
 * then stopped), or the status checks kept failing (platforms as last seen).
 */
export type Outcome = 'completed' | 'timeout' | 'cancelled' | 'status-failed';

export interface JsTestsReport {
  outcome: Outcome;
  framework: JsTestFramework;
  url: string;
  /** This job's share of the platforms, and how many `platforms` lists in all. */
  shard?: Shard & { of: number };
  /** `retries`, when a failed platform was run again. */
  retries?: number;
  build?: string;
  name?: string;
  elapsedSeconds: number;
  platforms: PlatformResult[];
  /** Job ids stopped after a timeout or cancellation. */
  stoppedJobs: string[];
}

/** One job per platform; a platform whose job was never assigned is listed under its test id. */
export function reportedJobs(report: JsTestsReport): ReportedJob[] {
  return report.platforms.map((p) => ({
    id: p.jobId ?? p.id,
    name: p.name,
    platform: `${p.platform[1]} ${p.platform[2]}, ${p.platform[0]}`,
    status: p.status,
    url: p.url ?? '',
    ...(p.durationSeconds !== undefined ? { durationSeconds: p.durationSeconds } : {}),
    ...(p.detail !== undefined ? { detail: p.detail } : {}),
    ...(p.attempts?.length
      ? {
          attempts: p.attempts.map((run) => ({
            id: run.jobId ?? run.id,
            url: run.url ?? '',
            status: run.status,
            ...(run.detail !== undefined ? { detail: run.detail } : {}),
          })),
        }
      : {}),
  }));
}

/** A suite per platform: a case per test where the framework lists them, else one for the platform. */
export function junitSuites(report: JsTestsReport): JUnitTestSuite[] {
  return report.platforms.map((p) => ({
    name: p.name,
    cases: platformCases(report, p),
    properties: {
      framework: report.framework,
      url: report.url,
      ...(p.jobId !== undefined ? { 'job-id': p.jobId } : {}),
      ...(p.url !== undefined ? { 'job-url': p.url } : {}),
    },
  }));
}

function platformCases(report: JsTestsReport, p: PlatformResult): JUnitTestCase[] {
  const link = p.url !== undefined ? { url: p.url } : {};
  const tests = p.result !== null ? reportedTests(report.framework, p.result) : undefined;
  const earlier = p.attempts ?? [];
  if (tests && tests.length > 0) {
    return tests.map((test) => {
      const reruns = testReruns(report.framework, earlier, test.name);
      return {
        name: test.name,
        classname: p.name,
        ...(test.durationSeconds !== undefined ? { timeSeconds: test.durationSeconds } : {}),
        ...(test.passed ? {} : { failure: { message: test.message ?? 'failed' } }),
        ...link,
        ...(reruns.length > 0 ? { reruns } : {}),
      };
    });
  }
  const name = report.name ?? `${report.framework} tests`;
  const reruns = earlier.flatMap((run, index): JUnitRerun[] =>
    run.status === 'failed' || run.status === 'error'
      ? [
          {
            kind: run.status === 'error' ? 'error' : 'failure',
            message: `attempt ${index + 1}: ${run.detail ?? run.status}`,
            ...(run.result !== null ? { details: JSON.stringify(run.result, null, 2) } : {}),
            ...(run.url !== undefined ? { url: run.url } : {}),
          },
        ]
      : [],
  );
  const base: JUnitTestCase = {
    name,
    classname: p.name,
    ...(p.durationSeconds !== undefined ? { timeSeconds: p.durationSeconds } : {}),
    ...link,
    ...(reruns.length > 0 ? { reruns } : {}),
  };
  const message = p.detail ?? p.status;
  switch (p.status) {
    case 'passed':
      return [base];
    case 'failed':
      return [{ ...base, failure: { message, details: JSON.stringify(p.result, null, 2) } }];
    case 'error':
      return [{ ...base, error: { message } }];
    default:
      return [{ ...base, error: { message: `did not finish: ${message}` } }];
  }
}

/** The earlier failures of one test of the page, by its name, in the runs before the last. */
function testReruns(
  framework: JsTestFramework,
  earlier: readonly Omit<PlatformResult, 'attempts'>[],
  testName: string,
): JUnitRerun[] {
  return earlier.flatMap((run, index): JUnitRerun[] => {
    const test =
      run.result !== null
        ? reportedTests(framework, run.result)?.find((t) => t.name === testName)
        : undefined;
    if (test === undefined || test.passed) return [];
    return [
      {
        kind: 'failure',
        message: `attempt ${index + 1}: ${test.message ?? 'failed'}`,
        ...(run.url !== undefined ? { url: run.url } : {}),
      },
    ];
  });
}

/** Every platform's full result, as the service gave it, with the verdict and the counts. */
export async function writeResults(file: string, report: JsTestsReport): Promise<void> {
  await writeResultsFile(file, {
    outcome: report.outcome,
    framework: report.framework,
    url: report.url,
    ...(report.shard !== undefined ? { shard: report.shard } : {}),
    ...(report.build !== undefined ? { build: report.build } : {}),
    ...(report.name !== undefined ? { name: report.name } : {}),
    elapsedSeconds: report.elapsedSeconds,
    platforms: report.platforms.map((p) => ({
      platform: p.platform,
      name: p.name,
      ...runRecord(p),
      flaky:
        p.status === 'passed' &&
        (p.attempts ?? []).some((run) => run.status === 'failed' || run.status === 'error'),
      attempts: (p.attempts ?? []).map(runRecord),
    })),
    stoppedJobs: report.stoppedJobs,
  });
}

/** One run of a platform in the results file. */
function runRecord(run: Omit<PlatformResult, 'attempts'>) {
  return {
    jsTestId: run.id,
    jobId: run.jobId ?? null,
    jobUrl: run.url ?? null,
    status: run.status,
    counts: run.counts ?? null,
    durationSeconds: run.durationSeconds ?? null,
    detail: run.detail ?? null,
    result: run.result,
  };
}

/**
 * The step summary: totals, then a row per platform (failures first) with the test counts and
 * the job link.
 */
export function jsTestsSummary(report: JsTestsReport): string {
  const jobs = reportedJobs(report);
  const tally = tallyJobs(jobs);
  const byJob = new Map(jobs.map((job, index) => [job, report.platforms[index] as PlatformResult]));
  const totals = [`${tally.total} platforms`, `${tally.passed} passed`, `${tally.failed} failed`];
  if (tally.running + tally.queued > 0) totals.push(`${tally.running + tally.queued} unfinished`);
  if (tally.stopped > 0) totals.push(`${tally.stopped} stopped`);
  if (tally.flaky > 0) totals.push(`${tally.flaky} flaky`);
  const { shard } = report;
  const builder = new SummaryBuilder()
    .heading(
      `JS unit tests (${report.framework})${shard ? `, shard ${shardText(shard)}` : ''}: ${headline(report, tally.failed)}`,
    )
    .facts([
      ['Test page', report.url],
      [
        'Shard',
        shard &&
          `${shardText(shard)}: ${report.platforms.length} of the ${shard.of} platforms, split among ${shard.total} shards; the other shards run the rest`,
      ],
      ['Build', report.build],
      ['Name', report.name],
      ['Platforms', totals.join(', ')],
      ['Time', formatJobDuration(report.elapsedSeconds)],
    ]);
  const note = outcomeNote(report);
  if (note !== undefined) builder.paragraph(note);
  if (report.retries !== undefined) {
    builder.paragraph(retryNote(report.platforms, { what: 'platforms', retries: report.retries }));
  }
  if (jobs.length === 0) {
    return builder
      .paragraph(
        "This shard's share of the platforms is empty: nothing ran, and every platform runs in another shard.",
      )
      .toString();
  }
  const count = (pick: (counts: TestCounts) => number) => (job: ReportedJob) => {
    const counts = byJob.get(job)?.counts;
    return counts ? String(pick(counts)) : '';
  };
  return builder
    .raw(
      renderJobsTable(jobs, {
        showPlatform: false,
        extraColumns: [
          { header: 'Passed', cell: count((c) => c.passed) },
          { header: 'Failed', cell: count((c) => c.failed) },
          { header: 'Total', cell: count((c) => c.total) },
        ],
      }),
    )
    .toString();
}

/** What the retries came to: platforms run again, passed then (flaky), failed every attempt. */
/** Why the run ended early, and exactly what was stopped and what was not. */
function outcomeNote(report: JsTestsReport): string | undefined {
  if (report.outcome === 'completed') return undefined;
  const unfinished = report.platforms.filter((p) => p.status === 'queued' || p.status === 'running');
  const stopped = report.platforms.filter((p) => p.status === 'stopped').length;
  const unassigned = unfinished.filter((p) => p.jobId === undefined).length;
  const unstopped = unfinished.length - unassigned;
  const lead =
    report.outcome === 'timeout'
      ? 'The wait timed out'
      : report.outcome === 'cancelled'
        ? 'The run was cancelled'
        : 'Checking the status kept failing, so the platforms are shown as last seen';
  const parts = [
    ...(stopped > 0 ? [`${stopped} unfinished job${stopped === 1 ? ' was' : 's were'} stopped`] : []),
    ...(unassigned > 0
      ? [
          `${unassigned} platform${unassigned === 1 ? '' : 's'} had no job assigned in time, so nothing could be stopped there and ${unassigned === 1 ? 'its job' : 'their jobs'} may still run`,
        ]
      : []),
    ...(unstopped > 0
      ? [`${unstopped} job${unstopped === 1 ? '' : 's'} could not be stopped and may still be running`]
      : []),
  ];
  return `${lead}: ${parts.length > 0 ? parts.join('; ') : 'no job was left to stop'}.`;
}

function headline(report: JsTestsReport, failed: number): string {
  switch (report.outcome) {
    case 'timeout':
      return 'timed out';
    case 'cancelled':
      return 'cancelled';
    case 'status-failed':
      return 'status unknown';
    case 'completed':
      if (report.platforms.length === 0) return 'nothing to run';
      return failed > 0 ? `${failed} failed` : 'all passed';
  }
}

/** The summary when the service's answer to the start cannot be matched to the platforms. */
export function unmatchedStartSummary(
  framework: JsTestFramework,
  url: string,
  platforms: readonly JsTestPlatform[],
  testIds: readonly string[],
): string {
  return new SummaryBuilder()
    .heading(`JS unit tests (${framework}): not followed`)
    .facts([
      ['Test page', url],
      ['Platforms', String(platforms.length)],
      ['Test ids', testIds.join(', ') || 'none'],
    ])
    .paragraph(
      'Sauce Labs did not answer with one test id per platform, so the tests could not be followed. Tests it started may show on the dashboard.',
    )
    .toString();
}
