/**
 * The command line as users get it: `npm pack` of `packages/cli` makes one tarball with nothing
 * to install besides, which `npm install --global` and `npx` install and run on Node 24 (the
 * project's) and Node 22 (from the npm registry), against the emulator; a Node older than 22 is
 * refused in one line, or one JSON object with `--json`, exit 2, by the package's entry and by
 * the checkout's `dist/cli.js` alike.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOBILE_ENV, SAUCE_ENV, useCliTerminal } from './support/cli.ts';
import { ROOT } from './support/lab.ts';
import {
  definedOnly,
  installNode,
  nodeVersion,
  onPath,
  runProgram,
  type ProgramRun,
} from './support/node-versions.ts';

const terminal = useCliTerminal();
const BASE_PATH = process.env.PATH ?? '';
const PACKAGE = JSON.parse(await readFile(path.join(ROOT, 'packages', 'cli', 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};

let dir: string;
let tarball: string;
/** The `node` binary's folder of each Node.js tried, by name. */
const nodes: Record<'24' | '22' | 'old', string> = { '24': '', '22': '', old: '' };

/** A Node.js older than 22 on PATH (outside node_modules), else Node 20 from the registry. */
async function olderNodeBin(prefix: string): Promise<string> {
  for (const folder of BASE_PATH.split(path.delimiter)) {
    const node = onPath('node', folder, /node_modules/);
    const version = node !== undefined ? await nodeVersion(node, prefix) : undefined;
    if (version !== undefined && Number(version.split('.')[0]) < 22) return folder;
  }
  return installNode(20, prefix, BASE_PATH);
}

/** The environment of a user whose PATH starts with that Node.js: nothing else of the machine's. */
function userEnv(node: keyof typeof nodes, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: `${nodes[node]}${path.delimiter}${BASE_PATH}`, HOME: dir, ...extra };
}

/** npm's environment with that Node.js first on PATH: the user's, which npm may need for the registry. */
function npmEnv(node: keyof typeof nodes | 'project', cache: string): Record<string, string> {
  const first = node === 'project' ? [] : [nodes[node]];
  return {
    ...definedOnly(process.env),
    PATH: [...first, BASE_PATH].join(path.delimiter),
    npm_config_cache: path.join(dir, cache),
    npm_config_update_notifier: 'false',
  };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cli-package-'));
  const npm = onPath('npm', BASE_PATH);
  if (npm === undefined) throw new Error('npm is not on PATH');
  const pack = await runProgram(
    npm,
    ['pack', '--workspace', 'packages/cli', '--pack-destination', dir, '--json'],
    { cwd: ROOT, env: npmEnv('project', 'npm-cache') },
  );
  expect(pack.code, pack.stderr).toBe(0);
  const [packed] = JSON.parse(pack.stdout) as { filename: string }[];
  tarball = path.join(dir, packed!.filename);
  const node24 = onPath('node', BASE_PATH);
  nodes['24'] = path.dirname(node24 ?? process.execPath);
  [nodes['22'], nodes.old] = await Promise.all([
    installNode(22, path.join(dir, 'node22'), BASE_PATH),
    olderNodeBin(path.join(dir, 'node-old')),
  ]);
  await workspaceWithApp();
}, 600_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function workspaceWithApp(): Promise<void> {
  await terminal.workspace();
  await createSampleApk(path.join(terminal.dir, 'app.apk'), {
    packageId: 'com.example.packaged',
    name: 'Packaged',
    version: '3.2.1',
    versionCode: 321,
  });
}

describe('the tarball', () => {
  it('is the package with its bundle inside and nothing to install', async () => {
    const list = await runProgram('tar', ['-tzf', tarball], { cwd: dir, env: { PATH: BASE_PATH } });
    const files = list.stdout.split('\n').filter((line) => line !== '');
    expect(files).toEqual(
      expect.arrayContaining([
        'package/package.json',
        'package/bin/sauce-actions.cjs',
        'package/dist/cli.js',
      ]),
    );
    expect(files.some((file) => file.startsWith('package/dist/chunks/'))).toBe(true);
    const manifest = JSON.parse(
      (
        await runProgram('tar', ['-xzOf', tarball, 'package/package.json'], {
          cwd: dir,
          env: { PATH: BASE_PATH },
        })
      ).stdout,
    ) as Record<string, unknown>;
    expect(manifest.name).toBe('sauce-actions');
    expect(manifest.bin).toEqual({ 'sauce-actions': 'bin/sauce-actions.cjs' });
    expect(manifest.dependencies ?? {}).toEqual({});
    // The bundle of the checkout, byte for byte.
    const packedCli = await runProgram('tar', ['-xzOf', tarball, 'package/dist/cli.js'], {
      cwd: dir,
      env: { PATH: BASE_PATH },
    });
    expect(packedCli.stdout).toBe(await readFile(path.join(ROOT, 'dist', 'cli.js'), 'utf8'));
  });
});

