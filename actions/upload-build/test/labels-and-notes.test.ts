/**
 * What upload-build adds from the CI system and from git: the build's metadata and pull-request
 * tag, and `release-notes: auto`, with the history and the service faked.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GitError, type CiContext, type GitCommit, type GitHistory } from '@sauce-actions/action-kit';
import { testStepDeps } from '@sauce-actions/action-kit/testing';
import {
  newestBuild,
  type MobileBuild,
  type MobileBuildUpdate,
  type MobileInvite,
  type MobileUploadOptions,
  type NewestBuildFilter,
} from '@sauce-actions/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildLabels, ciMetadata } from '../src/build-metadata.ts';
import type { UploadInputs } from '../src/inputs.ts';
import { MAX_NOTES_CHARS, releaseNotesText } from '../src/release-notes.ts';
import { run, type UploadDeps } from '../src/run.ts';
import { inputs as uploadInputs } from './helpers.ts';

const SHA = 'aaaaaaa000000000000000000000000000000001';
const PULL_REQUEST = { number: 42, title: 'Faster checkout', url: 'https://github.com/octo/app/pull/42' };
const CI: CiContext = {
  system: 'github',
  commit: SHA,
  branch: 'main',
  repository: 'https://github.com/octo/app',
  runUrl: 'https://github.com/octo/app/actions/runs/9',
  event: 'push',
};

const commit = (n: number, subject = `Change ${n}`): GitCommit => ({
  hash: `${String(n).padStart(7, '0')}${'f'.repeat(33)}`,
  subject,
});

describe('the build metadata from the CI system', () => {
  it.each<[string, CiContext, Record<string, string>]>([
    ['a branch', CI, { commit: SHA, branch: 'main', repository: CI.repository!, 'run-url': CI.runUrl! }],
    [
      'a pull request',
      { ...CI, branch: 'feature', pullRequest: PULL_REQUEST },
      {
        commit: SHA,
        branch: 'feature',
        'pull-request': '42',
        repository: CI.repository!,
        'run-url': CI.runUrl!,
      },
    ],
    ['a tag', { system: 'gitlab', commit: SHA, tag: 'v1.0' }, { commit: SHA, tag: 'v1.0' }],
    ['a terminal', {}, {}],
  ])('of %s', (_name, ci, expected) => {
    expect(ciMetadata(ci)).toEqual(expected);
  });

  it.each<[string, Parameters<typeof buildLabels>[0], CiContext, ReturnType<typeof buildLabels>]>([
    [
      'is added, and `metadata` given wins key by key',
      { metadata: { commit: 'mine', jira: 'APP-1' }, tags: ['nightly'], gitMetadata: true },
      CI,
      {
        metadata: {
          commit: 'mine',
          branch: 'main',
          repository: CI.repository!,
          'run-url': CI.runUrl!,
          jira: 'APP-1',
        },
        tags: ['nightly'],
        fromCi: ['branch', 'repository', 'run-url'],
      },
    ],
    [
      'tags a pull request `pr-<number>`, once',
      { metadata: {}, tags: ['pr-42'], gitMetadata: true },
      { pullRequest: PULL_REQUEST },
      { metadata: { 'pull-request': '42' }, tags: ['pr-42'], fromCi: ['pull-request'] },
    ],
    [
      'adds nothing with `git-metadata: false`',
      { metadata: { a: '1' }, tags: [], gitMetadata: false },
      { ...CI, pullRequest: PULL_REQUEST },
      { metadata: { a: '1' }, tags: [], fromCi: [] },
    ],
  ])('%s', (_name, given, ci, expected) => {
    expect(buildLabels(given, ci)).toEqual(expected);
  });
});

describe('the release notes text', () => {
  it.each<[string, Parameters<typeof releaseNotesText>[0], string]>([
    [
      'commits newest first with short hashes',
      { commits: [commit(3), commit(2)], total: 2 },
      '0000003 Change 3\n0000002 Change 2',
    ],
    [
      'a pull request first, its title and link',
      { pullRequest: PULL_REQUEST, commits: [commit(5)], total: 1 },
      'Faster checkout (#42)\nhttps://github.com/octo/app/pull/42\n\n0000005 Change 5',
    ],
    [
      'those not listed counted',
      { commits: [commit(9), commit(8)], total: 7 },
      '0000009 Change 9\n0000008 Change 8\nand 5 more',
    ],
    [
      'subjects on one line, without control characters',
      { commits: [commit(1, 'Fix\u0007 the\r\nbell\u202e')], total: 1 },
      '0000001 Fix the bell',
    ],
    [
      'nothing to list',
      { commits: [], total: 0, empty: 'No new commits since build 4 (abcdef0).' },
      'No new commits since build 4 (abcdef0).',
    ],
    [
      'a pull request without title nor link',
      { pullRequest: { number: 7 }, commits: [], total: 0 },
      'Pull request #7',
    ],
  ])('%s', (_name, parts, expected) => {
    expect(releaseNotesText(parts)).toBe(expected);
  });

  it('stays within its size, at most 50 commits and long subjects shortened, and counts the rest', () => {
    const commits = Array.from({ length: 200 }, (_, i) => commit(200 - i, `${'word '.repeat(60)}${i}`));
    const text = releaseNotesText({ pullRequest: PULL_REQUEST, commits, total: 1000 });
    const lines = text.split('\n');
    expect(text.length).toBeLessThanOrEqual(MAX_NOTES_CHARS);
    const listed = lines.filter((line) => /^\d{7} /.test(line));
    expect(listed.length).toBeLessThanOrEqual(50);
    expect(listed.every((line) => line.length <= 8 + 120)).toBe(true);
    expect(lines.at(-1)).toBe(`and ${1000 - listed.length} more`);
  });
});

let workspace: string;
beforeEach(() => {
  workspace = mkdtempSync(path.join(os.tmpdir(), 'upload-notes-'));
  writeFileSync(path.join(workspace, 'app.apk'), Buffer.alloc(2048, 1));
});
afterEach(() => {
  rmSync(workspace, { recursive: true, force: true });
});

/** The inputs of an upload with `release-notes: auto`: a key with its email. */
function inputs(overrides: Partial<UploadInputs> = {}): UploadInputs {
  return uploadInputs({
    connection: { service: 'mobile', region: 'us-east-1', apiKey: 'k', email: 'a@b.c' },
    releaseNotesAuto: true,
    ...overrides,
  });
}

