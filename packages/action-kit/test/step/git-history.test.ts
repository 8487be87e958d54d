import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createGitWorkspace, type GitWorkspace } from '@sauce-actions/action-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitError, localGitHistory } from '../../src/step/git-history.ts';

let root: string;
let repo: GitWorkspace;
const hashes: string[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'git-history-'));
  await mkdir(path.join(root, 'repo'));
  repo = await createGitWorkspace(path.join(root, 'repo'));
  for (const subject of ['First', 'Second', 'Third: with "quotes" and a\ttab', 'Fourth', 'Fifth']) {
    hashes.push(await repo.commit(subject, 'A body line that is not part of the subject.'));
  }
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const history = (dir: string) => localGitHistory(dir, process.env);

describe('the workspace git history', () => {
  it('says a whole clone is a repository, not shallow, with its HEAD', async () => {
    expect(await history(repo.dir).status()).toEqual({ repository: true, shallow: false, head: hashes[4] });
  });

  it('lists the commits since a commit, newest first, with how many there are', async () => {
    expect(await history(repo.dir).log({ since: hashes[1]!, max: 10 })).toEqual({
      commits: [
        { hash: hashes[4], subject: 'Fifth' },
        { hash: hashes[3], subject: 'Fourth' },
        { hash: hashes[2], subject: 'Third: with "quotes" and a\ttab' },
      ],
      total: 3,
    });
  });

  it('stops at `max` but counts them all; without `since`, the history of HEAD', async () => {
    const log = await history(repo.dir).log({ max: 2 });
    expect(log.commits.map((commit) => commit.subject)).toEqual(['Fifth', 'Fourth']);
    expect(log.total).toBe(5);
    expect(await history(repo.dir).log({ since: hashes[4]!, max: 5 })).toEqual({ commits: [], total: 0 });
  });

  it('says a shallow clone is shallow, and cannot reach a commit it does not have', async () => {
    const shallow = await repo.clone(path.join(root, 'shallow'), { depth: 1 });
    expect(await history(shallow.dir).status()).toEqual({ repository: true, shallow: true, head: hashes[4] });
    const error = await history(shallow.dir)
      .log({ since: hashes[1]!, max: 10 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    expect((error as GitError).kind).toBe('unknown-revision');
  });

  it('says a folder that is not a repository is not one', async () => {
    const plain = path.join(root, 'plain');
    await mkdir(plain);
    expect(await history(plain).status()).toEqual({ repository: false });
    await expect(history(plain).log({ max: 1 })).rejects.toMatchObject({ kind: 'not-a-repository' });
  });

  it.each(['--output=/tmp/x', 'HEAD~3', 'main', 'abc'])(
    'refuses %s as `since` without running git: only a commit hash is a revision',
    async (since) => {
      await expect(history(repo.dir).log({ since, max: 1 })).rejects.toMatchObject({
        name: 'GitError',
        kind: 'unknown-revision',
      });
    },
  );

  it('says when git is not installed', async () => {
    const noGit = localGitHistory(repo.dir, { ...process.env, PATH: path.join(root, 'empty') });
    await expect(noGit.status()).rejects.toMatchObject({ kind: 'no-git' });
  });
});
