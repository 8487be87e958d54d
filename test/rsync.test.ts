/**
 * The tests' rsync stand-in (support/rsync.ts), form by form as gitlab-ci-local runs it: what ends
 * up where, what is deleted, what excluded, dotfiles, symbolic links, modes and times. Each row's
 * expected tree is what rsync 3.2.7 leaves; where rsync is installed, every row also runs through
 * it, and both must leave the same tree.
 */
import { execFile } from 'node:child_process';
import { lstatSync } from 'node:fs';
import { lstat, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, treeOf, type Tree } from './support/file-trees.ts';
import { excludeRule, isExcluded } from './support/rsync.ts';

const STAND_IN = path.join(import.meta.dirname, 'support', 'rsync.ts');

interface Run {
  code: number;
  stderr: string;
}

function run(command: string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    const [file, ...args] = command as [string, ...string[]];
    execFile(file, args, { cwd }, (error, _stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stderr });
    });
  });
}

interface Row {
  form: string;
  /** What is there before: paths relative to the row's folder. */
  before: Tree;
  /** Where rsync runs, relative to the row's folder. */
  cwd: string;
  /** Files the row writes first (exclude and file lists), relative to the row's folder. */
  lists?: Record<string, string>;
  args: string[];
  /** The folder to look at afterwards, relative to the row's folder. */
  result: string;
  code: number;
  tree: string[];
}

