/**
 * What every action's `run` returns, whatever the host: the outputs, the summary of the work that
 * was done, annotations, and a failure when the step must fail. Because a failed step still
 * returns its outputs and summary, hosts publish them first, in one place, for every action.
 */
import { FAILURE_LABELS, type Failure } from '../step/failure.ts';
import { fitText, summaryLimit } from './budget.ts';
import type { CheckRunReport } from './check-run-report.ts';
import type { IssueFiling } from './issue-filing.ts';
import type { ReportText } from './report-text.ts';
import { SummaryBuilder } from './summary.ts';

/** Lists are published the way the list inputs of the next step read them. */
export type OutputValue = string | number | boolean | readonly string[];

export type Outputs = Readonly<Record<string, OutputValue>>;

export interface Annotation {
  level: 'error' | 'warning' | 'notice';
  message: string;
  title?: string;
  /**
   * What the annotation is one of (`failed job`, `failed jobs`): a step shows 10 annotations of a
   * level, so those past it are counted by group in one notice that points to the summary.
   */
  group?: AnnotationGroup;
}

export interface AnnotationGroup {
  one: string;
  other: string;
}

export interface ActionResult<O extends Outputs = Outputs> {
  /** Every output the action declares, empty when there is no value. */
  outputs: O;
  /**
   * The step summary (GitHub-flavoured Markdown with HTML), or '' for none: a string, or blocks
   * with lists of ranked items (`report-text.ts`) that the host cuts to GitHub's 1 MiB.
   */
  summary: ReportText;
  annotations: Annotation[];
  /** Present when the step must fail; the outputs and summary above still hold. */
  failure?: Failure;
  /**
   * With `pr-comment: true`: the pull-request comment of this step, built from the same data as
   * the summary. The GitHub host writes it (in a pull request only); other hosts ignore it.
   */
  comment?: PullRequestComment;
  /**
   * With `check-name`: the check run of this step's results. The GitHub host writes it on the
   * run's head commit (or the pull request's); other hosts ignore it.
   */
  check?: CheckRunReport;
  /**
   * With `issues`: the GitHub issues of the run's newly failing or flaky cases. The GitHub host
   * files or comments them; other hosts have no issues and say so.
   */
  issues?: IssueFiling;
}

/** A comment kept on a pull request, one per step identity, updated in place by each run. */
export interface PullRequestComment {
  /** The action writing it, such as `run-suite-and-wait`. */
  action: string;
  /**
   * What tells this step's comment from the action's other comments on the same pull request
   * within one workflow job, stable across runs: the suite and shard, the app's project. The host
   * adds the workflow and the job.
   */
  identity: Readonly<Record<string, string>>;
  /**
   * GitHub-flavoured Markdown; values from users or the service escaped (`markdown.ts`). The host
   * cuts it at line ends to GitHub's 65,536 characters, so the action puts failures first.
   */
  body: string;
}

/** An output as text: lists comma-separated, which is what the list inputs of the next step accept. */
export function outputText(value: OutputValue): string {
  if (Array.isArray(value)) return value.join(',');
  return String(value);
}

/**
 * The summary as published, within `limit` bytes (what is left of the step's 1 MiB): the work that
 * was done, cut at its blocks to fit, then what made the step fail, always kept.
 */
export function summaryWithFailure(title: string, result: ActionResult, limit?: number): string {
  const section = result.failure
    ? [
        new SummaryBuilder()
          .heading(`${title}: ${FAILURE_LABELS[result.failure.kind]}`)
          .paragraph(result.failure.message)
          .toString(),
      ]
    : [];
  return fitText(result.summary, summaryLimit(limit), section).text;
}
