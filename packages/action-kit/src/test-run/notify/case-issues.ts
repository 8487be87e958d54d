/**
 * What `issues` asks the GitHub host to write for a run: for each newly failing or flaky case
 * (new failures first), its issue's marker, title and body, and the comment of a later
 * occurrence, at most `MAX_ISSUE_WRITES` of them, the rest named for the summary. A pull request's
 * new failures are its own to fix: from a pull request only flaky cases are filed.
 */
import {
  issueMarker,
  MAX_ISSUE_WRITES,
  type CaseIssue,
  type IssueFiling,
} from '../../reporting/issue-filing.ts';
import { markdownCode, markdownLink, markdownText } from '../../reporting/markdown.ts';
import { oneLine } from '../../reporting/one-line.ts';
import type { IssuesFor } from '../../inputs/notify-inputs.ts';
import type { ClassifiedItem } from '../history/classes.ts';
import type { Comparison } from '../history/comparison.ts';
import { itemKey, seriesToken } from '../history/run-record.ts';
import { messageUrl, type RunFacts } from './message.ts';

/** Characters of an issue's title at most; GitHub takes 256. */
const MAX_TITLE_LENGTH = 200;

export interface CaseIssueOptions {
  issues: IssuesFor;
  /** What the step runs: with the series, the issue's marker when nothing was compared. */
  runsWhat: string;
  /** The run's name (`Regression`), in each title and body. */
  title: string;
  /** A pull request's run files flaky cases only. */
  inPullRequest: boolean;
}

type Filed = ClassifiedItem & { class: 'new' | 'flaky' };

function filed(item: ClassifiedItem, options: CaseIssueOptions): item is Filed {
  const { issues } = options;
  if (item.class === 'flaky') return issues === 'flaky' || issues === 'both';
  if (item.class === 'new') return !options.inPullRequest && (issues === 'new' || issues === 'both');
  return false;
}

const WORDS = { new: 'New failure', flaky: 'Flaky' } as const;

/** The run as a link: `run #42 (attempt 2)` to its page. */
function runLink(facts: RunFacts): string {
  const { number, attempt, url } = facts.run;
  const name =
    `run ${number !== undefined ? `#${number}` : ''}${attempt !== undefined && attempt !== '1' ? ` (attempt ${attempt})` : ''}`.trim();
  const href = messageUrl(url);
  return href !== undefined ? markdownLink(name, href) : markdownText(name);
}

/** Where and on what the run was: `on `main` at `0123456789ab``. */
function runWhere(facts: RunFacts): string {
  return [
    facts.branch !== undefined ? `on ${markdownCode(facts.branch)}` : '',
    facts.commit !== undefined ? `at ${markdownCode(facts.commit.slice(0, 12))}` : '',
  ]
    .filter((part) => part !== '')
    .join(' ');
}

function links(item: Filed, facts: RunFacts): string {
  const job = messageUrl(facts.jobUrlOf?.(item));
  const lastPassed = item.class === 'new' ? messageUrl(item.lastPassed?.url) : undefined;
  return [
    ...(job !== undefined ? [markdownLink('job', job)] : []),
    ...(lastPassed !== undefined ? [markdownLink('last passing run', lastPassed)] : []),
  ].join(' · ');
}

function caseIssue(item: Filed, token: string, facts: RunFacts, options: CaseIssueOptions): CaseIssue {
  const marker = issueMarker(token, itemKey(item.item));
  const what = item.class === 'flaky' ? 'was flaky' : 'failed for the first time';
  const seen = `${what} in ${runLink(facts)} ${runWhere(facts)}`.trim();
  const jobs = links(item, facts);
  const history =
    item.comparedRuns > 0
      ? `It failed in ${item.failedRuns} of the ${item.comparedRuns} earlier run(s) compared.`
      : 'No earlier run that ran it was compared.';
  const body = [
    marker,
    `${markdownText(item.name)} (${markdownText(options.title)}) ${seen}.`,
    ...(jobs !== '' ? [jobs] : []),
    history,
    `<sub>Filed by sauce-actions (${markdownCode(`issues: ${options.issues}`)}). Later occurrences are added as comments, found by the hidden line above; the issue is never closed or reopened automatically.</sub>`,
  ].join('\n\n');
  const again = `${item.class === 'flaky' ? 'Flaky' : 'Failed'} again in ${runLink(facts)} ${runWhere(facts)}`;
  const occurrence = [`${again.trim()}.`, ...(jobs !== '' ? [jobs] : [])].join('\n\n');
  const title = oneLine(`${WORDS[item.class]}: ${item.name} (${options.title})`, MAX_TITLE_LENGTH);
  return { marker, name: oneLine(item.name), title, body, occurrence };
}

/** The issues of a run, or undefined when `issues` is `none` or no case needs one. */
export function caseIssues(
  comparison: Comparison,
  facts: RunFacts,
  options: CaseIssueOptions,
): IssueFiling | undefined {
  if (options.issues === 'none') return undefined;
  const items = comparison.classification.items.filter((item) => filed(item, options));
  if (items.length === 0) return undefined;
  items.sort((a, b) => (a.class === b.class ? 0 : a.class === 'new' ? -1 : 1));
  const token = comparison.series?.token ?? seriesToken('', options.runsWhat);
  return {
    cases: items.slice(0, MAX_ISSUE_WRITES).map((item) => caseIssue(item, token, facts, options)),
    left: items.slice(MAX_ISSUE_WRITES).map((item) => oneLine(item.name)),
  };
}
