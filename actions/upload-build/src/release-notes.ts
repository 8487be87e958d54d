/**
 * The text of `release-notes: auto`: on a pull request its title and link first, then the commits
 * newest first, one line each with the short hash, capped so that the service and the testers'
 * emails take it well, with "and N more" when cut.
 */
import type { CiPullRequest, GitCommit } from '@sauce-actions/action-kit';

/** At most this many commit lines. */
export const MAX_NOTES_COMMITS = 50;
/** The whole text stays within this many characters. */
export const MAX_NOTES_CHARS = 4000;
/** A commit's subject (and a pull request's title) is shortened past this many characters. */
const MAX_SUBJECT_CHARS = 120;
/** Hash characters shown per commit. */
export const SHORT_HASH_LENGTH = 7;

interface NotesParts {
  pullRequest?: CiPullRequest | undefined;
  /** Newest first. */
  commits: readonly GitCommit[];
  /** How many commits there are in all; those not shown are counted. */
  total: number;
  /** The text when there is no commit to list. */
  empty?: string;
}

export function releaseNotesText(parts: NotesParts): string {
  const head: string[] = [];
  const { pullRequest } = parts;
  if (pullRequest) {
    head.push(
      pullRequest.title !== undefined
        ? `${clean(pullRequest.title)} (#${pullRequest.number})`
        : `Pull request #${pullRequest.number}`,
    );
    if (pullRequest.url !== undefined) head.push(pullRequest.url);
  }
  const headText = head.join('\n');
  const more = (count: number): string => `and ${count} more`;
  // Room for the head, the blank line after it, and the longest "and N more" line.
  let room = MAX_NOTES_CHARS - (headText ? headText.length + 2 : 0) - more(parts.total).length - 1;
  const shown: string[] = [];
  for (const commit of parts.commits.slice(0, MAX_NOTES_COMMITS)) {
    const line = `${commit.hash.slice(0, SHORT_HASH_LENGTH)} ${clean(commit.subject)}`.trimEnd();
    if (line.length + 1 > room) break;
    shown.push(line);
    room -= line.length + 1;
  }
  const hidden = Math.max(0, parts.total - shown.length);
  const body =
    parts.commits.length === 0
      ? (parts.empty ?? '')
      : [...shown, ...(hidden > 0 ? [more(hidden)] : [])].join('\n');
  return [headText, body].filter((part) => part !== '').join('\n\n');
}

/** One line without control or bidirectional characters, shortened past `MAX_SUBJECT_CHARS`. */
function clean(text: string): string {
  const line = text
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\s]+/g, ' ')
    .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim();
  return line.length > MAX_SUBJECT_CHARS ? `${line.slice(0, MAX_SUBJECT_CHARS - 1)}…` : line;
}
