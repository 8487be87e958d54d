/**
 * Where `start` gets Sauce Connect, run on the bundles against the emulator: the download listing
 * names the archive and its checksums; the archive is verified (against the listing, or
 * `sc-checksum`) before anything is unpacked, cached or run; a plain http:// address is refused
 * before any request; and an archive whose entries point out of its folder is never cached. The
 * runner's tool cache (the action) and the command line's are both checked.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort, type StepResult } from '@sauce-actions/action-harness';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../test/e2e/support/cli.ts';
import { publishBuild, sha256, tarGz, type TarEntry } from './archives.ts';
import { fakeSauceConnectScript } from './fake-sc.ts';
import { ACCESS_KEY, admin, endLaunches, errors, runAction, USERNAME } from './helpers.ts';

let emulator: RunningEmulator;
let dir: string;
let pidsDir: string;
const steps: StepResult[] = [];

interface JournalEntry {
  method: string;
  path: string;
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  dir = await mkdtemp(path.join(os.tmpdir(), 'manage-tunnel-download-'));
  pidsDir = path.join(dir, 'pids');
  await mkdir(pidsDir);
});

afterEach(() => endLaunches(pidsDir, steps));

afterAll(async () => {
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

/** The stand-in packed as the official archive is: `sc` at its top. */
const goodArchive = (extra: TarEntry[] = []): Buffer =>
  tarGz([{ name: 'sc', body: fakeSauceConnectScript(), mode: 0o755 }, ...extra]);

let caches = 0;
/** A tool cache of the test's own. */
function newCache(): string {
  return path.join(dir, 'caches', String(++caches));
}

const launches = async (): Promise<number> => (await readdir(pidsDir)).length;

async function journal(): Promise<string[]> {
  const { requests } = await admin<{ requests: JournalEntry[] }>(emulator.url, 'GET', 'requests');
  return requests.map((entry) => `${entry.method} ${entry.path}`);
}

async function clearJournal(): Promise<void> {
  await admin(emulator.url, 'DELETE', 'requests');
}

/** `start` through the bundle (main, then post), with a tool cache of its own. */
async function start(inputs: Record<string, string>, cache: string): Promise<StepResult> {
  const result = await runAction(
    emulator.url,
    {
      operation: 'start',
      'tunnel-name': `dl-${caches}`,
      'status-address': `127.0.0.1:${await freePort()}`,
      'poll-interval': '1s',
      ...inputs,
    },
    { env: { FAKE_SC_EMULATOR: emulator.url, FAKE_SC_PIDS: pidsDir, RUNNER_TOOL_CACHE: cache } },
  );
  steps.push(result);
  return result;
}

/** What a tool cache holds: its `tool/version` folders. */
async function cached(cache: string): Promise<string[]> {
  const tool = path.join(cache, 'sauce-connect');
  return existsSync(tool) ? (await readdir(tool)).filter((name) => !name.endsWith('.complete')) : [];
}

