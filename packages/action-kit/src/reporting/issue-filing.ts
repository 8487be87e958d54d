/**
 * GitHub issues a test step asks for (`issues`): one per newly failing or flaky case, found again
 * on later runs by a hidden marker in its body, never by its title (which people edit), and
 * commented on at each new occurrence. The engine says what to write; the GitHub host writes it
 * (other hosts have no issues). Nothing is closed or reopened: an issue is its owner's to close.
 */

/** Writes (an issue made, or a comment) a run makes at most: a bad night must not flood the tracker. */
export const MAX_ISSUE_WRITES = 20;

/** The label every filed issue carries: the issues are listed by it, then matched by marker. */
export const ISSUE_LABEL = 'sauce-actions';

/** One case's issue: made with `body` the first time, commented with `occurrence` after. */
export interface CaseIssue {
  /** The hidden line that opens the body and finds the issue again. */
  marker: string;
  /** The case's name, for the log and the summary. */
  name: string;
  title: string;
  /** The new issue's body, opening with the marker (GitHub-flavoured Markdown, names escaped). */
  body: string;
  /** The comment of a later occurrence. */
  occurrence: string;
}

export interface IssueFiling {
  /** The cases to write for, at most `MAX_ISSUE_WRITES`, the new failures first. */
  cases: CaseIssue[];
  /** The names of the cases past the limit: listed in the summary, not written. */
  left: string[];
}

/** The marker of a case's issue: the series and the case, both hashed already (`itemKey`). */
export function issueMarker(series: string, item: string): string {
  return `<!-- sauce-actions:issue ${series.replace(/[^\w-]/g, '')} ${item.replace(/[^\w-]/g, '')} -->`;
}
