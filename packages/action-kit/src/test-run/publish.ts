/**
 * What a test step publishes of its results, whether it ran them or gathered them: the results
 * file and the JUnit report (checked before anything is started, written after), then the
 * outputs, the summary, one annotation per failed or flaky job, the comment and the failure.
 */
import type { PublishingInputs } from '../inputs/publishing.ts';
import type { CheckAnnotation, CheckConclusion, CheckRunReport } from '../reporting/check-run-report.ts';
import { checkOutputFiles, type OutputFileOwner } from '../reporting/output-files.ts';
import type { ReportText } from '../reporting/report-text.ts';
import type { ActionResult, Outputs, PullRequestComment } from '../reporting/result.ts';
import { escapeHtml } from '../reporting/summary.ts';
import { describeFailure, type Failure } from '../step/failure.ts';
import type { Logger } from '../step/logger.ts';
import type { ResultsReport, TestResults } from './adapter.ts';
import { failedJobAnnotations, flakyJobAnnotations, isFailedJob, writeResultsFile } from './job-report.ts';
import { writeJUnitFile } from './junit.ts';

interface ReportFiles {
  /** In the runner's temporary folder: the step writes it whatever its inputs. */
  resultsFile: string;
  /** The `junit-file` input, resolved against the workspace. */
  junitFile?: string;
}

const RESULTS_OWNER: OutputFileOwner = {
  what: 'The results file',
  fix: "Check that the runner's temporary folder (RUNNER_TEMP) is a writable folder.",
};

/** Before any request: a report that cannot be written is refused now, not after the run. */
export async function checkReportFiles(files: ReportFiles): Promise<void> {
  await checkOutputFiles([
    ...(files.junitFile !== undefined ? [{ file: files.junitFile, owner: { input: 'junit-file' } }] : []),
    { file: files.resultsFile, owner: RESULTS_OWNER },
  ]);
}

/**
 * The step's result. A report that cannot be written is a failure, never an exception: the
 * outputs and the summary of the work done go out all the same.
 */
export async function publishResults<O extends Outputs>(
  report: ResultsReport<O>,
  results: TestResults,
  options: ReportFiles & { failOnFailure: boolean; logger: Logger },
): Promise<ActionResult<O>> {
  const { logger } = options;
  const written = await writeReportFiles(report, options);
  if (report.tallyLine !== undefined) logger.info(report.tallyLine);
  await report.artifacts?.();
  const failure = report.failure ?? written.failure;
  if (failure !== written.failure && written.failure) logger.warning(written.failure.message);
  const incomplete =
    results.incomplete === undefined
      ? undefined
      : `The jobs shown may not be all: ${results.incomplete}. What was read is published.`;
  return {
    outputs: report.outputs(written.resultsFile),
    summary: incomplete === undefined ? report.summary : withNotice(report.summary, incomplete),
    annotations: [
      ...failedJobAnnotations(
        results.jobs.filter((job) => !report.reportOnly?.(job)),
        options.failOnFailure ? 'error' : 'warning',
      ),
      ...failedJobAnnotations(
        results.jobs.filter((job) => report.reportOnly?.(job) === true),
        'warning',
      ),
      ...flakyJobAnnotations(results.jobs),
      ...(results.notRetried !== undefined
        ? [{ level: 'warning' as const, message: results.notRetried }]
        : []),
      ...(incomplete !== undefined ? [{ level: 'warning' as const, message: incomplete }] : []),
    ],
    ...(report.comment !== undefined ? { comment: report.comment } : {}),
    ...(report.check !== undefined
      ? { check: checkRunOf(report.check, results, failure, options.failOnFailure) }
      : {}),
    ...(report.issues !== undefined ? { issues: report.issues } : {}),
    ...(failure !== undefined ? { failure } : {}),
  };
}