describe('start downloads Sauce Connect from the listing', () => {
  it('reads the listing, verifies the sha256 it publishes, caches the build, and finds it there next time', async () => {
    const archive = goodArchive();
    await publishBuild(emulator.url, '5.4.1', archive);
    const cache = newCache();
    await clearJournal();
    const first = await start({}, cache);

    expect(errors(first)).toBe('');
    expect(first.exitCode).toBe(0);
    const key = `5.4.1-sha256-${sha256(archive)}`;
    expect(await cached(cache)).toEqual([key]);
    expect(first.log).toContain(`sha256 ${sha256(archive)}`);
    expect(first.summary).toContain(
      `<td>Sauce Connect archive</td><td>sha256 ${sha256(archive)} (the Sauce Labs download listing)</td>`,
    );
    expect(first.log).toContain(path.join(cache, 'sauce-connect', key, os.arch(), 'sc'));
    const requests = await journal();
    expect(requests.filter((r) => r.includes('/sauce-connect'))).toEqual([
      'GET /rest/v1/public/tunnels/sauce-connect/download',
      'GET /downloads/sauce-connect/5.4.1/sauce-connect-5.4.1.tar.gz',
    ]);

    await clearJournal();
    const second = await start({}, cache);
    expect(second.exitCode).toBe(0);
    expect(second.log).toContain('found in the tool cache');
    // The listing is read again, to know which verified build to look for; nothing is downloaded.
    expect((await journal()).filter((r) => r.includes('/sauce-connect'))).toEqual([
      'GET /rest/v1/public/tunnels/sauce-connect/download',
    ]);
    expect(await launches()).toBeGreaterThanOrEqual(2);
  });

  it('fails on a tampered archive before anything is cached or run', async () => {
    const before = await launches();
    const listed = goodArchive();
    const served = goodArchive([{ name: 'extra', body: 'slipped in' }]);
    await publishBuild(emulator.url, '5.90.0', served, [{ algorithm: 'sha256', value: sha256(listed) }]);
    const cache = newCache();
    const result = await start({ 'sc-version': '5.90.0' }, cache);

    expect(result.exitCode).toBe(1);
    expect(errors(result)).toContain(
      `does not match: its sha256 is ${sha256(served)}, but the Sauce Labs download listing publishes ${sha256(listed)}`,
    );
    expect(await cached(cache)).toEqual([]);
    expect(await launches()).toBe(before);
  });

  it('refuses a plain http:// sc-download-url before any request', async () => {
    await publishBuild(emulator.url, '5.91.0', goodArchive());
    await clearJournal();
    const cache = newCache();
    const result = await start(
      {
        'sc-version': '5.91.0',
        'sc-download-url': `${emulator.url}/downloads/sauce-connect/{version}/sauce-connect-{version}.tar.gz`,
      },
      cache,
    );

    expect(result.exitCode).toBe(1);
    expect(errors(result)).toContain('Input "sc-download-url" is a plain http:// address');
    expect(await journal()).toEqual([]);
    expect(await cached(cache)).toEqual([]);
  });
});

describe('start with sc-checksum', () => {
  const archive = goodArchive();
  const other = sha256(Buffer.from('another archive'));
  let local: string;

  beforeAll(async () => {
    local = path.join(dir, 'local', 'sauce-connect-5.92.0.tar.gz');
    await mkdir(path.dirname(local), { recursive: true });
    await writeFile(local, archive);
    await publishBuild(emulator.url, '5.92.0', archive);
    await publishBuild(emulator.url, '5.93.0', archive, []);
  });

  it.each([
    ['a local archive and its sha256', { 'sc-download-url': 'LOCAL', 'sc-checksum': 'SHA' }, 'verified'],
    [
      'a local archive and another sha256',
      { 'sc-download-url': 'LOCAL', 'sc-checksum': 'OTHER' },
      'mismatch',
    ],
    ['the listed build and its sha256', { 'sc-checksum': 'sha256:SHA' }, 'verified'],
    ['the listed build and another sha256', { 'sc-checksum': 'sha256:OTHER' }, 'mismatch'],
    [
      'a listed build without checksums, and its sha256',
      { 'sc-version': '5.93.0', 'sc-checksum': 'SHA' },
      'verified',
    ],
    ['a listed build without checksums, and none given', { 'sc-version': '5.93.0' }, 'no checksum'],
  ] as const)('%s: %s', async (_case, given, outcome) => {
    const inputs: Record<string, string> = { 'sc-version': '5.92.0' };
    for (const [name, value] of Object.entries(given)) {
      inputs[name] = value
        .replace('LOCAL', local.replace('5.92.0', '{version}'))
        .replace('OTHER', other)
        .replace('SHA', sha256(archive));
    }
    const cache = newCache();
    const result = await start(inputs, cache);

    if (outcome === 'verified') {
      expect(errors(result)).toBe('');
      expect(result.exitCode).toBe(0);
      expect(await cached(cache)).toEqual([`${inputs['sc-version']}-sha256-${sha256(archive)}`]);
      return;
    }
    expect(result.exitCode).toBe(1);
    expect(await cached(cache)).toEqual([]);
    if (outcome === 'mismatch') {
      expect(errors(result)).toContain(`its sha256 is ${sha256(archive)}, but \`sc-checksum\` says ${other}`);
    } else {
      expect(errors(result)).toContain('publishes no checksum');
      expect(errors(result)).toContain('`sc-checksum`');
    }
  });
});

