/**
 * The pull-request comment of a run (`pr-comment`): the counts, the failed cases with links to
 * their jobs, and the flaky ones with a link to every attempt. Built from the summary's data, so it
 * is written when jobs failed too, which is when it matters most.
 */
import { shardText, type PullRequestComment } from '@sauce-actions/action-kit';
import {
  isFailedJob,
  isFlakyJob,
  sortJobsForReport,
  type JobTally,
  type ReportedJob,
} from '@sauce-actions/action-kit/test-run/job-report';
import {
  markdownCode,
  markdownLink,
  markdownSentence,
  markdownTable,
  markdownText,
} from '@sauce-actions/action-kit/reporting/markdown';
import type { SuiteInputs } from './inputs.ts';
import type { SuiteReport } from './report.ts';

/** What names a comment; `report`: the comment of `operation: report`. */
type CommentInputs = Pick<SuiteInputs, 'suite' | 'testCases' | 'shard' | 'targets'> & { report?: boolean };

/** Rows listed per table at most: a comment holds 65,536 characters; the rest is in the step summary. */
const MAX_ROWS = 50;

export function suiteComment(
  inputs: CommentInputs,
  report: SuiteReport,
  tally: JobTally,
): PullRequestComment {
  return {
    action: 'run-suite-and-wait',
    identity: commentIdentity(inputs),
    body: commentBody(report, tally),
  };
}

/**
 * What tells the comments of one job's steps apart, the same on every run: the suite (or the
 * cases), the shard, and the targets, so that a matrix over shards or over targets keeps one
 * comment per matrix job. The host adds the workflow and the job.
 */
export function commentIdentity(inputs: CommentInputs): Record<string, string> {
  return {
    // A report of every shard keeps a comment of its own beside any a shard keeps.
    ...(inputs.report === true ? { report: 'every shard' } : {}),
    ...(inputs.suite !== undefined ? { suite: inputs.suite } : {}),
    ...(inputs.testCases !== undefined
      ? {
          cases: inputs.testCases
            .map((selection) => selection.id)
            .sort()
            .join(','),
        }
      : {}),
    ...(inputs.shard !== undefined ? { shard: shardText(inputs.shard) } : {}),
    ...(inputs.targets !== undefined ? { targets: JSON.stringify(inputs.targets) } : {}),
  };
}

export function commentBody(report: SuiteReport, tally: JobTally): string {
  const label = `${report.suite ? `Suite ${report.suite.name}` : 'Test cases'}${report.shard ? `, shard ${shardText(report.shard)}` : ''}`;
  const unfinished = tally.total - tally.finished;
  const [icon, outcome] =
    report.planned === 0
      ? ['✅', 'nothing to run']
      : tally.failed > 0
        ? ['❌', `${tally.failed} of ${tally.total} jobs failed`]
        : unfinished > 0 || report.ended !== undefined
          ? ['⚠️', `${tally.finished} of ${tally.total} jobs finished`]
          : ['✅', `${tally.passed} of ${tally.total} jobs passed`];
  const parts = [
    `### ${icon} Sauce Labs: ${markdownText(label)}: ${outcome}`,
    markdownTable(
      ['Total', 'Passed', 'Failed', 'Flaky', ...(unfinished > 0 ? ['Did not finish'] : [])],
      [
        [tally.total, tally.passed, tally.failed, tally.flaky, ...(unfinished > 0 ? [unfinished] : [])].map(
          String,
        ),
      ],
      ['right', 'right', 'right', 'right', 'right'],
    ),
  ];
  const facts = [
    ...(report.buildName !== '' ? [`Build ${markdownCode(report.buildName)}`] : []),
    ...(report.rerun && report.rerun.cases.length > 0
      ? [`${report.rerun.cases.length} case(s) passed in an earlier attempt and were not run again`]
      : []),
    ...(report.note !== undefined ? [markdownSentence(report.note)] : []),
  ];
  if (facts.length > 0) parts.push(facts.join('. '));

  const jobs = sortJobsForReport(report.jobs);
  const failed = jobs.filter(isFailedJob);
  if (failed.length > 0) {
    parts.push(`#### Failed (${failed.length})`);
    parts.push(
      table(
        ['Case', 'Platform', 'Why', 'Job'],
        failed.map((job) => [
          markdownText(job.name),
          markdownText(job.platform),
          markdownText(job.detail ?? ''),
          attemptLinks(job),
        ]),
      ),
    );
  }
  const flaky = jobs.filter(isFlakyJob);
  if (flaky.length > 0) {
    parts.push(`#### Flaky (${flaky.length}): passed on a retry`);
    parts.push(
      table(
        ['Case', 'Platform', 'Attempts'],
        flaky.map((job) => [markdownText(job.name), markdownText(job.platform), attemptLinks(job)]),
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
  const attempts = job.attempts ?? [];
  if (attempts.length === 0) return markdownLink(job.id, job.url);
  return [...attempts, job]
    .map((run, index) => `${markdownLink(String(index + 1), run.url)} ${run.status}`)
    .join(', ');
}