/** `summary` with a notice after its heading block: in the summary's own format. */
function withNotice(summary: ReportText, notice: string): ReportText {
  if (typeof summary === 'string') return `${summary}\n\n> **Warning:** ${notice}\n`;
  const block =
    summary.format === 'html'
      ? `<p><strong>Warning:</strong> ${escapeHtml(notice)}</p>\n`
      : `> **Warning:** ${notice}`;
  const [first, ...rest] = summary.blocks;
  return { ...summary, blocks: first === undefined ? [block] : [first, block, ...rest] };
}

/**
 * The comment and the check run that the step's publishing inputs ask for, from one comment made
 * only when either is: the check run's summary is the comment's body.
 */
export function commentAndCheck(
  inputs: Pick<PublishingInputs, 'prComment' | 'checkName'>,
  comment: () => PullRequestComment,
): Pick<ResultsReport<Outputs>, 'comment' | 'check'> {
  if (!inputs.prComment && inputs.checkName === undefined) return {};
  const made = comment();
  return {
    ...(inputs.prComment ? { comment: made } : {}),
    ...(inputs.checkName !== undefined ? { check: { name: inputs.checkName, summary: made.body } } : {}),
  };
}

/**
 * The check run of the results: failed when the step fails (timed out, cancelled), neutral when
 * jobs failed but the step stays green (`fail-on-failure: false`), else passed; the step's
 * failure above the summary, and an annotation per failed job with its link.
 */
export function checkRunOf(
  check: { name: string; summary: string },
  results: Pick<TestResults, 'jobs' | 'tally'>,
  failure: Failure | undefined,
  failOnFailure: boolean,
): CheckRunReport {
  const { tally } = results;
  const conclusion: CheckConclusion =
    failure?.kind === 'timeout'
      ? 'timed_out'
      : failure?.kind === 'cancelled'
        ? 'cancelled'
        : failure !== undefined
          ? 'failure'
          : tally.failed > 0
            ? 'neutral'
            : 'success';
  const title =
    tally.total === 0
      ? 'Nothing ran'
      : `${tally.passed} of ${tally.total} passed${tally.failed > 0 ? `, ${tally.failed} failed` : ''}${tally.flaky > 0 ? `, ${tally.flaky} flaky` : ''}`;
  const annotations = results.jobs.filter(isFailedJob).map((job): CheckAnnotation => ({
    level: failOnFailure ? 'failure' : 'warning',
    title: job.platform ? `${job.name} (${job.platform})` : job.name,
    message: job.detail ?? (job.status === 'error' ? 'ended in error' : 'failed'),
    details: [...(job.attempts ?? []), job]
      .map(
        (run, index, runs) =>
          `${runs.length > 1 ? `attempt ${index + 1} ` : ''}${run.status}: ${run.url || run.id}`,
      )
      .join('\n'),
  }));
  const summary = failure !== undefined ? `**${failure.message}**\n\n${check.summary}` : check.summary;
  return { name: check.name, conclusion, title, summary, annotations };
}

/** The results file, and the JUnit report when asked; the results file's path is '' when it could not be written. */
async function writeReportFiles(
  report: ResultsReport<Outputs>,
  options: ReportFiles & { logger: Logger },
): Promise<{ resultsFile: string; failure?: Failure }> {
  const { resultsFile, junitFile } = options;
  try {
    await writeResultsFile(resultsFile, report.resultsData);
  } catch (error) {
    return { resultsFile: '', failure: describeFailure(error) };
  }
  if (junitFile === undefined) return { resultsFile };
  try {
    await writeJUnitFile(junitFile, report.junitSuites());
    options.logger.info(`JUnit report written to ${junitFile}.`);
    return { resultsFile };
  } catch (error) {
    return {
      resultsFile,
      failure: {
        kind: 'input',
        message: `Could not write the JUnit report to ${junitFile} (\`junit-file\`): ${(error as Error).message}. The run's outputs and summary are complete; fix \`junit-file\` for the next run.`,
      },
    };
  }
}