/** A history of commits 1..n (newest last), shallow or not; `log` answers as git would. */
function fakeGit(
  n: number,
  options: { shallow?: boolean; repository?: boolean } = {},
): GitHistory & { asked: unknown[] } {
  const all = Array.from({ length: n }, (_, i) => commit(i + 1)).reverse();
  const asked: unknown[] = [];
  return {
    asked,
    status: async () =>
      options.repository === false
        ? { repository: false }
        : { repository: true, shallow: options.shallow ?? false, head: all[0]!.hash },
    log: async (range) => {
      asked.push(range);
      if (range.since === undefined) return { commits: all.slice(0, range.max), total: all.length };
      const at = all.findIndex((c) => c.hash === range.since);
      if (at < 0 || options.shallow)
        throw new GitError('unknown-revision', `bad revision '${range.since}..HEAD'`);
      return { commits: all.slice(0, Math.min(at, range.max)), total: at };
    },
  };
}

/** The service: the upload answers build 12 of project 3; `earlier` are the project's other builds. */
function fakeService(earlier: Partial<MobileBuild>[]) {
  const calls = {
    upload: [] as MobileUploadOptions[],
    update: [] as MobileBuildUpdate[],
    invite: [] as MobileInvite[],
  };
  const listed = [...earlier, { id: 12, uploadedAt: '2026-11-20 12:00:00' }] as MobileBuild[];
  type Mobile = UploadDeps['client']['mobile'];
  const mobile = {
    upload: async (_file: string, options?: MobileUploadOptions) => {
      calls.upload.push(options ?? {});
      return { status: 'ok', build_id: 12, project_id: 3, app_name: 'Shop', app_version: '2.0' };
    },
    projects: { list: async () => ({ status: 'ok', projects: [] }) },
    testerGroups: { list: async () => ({ status: 'ok', groups: [{ id: 1, name: 'qa', testers: [[]] }] }) },
    builds: {
      newest: async (_projectId: unknown, filter: { except?: readonly unknown[] } = {}) => {
        return newestBuild(listed, filter as NewestBuildFilter);
      },
      get: async (_p: unknown, id: unknown) => ({
        status: 'ok',
        build: listed.find((b) => String(b.id) === String(id)),
      }),
      update: async (_p: unknown, _b: unknown, changes: MobileBuildUpdate) => {
        calls.update.push(changes);
        return { status: 'ok' };
      },
      invite: async (_p: unknown, _b: unknown, invite: MobileInvite) => {
        calls.invite.push(invite);
        return { status: 'ok' };
      },
    },
  } as unknown as Mobile;
  return { mobile, calls };
}

