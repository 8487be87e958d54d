/**
 * The parts of a verified download that the end-to-end tests do not reach: what a listing answer
 * must hold before it is trusted (from stand-ins for answers the emulator does not give), a mirror
 * held to the listed checksum, and the walk of an unpacked tree.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ActionError, recordingLogger } from '@sauce-actions/action-kit';
import type { SauceConnectDownload, SauceConnectDownloadParams } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outsideEntry } from '../src/archive-tree.ts';
import { resolveSource, type SourceOptions } from '../src/download-source.ts';
import { listingPlatform } from './archives.ts';
import { emulatorClient } from './helpers.ts';

const SHA = 'ab'.repeat(32);
const PIN = { algorithm: 'sha256' as const, value: 'cd'.repeat(32) };
const VERSION = '5.4.1';

function answering(answer: unknown): SourceOptions['listing'] & { asked: SauceConnectDownloadParams[] } {
  const asked: SauceConnectDownloadParams[] = [];
  return {
    asked,
    getSauceConnectDownload: async (params) => {
      asked.push(params);
      if (answer instanceof Error) throw answer;
      return answer as SauceConnectDownload;
    },
  };
}

const listed = (download: Record<string, unknown>) => ({
  download: {
    url: 'https://saucelabs.com/downloads/sauce-connect/5.4.1/sc.tar.gz',
    version: VERSION,
    checksums: [{ algorithm: 'sha256', value: SHA }],
    ...download,
  },
});

function options(listing: SourceOptions['listing'], extra: Partial<SourceOptions> = {}) {
  const logger = recordingLogger();
  return { logger, options: { version: VERSION, listing, logger, ...extra } satisfies SourceOptions };
}

async function refusalOf(promise: Promise<unknown>): Promise<ActionError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ActionError) return error;
    throw error;
  }
  throw new Error('resolved');
}

describe('resolveSource', () => {
  it('asks the listing for this platform and the version, and expects what it publishes', async () => {
    const listing = answering(listed({}));
    const source = await resolveSource(options(listing).options);
    expect(listing.asked).toEqual([{ ...listingPlatform(), version: VERSION }]);
    expect(source).toEqual({
      location: 'https://saucelabs.com/downloads/sauce-connect/5.4.1/sc.tar.gz',
      local: false,
      checksums: [expect.objectContaining({ algorithm: 'sha256', value: SHA })],
    });
  });

  it('holds a mirror without sc-checksum to the checksum the listing publishes', async () => {
    const source = await resolveSource(
      options(answering(listed({})), { downloadUrl: 'https://mirror.test/sc-{version}.tar.gz' }).options,
    );
    expect(source.location).toBe('https://mirror.test/sc-5.4.1.tar.gz');
    expect(source.checksums).toEqual([
      expect.objectContaining({ value: SHA, claim: 'the Sauce Labs download listing publishes' }),
    ]);
  });

  it('holds a mirror with sc-checksum to that alone, without asking the listing', async () => {
    const listing = answering(new Error('not asked'));
    const source = await resolveSource(
      options(listing, { downloadUrl: 'https://mirror.test/sc.tar.gz', checksum: PIN }).options,
    );
    expect(listing.asked).toEqual([]);
    expect(source.checksums).toEqual([expect.objectContaining({ ...PIN, claim: '`sc-checksum` says' })]);
  });

  it('downloads the official build verified by sc-checksum when the listing cannot be read, and says so', async () => {
    const { logger, options: given } = options(answering(new Error('connection reset')), { checksum: PIN });
    const source = await resolveSource(given);
    expect(source.location).toMatch(/^https:\/\/saucelabs\.com\/downloads\/sauce-connect\/5\.4\.1\//);
    expect(source.checksums).toEqual([expect.objectContaining(PIN)]);
    expect(logger.lines('warning')).toEqual([
      'Could not read the Sauce Labs download listing (connection reset); downloading the official build, verified by `sc-checksum`.',
    ]);
    // Without sc-checksum, nothing would verify it: the failure stands.
    await expect(resolveSource(options(answering(new Error('connection reset'))).options)).rejects.toThrow(
      'connection reset',
    );
  });

  it.each([
    [
      'an http:// address on another origin',
      listed({ url: 'http://downloads.test/sc.tar.gz' }),
      'service',
      'names "http://downloads.test/sc.tar.gz" for Sauce Connect 5.4.1',
    ],
    ['no address', listed({ url: undefined }), 'service', 'names undefined for'],
    [
      'another version',
      listed({ version: '5.5.0' }),
      'service',
      'offered version "5.5.0" for Sauce Connect 5.4.1',
    ],
    [
      'only a sha1',
      listed({ checksums: [{ algorithm: 'sha1', value: 'ab'.repeat(20) }] }),
      'refused',
      'publishes no checksum',
    ],
    [
      'a malformed sha256',
      listed({ checksums: [{ algorithm: 'sha256', value: 'xyz' }] }),
      'refused',
      'publishes no checksum',
    ],
    [
      'an error body',
      { error: { code: '404', message: 'Invalid input' } },
      'refused',
      'has no Sauce Connect 5.4.1',
    ],
    ['nothing', null, 'service', 'answered without a download'],
  ])('refuses a listing answer with %s', async (_case, answer, kind, message) => {
    const error = await refusalOf(resolveSource(options(answering(answer)).options));
    expect(error.kind).toBe(kind);
    expect(error.message).toContain(message);
  });

  it('accepts a plain http address only on the origin of a plain http listing', async () => {
    const answer = listed({ url: 'http://127.0.0.1:4545/downloads/sauce-connect/5.4.1/sc.tar.gz' });
    const source = await resolveSource(
      options(answering(answer), { plainHttpOrigin: 'http://127.0.0.1:4545' }).options,
    );
    expect(source.location).toBe('http://127.0.0.1:4545/downloads/sauce-connect/5.4.1/sc.tar.gz');
    const elsewhere = await refusalOf(
      resolveSource(options(answering(answer), { plainHttpOrigin: 'http://127.0.0.1:4546' }).options),
    );
    expect(elsewhere.message).toContain('which is not an https:// address');
  });

  describe('against the emulator', () => {
    let emulator: RunningEmulator;
    beforeAll(async () => {
      emulator = await startEmulator({ port: 0 });
    });
    afterAll(() => emulator.close());

    it('says which version and platform the service has no build of', async () => {
      const client = emulatorClient(emulator.url);
      try {
        const error = await refusalOf(resolveSource(options(client.automation.info).options));
        const { os: name, arch } = listingPlatform();
        expect(error.kind).toBe('refused');
        expect(error.message).toBe(
          `The Sauce Labs download listing has no Sauce Connect 5.4.1 for ${name} ${arch}. Check \`sc-version\` (a full version such as \`5.4.1\`), or give \`sc-path\`.`,
        );
      } finally {
        await client.close();
      }
    });
  });
});

describe('outsideEntry', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'manage-tunnel-tree-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  async function tree(name: string, build: (dir: string) => Promise<void>): Promise<string> {
    const dir = path.join(root, name);
    await mkdir(path.join(dir, 'bin'), { recursive: true });
    await writeFile(path.join(dir, 'bin', 'sc'), '');
    await build(dir);
    return dir;
  }

  it('accepts files, folders and relative links that stay inside', async () => {
    const dir = await tree('inside', (d) => symlink('bin/sc', path.join(d, 'sc')));
    expect(await outsideEntry(dir)).toBeUndefined();
  });

  it.each([
    [
      'a relative link out',
      (d: string) => symlink('../../outside', path.join(d, 'bin', 'out')),
      '"bin/out" is a link to ../../outside',
    ],
    [
      'an absolute link, even to inside',
      (d: string) => symlink(path.join(d, 'bin', 'sc'), path.join(d, 'sc')),
      '"sc" is a link to /',
    ],
    [
      'a link to the folder itself',
      (d: string) => symlink('.', path.join(d, 'self')),
      '"self" is a link to .',
    ],
  ])('refuses %s', async (name, build, message) => {
    const dir = await tree(name.replaceAll(' ', '-'), build);
    expect(await outsideEntry(dir)).toContain(message);
  });

  it.skipIf(process.platform === 'win32')('refuses what is neither a file, a folder nor a link', async () => {
    const dir = await tree('fifo', async (d) => {
      execFileSync('mkfifo', [path.join(d, 'bin', 'pipe')]);
    });
    expect(await outsideEntry(dir)).toBe('"bin/pipe" is neither a file, a folder nor a link');
  });
});
