/**
 * An action's report of its results, led by what changed since the earlier runs: the summary,
 * the comment and the check run open with the classes, the results file gives each item's, the
 * outputs count them, and under `fail-on` only the items that fail the step make it fail.
 */
import type { Outputs } from '../../reporting/result.ts';
import type { Block, ReportText } from '../../reporting/report-text.ts';
import type { ResultsReport } from '../adapter.ts';
import { listSome } from '../job-report.ts';
import type { JUnitTestCase, JUnitTestSuite } from '../junit.ts';
import type { ClassifiedItem } from './classes.ts';
import type { Comparison } from './comparison.ts';
import { historyBlocks, historyData, historyMarkdown, historyOutputs } from './history-report.ts';

export function reportWithHistory<O extends Outputs>(
  report: ResultsReport<O>,
  comparison: Comparison | undefined,
): ResultsReport<O> {
  if (comparison === undefined) return report;
  const markdown = historyMarkdown(comparison);
  const { failure, ...rest } = report;
  const failing = judgedFailure(failure, comparison);
  // A job by its page, which is its own: a case run on several targets is judged on each.
  const jobKey = (job: { url?: string; name: string }) => (job.url ? `url ${job.url}` : `name ${job.name}`);
  const failingJobs = new Set(comparison.failing.map(jobKey));
  return {
    ...rest,
    outputs: (resultsFile) => ({ ...report.outputs(resultsFile), ...historyOutputs(comparison) }),
    summary: afterHeading(report.summary, comparison, markdown),
    resultsData: withHistoryData(report.resultsData, comparison),
    junitSuites: () => quarantinedSkipped(report.junitSuites(), comparison),
    reportOnly: (job) => !failingJobs.has(jobKey(job)),
    ...(report.comment !== undefined
      ? { comment: { ...report.comment, body: afterFirstLine(report.comment.body, markdown) } }
      : {}),
    ...(report.check !== undefined
      ? { check: { ...report.check, summary: afterFirstLine(report.check.summary, markdown) } }
      : {}),
    ...(failing !== undefined ? { failure: failing } : {}),
  };
}

/**
 * The step's failure when tests failed: kept while an item fails the step under `fail-on`,
 * dropped when every failure is quarantined or (with `fail-on: new`) was failing already. A
 * failure kept names the failed items that are not held against the step, and why: the action's
 * message counts every failed job.
 */
function judgedFailure(
  failure: ResultsReport<Outputs>['failure'],
  comparison: Comparison,
): ResultsReport<Outputs>['failure'] {
  if (failure === undefined || failure.kind !== 'tests-failed') return failure;
  if (comparison.failing.length === 0) return undefined;
  const failing = new Set(comparison.failing);
  const spared = comparison.classification.items.filter(
    (item) => item.outcome === 'failed' && !failing.has(item),
  );
  if (spared.length === 0) return failure;
  const why = (item: ClassifiedItem): string =>
    item.class === 'quarantined'
      ? 'quarantined'
      : `${item.class === 'still-failing' ? 'still failing' : item.class}, and fail-on is new`;
  const names = listSome(spared.map((item) => `"${item.name}" (${why(item)})`));
  return { ...failure, message: `${failure.message} Not held against the step: ${names}.` };
}

/** The results file's data with each item's class; data that is no object is kept as it is. */
function withHistoryData(data: unknown, comparison: Comparison): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  return { ...data, history: historyData(comparison) };
}

/** Blocks after the summary's heading block, in its own format; a plain summary after its first line. */
function afterHeading(summary: ReportText, comparison: Comparison, markdown: string): ReportText {
  if (typeof summary === 'string') return afterFirstLine(summary, markdown);
  const blocks: readonly Block[] = summary.format === 'html' ? historyBlocks(comparison) : [markdown];
  const [first, ...others] = summary.blocks;
  return { ...summary, blocks: first === undefined ? [...blocks] : [first, ...blocks, ...others] };
}

function afterFirstLine(text: string, inserted: string): string {
  const end = text.indexOf('\n');
  if (end < 0) return `${text}\n\n${inserted}\n`;
  return `${text.slice(0, end)}\n\n${inserted}\n${text.slice(end)}`;
}

/**
 * The JUnit report with each quarantined case skipped, with its reason: a reporter then counts
 * it neither passed nor failed. Its earlier attempts go too: beside no failure they would be
 * written as `<flakyFailure>`, which reporters count as a pass on a retry. A suite named as the
 * item (a platform of JS tests) has every case skipped.
 */
function quarantinedSkipped(suites: JUnitTestSuite[], comparison: Comparison): JUnitTestSuite[] {
  const reasons = new Map<string, string>();
  for (const item of comparison.classification.items) {
    if (item.class !== 'quarantined' || item.quarantined === undefined) continue;
    reasons.set(
      item.name,
      `quarantined (${item.outcome === 'failed' ? 'failed' : 'passed'}): ${item.quarantined.reason}`,
    );
  }
  if (reasons.size === 0) return suites;
  const skip = (testCase: JUnitTestCase, message: string): JUnitTestCase => {
    const { failure: _failure, error: _error, reruns: _reruns, ...rest } = testCase;
    return { ...rest, skipped: { message } };
  };
  return suites.map((suite) => {
    const whole = reasons.get(suite.name);
    return {
      ...suite,
      cases: suite.cases.map((testCase) => {
        const message = whole ?? reasons.get(testCase.name);
        return message !== undefined ? skip(testCase, message) : testCase;
      }),
    };
  });
}