describe('archive entries stay inside their folder', () => {
  it.each([
    ['a ../ entry', (outside: string) => [{ name: `../${path.basename(outside)}`, body: 'x' }], 'refused'],
    [
      'a symlink out of the folder',
      (outside: string) => [{ name: 'link', type: 'symlink', linkname: outside }],
      'refused',
    ],
    [
      'a symlink out, then a file through it',
      (outside: string) => [
        { name: 'link', type: 'symlink', linkname: path.dirname(outside) },
        { name: `link/${path.basename(outside)}`, body: 'x' },
      ],
      'refused',
    ],
    ['an absolute entry', (outside: string) => [{ name: outside, body: 'x' }], 'kept inside'],
  ] as const)('%s', async (_case, entries, outcome) => {
    const outside = path.join(dir, 'outside', `escaped-${caches + 1}`);
    await mkdir(path.dirname(outside), { recursive: true });
    const version = `5.94.${caches + 1}`;
    // Published with its true checksum: the listing itself is what cannot be trusted here.
    await publishBuild(emulator.url, version, goodArchive(entries(outside) as TarEntry[]));
    const cache = newCache();
    const result = await start({ 'sc-version': version }, cache);

    expect(existsSync(outside)).toBe(false);
    expect(existsSync(path.join(result.runnerTemp, path.basename(outside)))).toBe(false);
    if (outcome === 'kept inside') {
      // GNU tar drops the leading `/`: the file lands inside the folder, which is where it belongs.
      expect(result.exitCode).toBe(0);
      return;
    }
    expect(result.exitCode).toBe(1);
    expect(await cached(cache)).toEqual([]);
  });

  it('refuses an archive whose sc is a link to an executable outside it', async () => {
    const before = await launches();
    const archive = tarGz([{ name: 'sc', type: 'symlink', linkname: process.execPath }]);
    await publishBuild(emulator.url, '5.95.0', archive);
    const cache = newCache();
    const result = await start({ 'sc-version': '5.95.0' }, cache);

    expect(result.exitCode).toBe(1);
    expect(errors(result)).toContain(`"sc" is a link to ${process.execPath}, outside the archive`);
    expect(await cached(cache)).toEqual([]);
    expect(await launches()).toBe(before);
  });
});

describe('the command line verifies the same way', () => {
  it('fails on a tampered archive, leaving its tool cache empty', async () => {
    const listed = goodArchive();
    const served = goodArchive([{ name: 'extra', body: 'slipped in' }]);
    await publishBuild(emulator.url, '5.96.0', served, [{ algorithm: 'sha256', value: sha256(listed) }]);
    const cache = newCache();
    const run = await runCli(
      [
        'manage-tunnel',
        '--operation',
        'start',
        '--tunnel-name',
        'cli-tampered',
        '--sc-version',
        '5.96.0',
        '--status-address',
        `127.0.0.1:${await freePort()}`,
        '--api-url',
        emulator.url,
      ],
      {
        cwd: dir,
        env: {
          SAUCE_USERNAME: USERNAME,
          SAUCE_ACCESS_KEY: ACCESS_KEY,
          SAUCE_ACTIONS_TOOL_CACHE: cache,
          FAKE_SC_EMULATOR: emulator.url,
          FAKE_SC_PIDS: pidsDir,
        },
      },
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(`its sha256 is ${sha256(served)}`);
    expect(await cached(cache)).toEqual([]);
  });
});
