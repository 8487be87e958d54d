/**
 * What the step that has the whole run (a run without `shard`, or a report) tells the world once
 * its report is made: the one message of `notify-url`, sent when `notify-on` says, in its
 * format; and the GitHub issues of `issues`, handed to the host with the report. Neither may
 * change the step's result: a message that fails is a warning, and both are said at the end of
 * the summary.
 */
import { addressOrigin } from '@sauce-actions/api';
import type { StepDeps } from '../../deps.ts';
import type { NotifyInputs } from '../../inputs/notify-inputs.ts';
import type { IssueFiling } from '../../reporting/issue-filing.ts';
import { markdownSentence } from '../../reporting/markdown.ts';
import { oneLine } from '../../reporting/one-line.ts';
import type { ReportText } from '../../reporting/report-text.ts';
import type { Outputs } from '../../reporting/result.ts';
import { safeSentence } from '../../reporting/summary.ts';
import { abortReasonOf } from '../../step/failure.ts';
import type { HistoryOptions, ResultsReport } from '../adapter.ts';
import type { Comparison } from '../history/comparison.ts';
import { caseIssues } from './case-issues.ts';
import { runMessageJson } from './json.ts';
import { runMessage, type RunFacts } from './message.ts';
import { notifyReason } from './notify-on.ts';
import { sendRunMessage } from './send.ts';
import { slackPayload } from './slack.ts';
import { teamsMessage } from './teams.ts';

/** The notification inputs, what the step runs (its series' token) and the run's name. */
type NotifyOptions = NotifyInputs & { runsWhat: string; title: string };

type NotifyDeps = Pick<StepDeps, 'logger' | 'signal' | 'clock' | 'ci' | 'workflow'>;

const PAYLOADS = { slack: slackPayload, teams: teamsMessage, json: runMessageJson } as const;

/** The run as people know it: a report's is the run it reports on. */
export function runFacts(title: string, deps: Pick<NotifyDeps, 'ci' | 'workflow'>): RunFacts {
  const { ci, workflow } = deps;
  const triggering = workflow.triggeredBy;
  const number = triggering?.runNumber ?? workflow.runNumber;
  const attempt = triggering?.runAttempt ?? workflow.runAttempt;
  const url = triggering?.url ?? ci.runUrl;
  const commit = triggering?.headSha ?? ci.commit;
  return {
    run: {
      name: title,
      ...(number !== undefined ? { number } : {}),
      ...(attempt !== undefined ? { attempt } : {}),
      ...(url !== undefined ? { url } : {}),
    },
    ...(ci.repository !== undefined ? { repository: ci.repository } : {}),
    ...(ci.branch !== undefined ? { branch: ci.branch } : {}),
    ...(commit !== undefined ? { commit } : {}),
    ...(ci.runUrl !== undefined ? { reportUrl: ci.runUrl } : {}),
    jobUrlOf: (item) => item.url,
  };
}

/** The report with the run's notifications done and said: the message sent, the issues handed on. */
export async function notifyRun<O extends Outputs>(
  report: ResultsReport<O>,
  comparison: Comparison | undefined,
  history: Pick<HistoryOptions, 'notify' | 'runsWhat' | 'title'> | undefined,
  deps: NotifyDeps,
): Promise<ResultsReport<O>> {
  if (comparison === undefined || history?.notify === undefined) return report;
  const options = { ...history.notify, runsWhat: history.runsWhat, title: history.title };
  const facts = runFacts(options.title, deps);
  const said: string[] = [];
  if (options.url !== undefined) said.push(await sendMessage(comparison, facts, options, deps));
  const issues =
    forkIssues(options, deps) ??
    caseIssues(comparison, facts, {
      issues: options.issues,
      runsWhat: options.runsWhat,
      title: options.title,
      inPullRequest:
        deps.ci.pullRequest !== undefined || deps.workflow.triggeredBy?.pullRequest !== undefined,
    });
  if (typeof issues === 'string') said.push(issues);
  else if (issues !== undefined) said.push(issuesSentence(issues, options));
  else if (options.issues !== 'none') said.push(`No case needed an issue (issues: ${options.issues}).`);
  if (said.length === 0) return report;
  const filed = typeof issues === 'object' ? { issues } : {};
  return { ...report, summary: withClosingNote(report.summary, said), ...filed };
}

/**
 * For a pull request from a fork (its own, or the one a `workflow_run` reports on), why no issue
 * is filed, said once as a warning: its cases are its author's to fix, not the repository's.
 */
function forkIssues(options: NotifyOptions, deps: NotifyDeps): string | undefined {
  if (options.issues === 'none') return undefined;
  if (!deps.ci.pullRequest?.fromFork && !deps.workflow.triggeredBy?.fromFork) return undefined;
  const why = `Issues (issues: ${options.issues}): none filed, as the run is for a pull request from a fork, whose cases are its author's to fix.`;
  deps.logger.warning(why);
  return why;
}

/** Sends the message when `notify-on` says; the sentence the summary says of it. */
async function sendMessage(
  comparison: Comparison,
  facts: RunFacts,
  options: NotifyOptions,
  deps: NotifyDeps,
): Promise<string> {
  const url = options.url ?? '';
  const message = runMessage(comparison, facts);
  const reason = notifyReason(options.on, comparison, message.counts.failed);
  if (reason === undefined) {
    const why =
      options.on === 'never'
        ? 'notify-on is never'
        : `notify-on is ${options.on}, and ${options.on === 'change' ? 'nothing changed since the last run compared' : 'nothing failed'}`;
    deps.logger.info(`No message sent: ${why}.`);
    return `No message sent: ${why}.`;
  }
  if (abortReasonOf(deps.signal) === 'cancelled') {
    deps.logger.info('No message sent: the step was cancelled.');
    return 'No message sent: the step was cancelled.';
  }
  const where = addressOrigin(url);
  deps.logger.info(`Sending the run's message (${options.format}) to ${where}: ${reason}.`);
  const sent = await sendRunMessage(url, PAYLOADS[options.format](message), {
    logger: deps.logger,
    clock: deps.clock,
    signal: deps.signal,
  });
  return sent
    ? `Sent the run's message (${options.format}) to ${where}: ${reason}.`
    : `The run's message (${options.format}) to ${where} was not sent: see the step's warnings.`;
}

function issuesSentence(issues: IssueFiling, options: NotifyOptions): string {
  const quoted = (name: string): string => `"${oneLine(name, 80)}"`;
  const names = issues.cases.map((issue) => quoted(issue.name)).join(', ');
  const left =
    issues.left.length > 0
      ? ` Past the ${issues.cases.length} writes a run makes, not filed: ${issues.left.map(quoted).join(', ')}.`
      : '';
  return `Issues (issues: ${options.issues}): the GitHub host files an issue, or comments on the case's own, for ${names}; the step's log links each.${left}`;
}

/** `summary` with sentences closing it, in its own format. */
function withClosingNote(summary: ReportText, sentences: readonly string[]): ReportText {
  if (typeof summary === 'string') {
    return `${summary.trimEnd()}\n\n${sentences.map(markdownSentence).join('\n\n')}\n`;
  }
  const blocks =
    summary.format === 'html'
      ? sentences.map((sentence) => `<p>${safeSentence(sentence)}</p>\n`)
      : sentences.map(markdownSentence);
  return { ...summary, blocks: [...summary.blocks, ...blocks] };
}