describe.each(['24', '22'] as const)('on Node %s', (node) => {
  let bin: string;

  beforeAll(async () => {
    const prefix = path.join(dir, `global-${node}`);
    const npm = onPath('npm', BASE_PATH)!;
    const install = await runProgram(
      npm,
      ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', tarball],
      {
        cwd: dir,
        env: npmEnv(node, `npm-cache-${node}`),
      },
    );
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toContain('added 1 package');
    bin = path.join(prefix, 'bin', 'sauce-actions');
  }, 120_000);

  const run = (args: readonly string[], env: Record<string, string> = {}): Promise<ProgramRun> =>
    runProgram(bin, args, { cwd: terminal.dir, env: userEnv(node, env) });

  it('npm install --global: --version, --help', async () => {
    const version = await run(['--version']);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout).toBe(`sauce-actions ${PACKAGE.version}\n`);
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: sauce-actions <action>');
    expect(help.stderr).toBe('');
  });

  it('npm install --global: upload-build (a glob) and manage-tunnel against the emulator', async () => {
    const upload = await run(['upload-build', '--file', '*.apk', '--json'], {
      ...MOBILE_ENV,
      SAUCE_API_URL: terminal.lab.url,
    });
    expect(upload.code, upload.stderr).toBe(0);
    expect(JSON.parse(upload.stdout)).toMatchObject({ 'app-name': 'Packaged', 'app-version': '3.2.1' });
    expect(upload.stderr).not.toMatch(/Warning|\n {4}at /);
    const list = await run(
      ['manage-tunnel', '--operation', 'list', '--api-url', terminal.lab.url, '--json'],
      SAUCE_ENV,
    );
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { tunnels: string }).tunnels).toContain('demo-tunnel');
  });

  it('npx --package <tarball> sauce-actions', async () => {
    const npx = onPath('npx', BASE_PATH)!;
    const version = await runProgram(npx, ['--yes', '--package', tarball, 'sauce-actions', '--version'], {
      cwd: terminal.dir,
      env: npmEnv(node, `npx-cache-${node}`),
    });
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout).toBe(`sauce-actions ${PACKAGE.version}\n`);
  });
});

describe('on a Node.js older than 22', () => {
  let entry: string;
  beforeAll(async () => {
    const prefix = path.join(dir, 'global-old');
    const npm = onPath('npm', BASE_PATH)!;
    const install = await runProgram(
      npm,
      ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', tarball],
      {
        cwd: dir,
        env: npmEnv('old', 'npm-cache-old'),
      },
    );
    expect(install.code, install.stderr).toBe(0);
    entry = path.join(prefix, 'bin', 'sauce-actions');
  }, 120_000);

  it.each([
    ['the package', () => [entry]],
    ["the checkout's dist/cli.js", () => [path.join(nodes.old, 'node'), path.join(ROOT, 'dist', 'cli.js')]],
  ])('%s refuses it in one line, exit 2, before anything is sent', async (_, command) => {
    const [file, ...first] = command();
    await terminal.lab.clearJournal();
    const args = ['upload-build', '--file', 'app.apk', '--api-url', terminal.lab.url];
    const plain = await runProgram(file!, [...first, ...args], {
      cwd: terminal.dir,
      env: userEnv('old', MOBILE_ENV),
    });
    expect(plain.code).toBe(2);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).toMatch(
      /^error: sauce-actions needs Node\.js 22 or later, and this is Node\.js (\d+)\.[^\n]*\n$/,
    );
    expect(Number(/Node\.js (\d+)\./.exec(plain.stderr.replace('Node.js 22', ''))?.[1])).toBeLessThan(22);
    const json = await runProgram(file!, [...first, ...args, '--json'], {
      cwd: terminal.dir,
      env: userEnv('old', MOBILE_ENV),
    });
    expect(json.code).toBe(2);
    expect(json.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(json.stdout)).toEqual({
      error: { kind: 'usage', message: expect.stringContaining('needs Node.js 22 or later') as unknown },
    });
    expect(await terminal.lab.journal()).toEqual([]);
  });
});
