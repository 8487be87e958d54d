/**
 * `release-notes: auto`: the commits since the commit of the project's last uploaded build (read
 * back from that build's `commit` metadata), written onto the new build once the upload has said
 * which project it joined. Trouble with git or with reading the last build is a warning and the
 * notes fall back to the last commit: only writing them onto the build can fail the step.
 */
import {
  ActionError,
  COMMIT_FORM,
  GitError,
  type GitCommit,
  type GitLog,
  type StepDeps,
} from '@sauce-actions/action-kit';
import { buildMetadataOf, type MobileClient } from '@sauce-actions/api';
import { MAX_NOTES_COMMITS, releaseNotesText, SHORT_HASH_LENGTH } from './release-notes.ts';

interface GitNotesDeps extends Pick<StepDeps, 'logger' | 'signal' | 'git' | 'ci'> {
  client: { mobile: { builds: Pick<MobileClient['builds'], 'newest' | 'get' | 'update'> } };
}

/** What git can give, found before the upload so that its warnings come first. */
export type HistoryState = { usable: false } | { usable: true; shallow: boolean };

/** What the notes were made of, for the log and the summary. */
export interface GitNotes {
  text: string;
  /** "3 commits since build 41 (abc1234)", "the last commit (no earlier build)". */
  basis: string;
}

export async function checkHistory(
  deps: Pick<GitNotesDeps, 'git' | 'logger' | 'signal'>,
): Promise<HistoryState> {
  let status;
  try {
    status = await deps.git.status();
  } catch (error) {
    rethrowCancel(error, deps.signal);
    deps.logger.warning(
      `release-notes: auto: git could not read the workspace (${(error as Error).message}); the build gets no release notes.`,
    );
    return { usable: false };
  }
  if (!status.repository) {
    deps.logger.warning(
      'release-notes: auto: the workspace is not a git repository, so the build gets no release notes. Check the code out first (actions/checkout with `fetch-depth: 0`).',
    );
    return { usable: false };
  }
  if (status.shallow) {
    deps.logger.warning(
      'release-notes: auto: this clone is shallow, so the commits since the last build cannot be listed: check out the whole history with `fetch-depth: 0` (actions/checkout). The release notes are the last commit.',
    );
  }
  return { usable: true, shallow: status.shallow };
}

/** Makes the notes of the uploaded build and writes them onto it; `undefined` when git gave none. */
export async function writeGitNotes(
  history: HistoryState,
  build: { projectId: string; buildId: string },
  deps: GitNotesDeps,
): Promise<GitNotes | undefined> {
  if (!history.usable) return undefined;
  const notes = await notesOf(history, build, deps);
  if (notes === undefined) return undefined;
  try {
    await deps.client.mobile.builds.update(
      build.projectId,
      build.buildId,
      { comment: notes.text },
      { signal: deps.signal },
    );
  } catch (error) {
    rethrowCancel(error, deps.signal);
    throw new ActionError(
      'refused',
      `Build ${build.buildId} was uploaded, but its release notes (${notes.basis}) could not be written: ${(error as Error).message}. The key's account needs write access to project ${build.projectId}.`,
      { cause: error },
    );
  }
  deps.logger.info(`Release notes of build ${build.buildId}: ${notes.basis}.`);
  return notes;
}

async function notesOf(
  history: { shallow: boolean },
  build: { projectId: string; buildId: string },
  deps: GitNotesDeps,
): Promise<GitNotes | undefined> {
  const { pullRequest } = deps.ci;
  // A shallow clone cannot list a range; the warning was given before the upload.
  const last: LastBuild = history.shallow
    ? { found: false, why: 'a shallow clone' }
    : await lastBuild(build, deps);
  let why = last.found ? `build ${last.buildId} has no commit metadata` : last.why;
  if (last.found && last.commit !== undefined) {
    const short = last.commit.slice(0, SHORT_HASH_LENGTH);
    try {
      const log = await deps.git.log({ since: last.commit, max: MAX_NOTES_COMMITS });
      const text = releaseNotesText({
        pullRequest,
        ...log,
        empty: `No new commits since build ${last.buildId} (${short}).`,
      });
      return { text, basis: `${count(log.total)} since build ${last.buildId} (${short})` };
    } catch (error) {
      rethrowCancel(error, deps.signal);
      if (!(error instanceof GitError) || error.kind !== 'unknown-revision') {
        deps.logger.warning(
          `release-notes: auto: git could not list the commits (${(error as Error).message}).`,
        );
        return undefined;
      }
      deps.logger.warning(
        `release-notes: auto: commit ${short} of build ${last.buildId} is not in this clone's history (another branch, or history cut short: \`fetch-depth: 0\` fetches it all); the release notes are the last commit.`,
      );
      why = `commit ${short} of build ${last.buildId} is not in this clone`;
    }
  } else if (last.found) {
    deps.logger.info(
      `release-notes: auto: build ${last.buildId} carries no \`commit\` metadata (uploaded with \`git-metadata: false\`, or by another tool); the release notes are the last commit.`,
    );
  }
  let head: GitLog;
  try {
    head = await deps.git.log({ max: 1 });
  } catch (error) {
    rethrowCancel(error, deps.signal);
    deps.logger.warning(
      `release-notes: auto: git could not read the last commit (${(error as Error).message}).`,
    );
    return undefined;
  }
  const commits: GitCommit[] = head.commits.slice(0, 1);
  return {
    text: releaseNotesText({ pullRequest, commits, total: commits.length }),
    basis: `the last commit (${why})`,
  };
}

type LastBuild = { found: true; buildId: string; commit?: string } | { found: false; why: string };

/**
 * The project's newest build before this one and the commit its metadata names. Its metadata is
 * read from the listing, or from the build itself when the listing leaves it out. A service that
 * cannot say is a warning: the notes are then the last commit.
 */
async function lastBuild(
  build: { projectId: string; buildId: string },
  deps: GitNotesDeps,
): Promise<LastBuild> {
  const { builds } = deps.client.mobile;
  const call = { signal: deps.signal };
  try {
    const last = await builds.newest(build.projectId, { except: [build.buildId] }, call);
    if (last === undefined) {
      deps.logger.info(
        `release-notes: auto: project ${build.projectId} has no earlier build; the release notes are the last commit.`,
      );
      return { found: false, why: 'no earlier build' };
    }
    const metadata =
      buildMetadataOf(last) ?? buildMetadataOf((await builds.get(build.projectId, last.id, call)).build);
    const commit = metadata?.commit?.trim();
    return {
      found: true,
      buildId: String(last.id),
      ...(commit !== undefined && COMMIT_FORM.test(commit) ? { commit: commit.toLowerCase() } : {}),
    };
  } catch (error) {
    rethrowCancel(error, deps.signal);
    deps.logger.warning(
      `release-notes: auto: the project's last build could not be read (${(error as Error).message}); the release notes are the last commit.`,
    );
    return { found: false, why: 'the last build could not be read' };
  }
}

function count(total: number): string {
  return total === 1 ? '1 commit' : `${total} commits`;
}

/** A cancelled or timed-out step stops here, whatever the call it cut says. */
function rethrowCancel(error: unknown, signal: AbortSignal): void {
  if (signal.aborted) throw error;
}
