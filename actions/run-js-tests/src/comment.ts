/**
 * The pull-request comment (`pr-comment`) and check-run summary (`check-name`) of JS tests: the
 * counts, then the failed and the flaky platforms with links to every attempt's job.
 */
import { shardText, type PullRequestComment } from '@sauce-actions/action-kit';
import {
  markdownCode,
  markdownLink,
  markdownTable,
  markdownText,
} from '@sauce-actions/action-kit/reporting/markdown';
import {
  isFailedJob,
  isFlakyJob,
  tallyJobs,
  type ReportedJob,
} from '@sauce-actions/action-kit/test-run/job-report';
import type { JsTestsInputs } from './inputs.ts';
import { reportedJobs, type JsTestsReport } from './report.ts';

/** Rows listed per table at most: a comment holds 65,536 characters; the rest is in the step summary. */
const MAX_ROWS = 50;

export function jsTestsComment(
  inputs: Pick<JsTestsInputs, 'operation' | 'url' | 'framework' | 'shard' | 'build' | 'name'>,
  report: JsTestsReport,
): PullRequestComment {
  return {
    action: 'run-js-tests',
    // The same on every run of the step: a matrix over shards keeps one comment per shard, and the report its own.
    identity: {
      url: inputs.url,
      framework: inputs.framework,
      ...(inputs.name !== undefined ? { name: inputs.name } : {}),
      ...(inputs.shard !== undefined ? { shard: shardText(inputs.shard) } : {}),
      ...(inputs.operation === 'report' ? { report: 'every shard' } : {}),
    },
    body: jsTestsCommentBody(report),
  };
}

function jsTestsCommentBody(report: JsTestsReport): string {
  const jobs = reportedJobs(report);
  const tally = tallyJobs(jobs);
  const unfinished = tally.total - tally.finished;
  const label = `JS unit tests (${report.framework})${report.shard ? `, shard ${shardText(report.shard)}` : ''}`;
  const [icon, outcome] =
    tally.failed > 0
      ? ['❌', `${tally.failed} of ${tally.total} platforms failed`]
      : unfinished > 0
        ? ['⚠️', `${tally.finished} of ${tally.total} platforms finished`]
        : ['✅', `${tally.passed} of ${tally.total} platforms passed`];
  const parts = [
    `### ${icon} Sauce Labs: ${markdownText(label)}: ${outcome}`,
    markdownTable(
      ['Total', 'Passed', 'Failed', 'Flaky'],
      [[tally.total, tally.passed, tally.failed, tally.flaky].map(String)],
      ['right', 'right', 'right', 'right'],
    ),
    [
      `Test page ${markdownCode(report.url)}`,
      ...(report.build !== undefined ? [`build ${markdownCode(report.build)}`] : []),
    ].join(', '),
  ];
  const failed = jobs.filter(isFailedJob);
  if (failed.length > 0) {
    parts.push(
      `#### Failed (${failed.length})`,
      table(
        ['Platform', 'Why', 'Job'],
        failed.map((job) => [markdownText(job.name), markdownText(job.detail ?? ''), attemptLinks(job)]),
      ),
    );
  }
  const flaky = jobs.filter(isFlakyJob);
  if (flaky.length > 0) {
    parts.push(
      `#### Flaky (${flaky.length}): passed on a retry`,
      table(
        ['Platform', 'Attempts'],
        flaky.map((job) => [markdownText(job.name), attemptLinks(job)]),
      ),
    );
  }
  return parts.join('\n\n');
}

function table(headers: readonly string[], rows: string[][]): string {
  const shown = markdownTable(headers, rows.slice(0, MAX_ROWS));
  return rows.length > MAX_ROWS ? `${shown}\n\n${rows.length - MAX_ROWS} more in the step summary.` : shown;
}

/** The job's link; with earlier attempts, each attempt numbered with its outcome. */
function attemptLinks(job: ReportedJob): string {
  const runs = [...(job.attempts ?? []), job];
  const link = (run: { id: string; url: string }, text: string) =>
    run.url ? markdownLink(text, run.url) : markdownText(text);
  if (runs.length === 1) return link(job, job.id);
  return runs.map((run, index) => `${link(run, String(index + 1))} ${run.status}`).join(', ');
}
