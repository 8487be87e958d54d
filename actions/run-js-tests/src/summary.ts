/**
 * The step summary of a run of JS tests: totals, why it ended early, then a row per platform; or,
 * when the start's answer could not be matched to the platforms, what was known.
 */
import {
  shardText,
  SummaryBuilder,
  type ActionResult,
  type Failure,
  type StructuredText,
} from '@sauce-actions/action-kit';
import type { TestRunOutputs } from '@sauce-actions/action-kit/test-run/results';
import {
  formatJobDuration,
  jobsTableList,
  retryNote,
  tallyJobs,
  type ReportedJob,
} from '@sauce-actions/action-kit/test-run/job-report';
import type { JsTestFramework, JsTestPlatform } from '@sauce-actions/api';
import { historyOutputs } from '@sauce-actions/action-kit/test-run/history/history-report';
import type { PlatformResult } from './judge.ts';
import { reportedJobs, type JsTestsReport } from './report.ts';
import type { TestCounts } from './results.ts';

/**
 * The step summary: totals, then a row per platform (failures first) with the test counts and
 * the job link, as ranked rows that the host cuts to the summary's limit.
 */
export function jsTestsSummary(report: JsTestsReport): StructuredText {
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
      .toText();
  }
  const count = (pick: (counts: TestCounts) => number) => (job: ReportedJob) => {
    const counts = byJob.get(job)?.counts;
    return counts ? String(pick(counts)) : '';
  };
  return builder
    .items(
      jobsTableList(jobs, {
        showPlatform: false,
        extraColumns: [
          { header: 'Passed', cell: count((c) => c.passed) },
          { header: 'Failed', cell: count((c) => c.failed) },
          { header: 'Total', cell: count((c) => c.total) },
        ],
      }),
    )
    .toText();
}

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

/** Test ids that cannot be matched to the platforms (or none could be read): nothing can be followed. */
export function unmatchedStartResult(
  inputs: { framework: JsTestFramework; url: string; platforms: readonly JsTestPlatform[] },
  ids: unknown,
  unreadable?: Failure,
): ActionResult<TestRunOutputs> {
  const testIds = Array.isArray(ids) ? ids.map(String) : [];
  const count = inputs.platforms.length;
  return {
    outputs: {
      total: count,
      passed: 0,
      failed: 0,
      flaky: 0,
      'job-ids': '[]',
      'results-file': '',
      ...historyOutputs(undefined),
    },
    summary: unmatchedStartSummary(inputs.framework, inputs.url, inputs.platforms, testIds),
    annotations: [],
    failure: unreadable ?? {
      kind: 'service',
      message: `Sauce Labs answered the start of ${count} platforms with ${Array.isArray(ids) ? ids.length : 'no'} test ids. Run the job again; report it if it repeats.`,
    },
  };
}

/** The summary when the service's answer to the start cannot be matched to the platforms. */
function unmatchedStartSummary(
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