const ROWS: Row[] = [
  {
    form: "the project into a job's folder: tracked files only, everything else there deleted",
    before: {
      'project/tracked.txt': 'new',
      'project/.env': 'dotfile',
      'project/run.sh': { text: '#!/bin/sh\n', mode: 0o755 },
      'project/private': { folder: 0o700 },
      'project/private/key': { text: 'k', mode: 0o600 },
      'project/dir/sub/file': 'deep',
      'project/dir-link': { link: 'dir/sub' },
      'project/dangling': { link: 'nowhere' },
      'project/untracked.log': 'untracked',
      'project/build/out.bin': 'untracked folder',
      'project/docs/build/page': 'a build folder deeper, tracked',
      'project/node_modules/x/index.js': 'ignored anywhere',
      'project/app/node_modules/y.js': 'ignored anywhere',
      'project/.git/HEAD': 'ref: refs/heads/main',
      'project/.git/lfs/objects/1': 'lfs',
      'project/.gitlab-ci-local/cache/c': 'state',
      'project/.gitlab-ci-local/builds/job/stale.txt': 'gone from the project',
      'project/.gitlab-ci-local/builds/job/tracked.txt': 'the old text',
      'project/.gitlab-ci-local/builds/job/untracked.log': 'excluded, so deleted',
      'project/.gitlab-ci-local/builds/job/node_modules/z.js': 'excluded, so deleted',
      'project/.gitlab-ci-local/builds/job/dir/sub/old': 'gone from the project',
      'project/.gitlab-ci-local/builds/job/dir-link': 'a file where the project has a link',
      'project/.gitlab-ci-local/builds/job/private': 'a file where the project has a folder',
    },
    cwd: 'project',
    lists: {
      'project/.gitlab-ci-local/rsync-exclude-job': '/untracked.log\n/build/',
      'project/.gitlab-ci-local-ignores': '# comment\n\nnode_modules/\n',
    },
    args: [
      '-a',
      '--delete-excluded',
      '--delete',
      '--exclude-from=.gitlab-ci-local/rsync-exclude-job',
      '--exclude-from=.gitlab-ci-local-ignores',
      '--exclude',
      '.git/lfs',
      '--exclude',
      '.gitlab-ci-local/',
      './',
      '.gitlab-ci-local/builds/job/',
    ],
    result: 'project/.gitlab-ci-local/builds/job',
    code: 0,
    tree: [
      './ 755',
      '.env 644 "dotfile" @kept',
      '.git/ 755 @kept',
      '.git/HEAD 644 "ref: refs/heads/main" @kept',
      'dangling -> nowhere @kept',
      'dir-link -> dir/sub @kept',
      'dir/ 755 @kept',
      'dir/sub/ 755 @kept',
      'dir/sub/file 644 "deep" @kept',
      'docs/ 755 @kept',
      'docs/build/ 755 @kept',
      'docs/build/page 644 "a build folder deeper, tracked" @kept',
      'private/ 700 @kept',
      'private/key 600 "k" @kept',
      'run.sh 755 "#!/bin/sh\\n" @kept',
      'tracked.txt 644 "new" @kept',
      'app/ 755 @kept',
      '.gitlab-ci-local-ignores 644 "# comment\\n\\nnode_modules/\\n"',
    ],
  },
  {
    form: "a cache or artifacts into a job's folder: merged, nothing deleted",
    before: {
      'cache/.sauce-tools/sc/5.4.1/sc': { text: 'binary', mode: 0o755 },
      'cache/.sauce-tools/sc/5.4.1.complete': '',
      'cache/.hidden': 'dot',
      'cache/same.txt': 'from the cache',
      'cache/quick.txt': 'new',
      'cache/link': { link: '.sauce-tools/sc' },
      'job/same.txt': 'the job had',
      'job/own.txt': 'kept',
      // Its size and time match the cache's: rsync's quick check takes it for the same file.
      'job/quick.txt': 'old',
      'job/.sauce-tools/other': 'kept',
    },
    cwd: '.',
    args: ['-a', 'cache/.', 'job'],
    result: 'job',
    code: 0,
    tree: [
      './ 755',
      '.hidden 644 "dot" @kept',
      '.sauce-tools/ 755 @kept',
      '.sauce-tools/other 644 "kept" @kept',
      '.sauce-tools/sc/ 755 @kept',
      '.sauce-tools/sc/5.4.1.complete 644 "" @kept',
      '.sauce-tools/sc/5.4.1/ 755 @kept',
      '.sauce-tools/sc/5.4.1/sc 755 "binary" @kept',
      'link -> .sauce-tools/sc @kept',
      'own.txt 644 "kept" @kept',
      'quick.txt 644 "old" @kept',
      'same.txt 644 "from the cache" @kept',
    ],
  },
  {
    form: "a job's artifacts into the project, but for the reports folder at their root",
    before: {
      'artifacts/job/reports/junit.xml': '<testsuites/>',
      'artifacts/job/.gitlab-ci-reports/dotenv/deploy.env': 'A=1',
      'artifacts/job/sub/.gitlab-ci-reports/kept': 'not at the root',
      'project/reports/old.xml': 'kept',
    },
    cwd: '.',
    args: ['--exclude=/.gitlab-ci-reports/', '-a', 'artifacts/job/.', 'project'],
    result: 'project',
    code: 0,
    tree: [
      './ 755',
      'reports/ 755 @kept',
      'reports/junit.xml 644 "<testsuites/>" @kept',
      'reports/old.xml 644 "kept" @kept',
      'sub/ 755 @kept',
      'sub/.gitlab-ci-reports/ 755 @kept',
      'sub/.gitlab-ci-reports/kept 644 "not at the root" @kept',
    ],
  },
  {
    form: "a job's cache paths out, with the folders they are in; a missing one said, the rest copied",
    before: {
      'job/.sauce-tools/sc/5.4.1/sc': { text: 'binary', mode: 0o755 },
      'job/.sauce-tools/sc/5.4.1.complete': '',
      'job/deep': { folder: 0o750 },
      'job/deep/er/file': 'x',
      'job/unlisted': 'not copied',
      'cache/key/.sauce-tools/stale': 'kept: no --delete',
    },
    cwd: 'job',
    args: ['-Ra', './.sauce-tools/', './missing', './deep/er/file', '../cache/key/.'],
    result: 'cache/key',
    code: 23,
    tree: [
      './ 755',
      '.sauce-tools/ 755 @kept',
      '.sauce-tools/sc/ 755 @kept',
      '.sauce-tools/sc/5.4.1.complete 644 "" @kept',
      '.sauce-tools/sc/5.4.1/ 755 @kept',
      '.sauce-tools/sc/5.4.1/sc 755 "binary" @kept',
      '.sauce-tools/stale 644 "kept: no --delete" @kept',
      'deep/ 750 @kept',
      'deep/er/ 755 @kept',
      'deep/er/file 644 "x" @kept',
    ],
  },
  {
    form: "a job's artifacts out, from a list of paths, with excludes",
    before: {
      'job/reports/junit.xml': '<testsuites/>',
      'job/reports/scratch.tmp': 'excluded by the job',
      'job/reports/.gitlab-ci-local/x': 'excluded: state',
      'job/sauce-actions-output/run-x/results.json': '{}',
      'job/sauce-actions-output/run-x/sc.log': { link: '../../tunnel.out' },
      'job/tunnel.out': 'tunnel=up',
      'job/a/b/deep.txt': 'deep',
      'job/a/b/sibling.txt': 'not listed',
      'job/unlisted.txt': 'not listed',
      'artifacts/job': { folder: 0o755 },
    },
    cwd: 'job',
    lists: {
      'files.txt': './reports/\n./tunnel.out\n./sauce-actions-output/\n./a/b/deep.txt\n./missing\n',
    },
    args: [
      '--exclude',
      '.gitlab-ci-local/**',
      '-rRa',
      '--exclude',
      'reports/*.tmp',
      '--files-from=../files.txt',
      '.',
      '../artifacts/job/.',
    ],
    result: 'artifacts/job',
    code: 23,
    tree: [
      './ 755',
      'a/ 755 @kept',
      'a/b/ 755 @kept',
      'a/b/deep.txt 644 "deep" @kept',
      'reports/ 755 @kept',
      'reports/.gitlab-ci-local/ 755 @kept',
      'reports/junit.xml 644 "<testsuites/>" @kept',
      'sauce-actions-output/ 755 @kept',
      'sauce-actions-output/run-x/ 755 @kept',
      'sauce-actions-output/run-x/results.json 644 "{}" @kept',
      'sauce-actions-output/run-x/sc.log -> ../../tunnel.out @kept',
      'tunnel.out 644 "tunnel=up" @kept',
    ],
  },
  {
    form: 'odd names and a read-only file in the way, merged',
    before: {
      'src/with space.txt': 'space',
      'src/-leading-dash': 'dash',
      'src/[brackets]*?.txt': 'glob characters',
      'src/ünïcødé/ファイル': 'unicode',
      'src/readonly.txt': { text: 'new text', mode: 0o444 },
      'dest/readonly.txt': { text: 'the old one', mode: 0o444 },
    },
    cwd: '.',
    args: ['-a', 'src/.', 'dest'],
    result: 'dest',
    code: 0,
    tree: [
      './ 755',
      '-leading-dash 644 "dash" @kept',
      '[brackets]*?.txt 644 "glob characters" @kept',
      'readonly.txt 444 "new text" @kept',
      'with space.txt 644 "space" @kept',
      'ünïcødé/ 755 @kept',
      'ünïcødé/ファイル 644 "unicode" @kept',
    ],
  },
];