function deps(git: GitHistory, mobile: UploadDeps['client']['mobile'], ci: CiContext = CI) {
  return { ...testStepDeps({ workspace, ci, git }), client: { mobile } };
}

describe('upload-build with `release-notes: auto`', () => {
  it('writes the commits since the commit of the project last build onto the new build', async () => {
    const { mobile, calls } = fakeService([
      { id: 11, uploadedAt: '2026-11-20 11:00:00', metadata: { commit: commit(2).hash } as unknown },
      { id: 10, uploadedAt: '2026-11-19 11:00:00', metadata: { commit: commit(1).hash } as unknown },
    ]);
    const stepDeps = deps(fakeGit(5), mobile);
    const result = await run(inputs(), stepDeps);
    expect(result.failure).toBeUndefined();
    expect(calls.upload[0]).not.toHaveProperty('releaseNotes');
    expect(calls.upload[0]!.metadata).toEqual({
      commit: SHA,
      branch: 'main',
      repository: CI.repository,
      'run-url': CI.runUrl,
    });
    expect(calls.update).toEqual([{ comment: '0000005 Change 5\n0000004 Change 4\n0000003 Change 3' }]);
    expect(result.summary).toContain('<td>Release notes</td><td>3 commits since build 11 (0000002)</td>');
    expect(result.summary).toContain('<td>run-url</td><td>https://github.com/octo/app/actions/runs/9</td>');
    expect(stepDeps.logger.lines()).toContain(
      'Release notes of build 12: 3 commits since build 11 (0000002).',
    );
  });

  it('on a pull request puts its title and link first, and tags the build', async () => {
    const { mobile, calls } = fakeService([
      {
        id: 11,
        uploadedAt: '2026-11-20 11:00:00',
        metadata: [{ key: 'commit', value: commit(4).hash }] as unknown,
      },
    ]);
    const ci = { ...CI, branch: 'feature', pullRequest: PULL_REQUEST, event: 'pull_request' };
    await run(inputs({ tags: ['nightly'] }), deps(fakeGit(5), mobile, ci));
    expect(calls.upload[0]!.tags).toEqual(['nightly', 'pr-42']);
    expect(calls.update[0]!.comment).toBe(
      'Faster checkout (#42)\nhttps://github.com/octo/app/pull/42\n\n0000005 Change 5',
    );
  });

  it.each<[string, Partial<MobileBuild>[], { shallow?: boolean }, string, RegExp]>([
    ['no earlier build', [], {}, 'the last commit (no earlier build)', /has no earlier build/],
    [
      'an earlier build without commit metadata',
      [{ id: 11, uploadedAt: '2026-11-20 11:00:00', metadata: { other: 'x' } as unknown }],
      {},
      'the last commit (build 11 has no commit metadata)',
      /carries no `commit` metadata/,
    ],
    [
      "an earlier build's commit not in this clone",
      [{ id: 11, uploadedAt: '2026-11-20 11:00:00', metadata: { commit: 'abcdef0123456' } as unknown }],
      {},
      'the last commit (commit abcdef0 of build 11 is not in this clone)',
      /commit abcdef0 of build 11 is not in this clone's history/,
    ],
    [
      'a shallow clone',
      [{ id: 11, uploadedAt: '2026-11-20 11:00:00', metadata: { commit: commit(2).hash } as unknown }],
      { shallow: true },
      'the last commit (a shallow clone)',
      /shallow, .*`fetch-depth: 0`/,
    ],
    [
      'an earlier build whose upload time is no time',
      [
        { id: 11, uploadedAt: '20/11/2026 11:00', metadata: { commit: commit(2).hash } as unknown },
        { id: 10, uploadedAt: '2026-11-19 11:00:00', metadata: { commit: commit(1).hash } as unknown },
      ],
      {},
      'the last commit (the last build could not be read)',
      /could not be read \(build 11 has no upload time to order it by/,
    ],
  ])(
    'with %s falls back to the last commit, says why, and uploads',
    async (_name, earlier, git, basis, said) => {
      const { mobile, calls } = fakeService(earlier);
      const stepDeps = deps(fakeGit(5, git), mobile);
      const result = await run(inputs(), stepDeps);
      expect(result.failure).toBeUndefined();
      expect(calls.upload).toHaveLength(1);
      expect(calls.update).toEqual([{ comment: '0000005 Change 5' }]);
      expect(result.summary).toContain(`<td>Release notes</td><td>${basis}</td>`.replace(/'/g, '&#39;'));
      expect(stepDeps.logger.entries.map((entry) => entry.message).join('\n')).toMatch(said);
    },
  );

  it('warns that the shallow clone needs `fetch-depth: 0` before the upload', async () => {
    const { mobile } = fakeService([]);
    const stepDeps = deps(fakeGit(3, { shallow: true }), mobile);
    await run(inputs(), stepDeps);
    const warnings = stepDeps.logger.entries.filter((entry) => entry.level === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain('`fetch-depth: 0`');
    const order = stepDeps.logger.entries.map((entry) => entry.message);
    expect(order.findIndex((m) => m.includes('fetch-depth'))).toBeLessThan(
      order.findIndex((m) => m.startsWith('Uploading')),
    );
  });

  it('outside a git repository uploads without notes, with a warning', async () => {
    const { mobile, calls } = fakeService([]);
    const stepDeps = deps(fakeGit(0, { repository: false }), mobile);
    const result = await run(inputs(), stepDeps);
    expect(result.failure).toBeUndefined();
    expect(calls.update).toEqual([]);
    expect(stepDeps.logger.entries.find((entry) => entry.level === 'warning')?.message).toMatch(
      /not a git repository/,
    );
  });

  it('emails the testers of `groups` only once the notes are on the build', async () => {
    const { mobile, calls } = fakeService([]);
    const result = await run(inputs({ groups: ['qa'], notify: true }), deps(fakeGit(2), mobile));
    expect(result.failure).toBeUndefined();
    expect(calls.upload[0]).toMatchObject({ groups: ['qa'], notify: false });
    expect(calls.update).toHaveLength(1);
    expect(calls.invite).toEqual([{ groups: ['qa'], notify: true }]);
  });

  it('fails, with the outputs of the stored build, when the notes cannot be written', async () => {
    const { mobile } = fakeService([]);
    (mobile.builds as unknown as { update: () => Promise<never> }).update = async () => {
      throw new Error('no write access (code 99)');
    };
    const result = await run(inputs(), deps(fakeGit(2), mobile));
    expect(result.outputs['build-id']).toBe('12');
    expect(result.failure?.kind).toBe('refused');
    expect(result.failure?.message).toMatch(
      /^Build 12 was uploaded, but its release notes \(the last commit \(no earlier build\)\) could not be written: no write access/,
    );
  });

  it('without `release-notes: auto` reads no history and writes no notes', async () => {
    const { mobile, calls } = fakeService([]);
    const git = fakeGit(3);
    git.status = async () => {
      throw new Error('git was asked');
    };
    await run(inputs({ releaseNotesAuto: false, releaseNotes: 'Hand-written' }), deps(git, mobile));
    expect(calls.upload[0]!.releaseNotes).toBe('Hand-written');
    expect(calls.update).toEqual([]);
  });
});
