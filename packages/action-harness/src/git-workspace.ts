/**
 * A workspace that is a git repository, as `actions/checkout` leaves it: made in a temporary
 * folder by the test, with commits of its own, and cloned shallow (`fetch-depth: 1`, the checkout's
 * default) or whole. Git runs with a fixed identity and no user or system configuration.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface GitWorkspace {
  dir: string;
  /** Commits a change with this subject (and a body, when given); resolves to its full hash. */
  commit(subject: string, body?: string): Promise<string>;
  /** `git` in the workspace; resolves to its standard output. */
  git(...args: string[]): Promise<string>;
  /** A clone of this repository into `target`, `depth` commits deep (all when absent). */
  clone(target: string, options?: { depth?: number }): Promise<GitWorkspace>;
}

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@example.com',
  GIT_COMMITTER_NAME: 'Test Author',
  GIT_COMMITTER_EMAIL: 'author@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: process.platform === 'win32' ? 'NUL' : '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
};

function run(dir: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args],
      { cwd: dir, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' },
      (error, stdout, stderr) =>
        error ? reject(new Error(`git ${args.join(' ')}: ${stderr}`)) : resolve(stdout),
    );
  });
}

function workspace(dir: string): GitWorkspace {
  let changes = 0;
  return {
    dir,
    git: (...args) => run(dir, args),
    async commit(subject, body) {
      changes += 1;
      await writeFile(path.join(dir, 'CHANGES.txt'), `${subject}\n${changes}\n`, { flag: 'a' });
      await run(dir, ['add', 'CHANGES.txt']);
      await run(dir, ['commit', '-q', '-m', subject, ...(body !== undefined ? ['-m', body] : [])]);
      return (await run(dir, ['rev-parse', 'HEAD'])).trim();
    },
    async clone(target, options = {}) {
      // A file:// address: a plain path would copy the objects and ignore the depth.
      const source = `file://${path.resolve(dir).replace(/\\/g, '/')}`;
      const depth = options.depth !== undefined ? ['--depth', String(options.depth)] : [];
      await run(path.dirname(target), ['clone', '-q', ...depth, source, target]);
      return workspace(target);
    },
  };
}

/** A fresh repository in `dir` (which must exist), on the branch `main`, with no commit yet. */
export async function createGitWorkspace(dir: string): Promise<GitWorkspace> {
  await run(dir, ['init', '-q']);
  return workspace(dir);
}