let root: string;
let realRsync: string | undefined;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'rsync-stand-in-'));
  const found = await run(['sh', '-c', 'command -v rsync'], root);
  realRsync = found.code === 0 ? 'rsync' : undefined;
});

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

/** A row run by `command` in a folder of its own: the exit code and the tree left. */
async function runRow(row: Row, command: string[], folder: string) {
  const dir = path.join(root, folder);
  await build(dir, row.before);
  for (const [name, text] of Object.entries(row.lists ?? {})) await writeFile(path.join(dir, name), text);
  const result = await run([...command, ...row.args], path.join(dir, row.cwd));
  return { ...result, tree: await treeOf(path.join(dir, row.result)) };
}

describe('the rsync stand-in, form by form', () => {
  for (const [index, row] of ROWS.entries()) {
    it(row.form, async () => {
      const stood = await runRow(row, [process.execPath, STAND_IN], `stand-in-${index}`);
      expect(stood.code, stood.stderr).toBe(row.code);
      expect(stood.tree).toEqual([...row.tree].sort());
      if (row.code === 23) expect(stood.stderr).toMatch(/link_stat ".*missing" failed/);
      if (realRsync) {
        const real = await runRow(row, [realRsync], `rsync-${index}`);
        expect({ code: real.code, tree: real.tree }, real.stderr).toEqual({
          code: stood.code,
          tree: stood.tree,
        });
      }
    });
  }

  it('a form it does not implement is refused, not guessed at', async () => {
    const dir = path.join(root, 'refused');
    await build(dir, { 'src/file': 'x' });
    for (const args of [
      ['-av', 'src/.', 'dest'],
      ['-a', 'src', 'dest'],
      ['-r', 'src/.', 'dest'],
    ]) {
      const refused = await run([process.execPath, STAND_IN, ...args], dir);
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.stderr).toMatch(/^rsync: /);
    }
    expect(lstatSync(path.join(dir, 'src')).isDirectory()).toBe(true);
    await expect(lstat(path.join(dir, 'dest'))).rejects.toThrow();
  });
});

describe('its exclude patterns, as rsync reads them', () => {
  const cases: [pattern: string, name: string, folder: boolean, excluded: boolean][] = [
    ['node_modules/', 'node_modules', true, true],
    ['node_modules/', 'app/node_modules', true, true],
    ['node_modules/', 'node_modules', false, false],
    ['/build/', 'build', true, true],
    ['/build/', 'docs/build', true, false],
    ['/untracked.log', 'untracked.log', false, true],
    ['/untracked.log', 'a/untracked.log', false, false],
    ['.git/lfs', '.git/lfs', true, true],
    ['.git/lfs', 'sub/.git/lfs', true, true],
    ['.git/lfs', 'x.git/lfs', true, false],
    ['.gitlab-ci-local/**', '.gitlab-ci-local/cache/c', false, true],
    ['.gitlab-ci-local/**', 'a/.gitlab-ci-local/x', false, true],
    ['.gitlab-ci-local/**', '.gitlab-ci-local', true, false],
    ['*.tmp', 'reports/a.tmp', false, true],
    ['reports/*.tmp', 'reports/sub/a.tmp', false, false],
    ['reports/**.tmp', 'reports/sub/a.tmp', false, true],
    ['file?.txt', 'file1.txt', false, true],
    ['file?.txt', 'file10.txt', false, false],
    ['[ab].txt', 'b.txt', false, true],
    ['[!ab].txt', 'b.txt', false, false],
    ['out/***', 'out', true, true],
    ['out/***', 'out/x/y', false, true],
    ['a+b(1).txt', 'a+b(1).txt', false, true],
  ];
  it.each(cases)('%s on %s (a folder: %s): excluded %s', (pattern, name, folder, excluded) => {
    expect(isExcluded([excludeRule(pattern)], name, folder)).toBe(excluded);
  });
});
