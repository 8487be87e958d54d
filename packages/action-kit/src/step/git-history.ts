/**
 * The workspace's git history, as an effect in deps: the hosts hand `localGitHistory`, which runs
 * `git` itself (no shell, no pager, no prompt) with a bounded time and output; tests hand a fake.
 */
import { execFile, type ExecFileException } from 'node:child_process';
import { COMMIT_FORM } from './ci-context.ts';

export interface GitCommit {
  /** The full hash. */
  hash: string;
  /** The first line of the message. */
  subject: string;
}

/** What the workspace is: not a repository, or one whose history may be cut short (`fetch-depth`). */
type GitStatus = { repository: false } | { repository: true; shallow: boolean; head: string };

export interface GitLog {
  /** Newest first, at most the `max` asked for. */
  commits: GitCommit[];
  /** How many commits the range holds in all. */
  total: number;
}

export interface GitHistory {
  status(): Promise<GitStatus>;
  /**
   * The commits reachable from HEAD and not from `since` (a commit hash), or HEAD's own history
   * when `since` is absent. A `since` the clone does not have is a `GitError` of kind
   * `unknown-revision`.
   */
  log(range: { since?: string; max: number }): Promise<GitLog>;
}

type GitErrorKind = 'not-a-repository' | 'unknown-revision' | 'no-git' | 'timeout' | 'failed';

export class GitError extends Error {
  override readonly name = 'GitError';
  readonly kind: GitErrorKind;

  constructor(kind: GitErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

/** Longest wait for one `git` command: reading history is local and quick. */
const GIT_TIMEOUT_MS = 15_000;
/** Largest output read from one command; a log is asked for a bounded number of commits. */
const GIT_MAX_OUTPUT_BYTES = 1024 * 1024;

/** A field separator that no commit subject holds (the unit separator). */
const FIELD = '\u001f';

/** A history no host recognised: every call says there is no repository. */
export const noGitHistory: GitHistory = {
  status: async () => ({ repository: false }),
  log: async () => {
    throw new GitError('not-a-repository', 'there is no git repository here');
  },
};

/** `git` run in `workspace`, from the step's environment, ended by `signal` or after `GIT_TIMEOUT_MS`. */
export function localGitHistory(
  workspace: string,
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
): GitHistory {
  const git = (args: readonly string[]): Promise<string> => runGit(workspace, env, args, signal);
  return {
    async status() {
      let lines: string[];
      try {
        lines = (await git(['rev-parse', '--is-shallow-repository', 'HEAD'])).trim().split('\n');
      } catch (error) {
        if (error instanceof GitError && error.kind === 'not-a-repository') return { repository: false };
        throw error;
      }
      const [shallow, head] = lines;
      if (head === undefined || !COMMIT_FORM.test(head)) {
        throw new GitError('failed', `git rev-parse answered ${JSON.stringify(lines.join(' '))}`);
      }
      return { repository: true, shallow: shallow === 'true', head };
    },
    async log({ since, max }) {
      if (since !== undefined && !COMMIT_FORM.test(since)) {
        throw new GitError('unknown-revision', `${JSON.stringify(since)} is not a commit hash`);
      }
      const range = since !== undefined ? `${since}..HEAD` : 'HEAD';
      const limit = String(Math.max(0, Math.floor(max)));
      // `--` ends the revisions: nothing after the range is read as one, nor as an option.
      const [listed, counted] = await Promise.all([
        git(['log', '--no-color', '--no-show-signature', `--format=%H${FIELD}%s`, '-n', limit, range, '--']),
        git(['rev-list', '--count', range, '--']),
      ]);
      const commits = listed
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => {
          const at = line.indexOf(FIELD);
          return { hash: line.slice(0, at), subject: line.slice(at + 1) };
        });
      const total = Number(counted.trim());
      return { commits, total: Number.isSafeInteger(total) ? total : commits.length };
    },
  };
}

function runGit(
  workspace: string,
  env: Readonly<Record<string, string | undefined>>,
  args: readonly string[],
  signal: AbortSignal | undefined,
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['--no-pager', '-c', 'core.quotepath=off', ...args],
      {
        cwd: workspace,
        // No prompt for credentials, no lock taken, messages in English to be told apart.
        env: { ...env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
        encoding: 'utf8',
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: GIT_MAX_OUTPUT_BYTES,
        windowsHide: true,
        ...(signal ? { signal } : {}),
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        reject(gitErrorOf(error, stderr, args[0] ?? 'git'));
      },
    );
  });
}

function gitErrorOf(error: ExecFileException, stderr: string, command: string): GitError {
  const said = stderr.trim().split('\n')[0] ?? '';
  if (error.code === 'ENOENT') return new GitError('no-git', 'git is not installed (or not on PATH)');
  if (error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
    return new GitError('failed', `git ${command} wrote more than ${GIT_MAX_OUTPUT_BYTES} bytes`);
  }
  if (error.killed || error.name === 'AbortError') {
    return new GitError('timeout', `git ${command} did not finish within ${GIT_TIMEOUT_MS / 1000} s`);
  }
  if (/not a git repository/i.test(stderr)) return new GitError('not-a-repository', said);
  if (/unknown revision|bad revision|invalid revision range|bad object|ambiguous argument/i.test(stderr)) {
    return new GitError('unknown-revision', said);
  }
  return new GitError('failed', said || `git ${command} failed (${error.message})`);
}
