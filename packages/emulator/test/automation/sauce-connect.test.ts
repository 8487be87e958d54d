/**
 * Sauce Connect downloads as the service publishes them: the public listing of a version and
 * platform (address and checksums), the archive it names, and Sauce Connect's own tunnel
 * collisions (a start outside a pool shuts down the running tunnels of its name).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.ts';
import { DEMO_USER } from '../support/emulator.ts';
import { call } from '../support/http.ts';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ host: '127.0.0.1', port: 0 });
});
afterAll(() => emulator.close());

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

async function publish(body: Record<string, unknown>): Promise<{ status: number; json: unknown }> {
  return call(`${emulator.url}/_emulator/sauce-connect`, { method: 'POST', json: body, auth: null });
}

function listing(query: string, prefix = '/rest/v1') {
  return call(`${emulator.url}${prefix}/public/tunnels/sauce-connect/download?${query}`, { auth: null });
}

describe('Sauce Connect download listing', () => {
  const archive = Buffer.from('an archive of 5.4.1 for linux x86_64');
  const newer = Buffer.from('an archive of 5.10.0 for linux x86_64');

  beforeAll(async () => {
    expect(
      (await publish({ version: '5.4.1', os: 'linux', arch: 'x86_64', archive: archive.toString('base64') }))
        .status,
    ).toBe(201);
    await publish({ version: '5.10.0', os: 'linux', arch: 'x86_64', archive: newer.toString('base64') });
  });

  it('names the archive of a version and platform with its sha256, without credentials', async () => {
    const answer = await listing('os=linux&arch=x86_64&version=5.4.1');
    expect(answer.status).toBe(200);
    const url = `${emulator.url}/downloads/sauce-connect/5.4.1/sauce-connect-5.4.1_linux.x86_64.tar.gz`;
    expect(answer.json).toEqual({
      download: { url, version: '5.4.1', checksums: [{ algorithm: 'sha256', value: sha256(archive) }] },
    });
    const download = await fetch(url);
    expect(download.status).toBe(200);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(archive));
    // The other REST prefixes serve it too, as they do every automation operation.
    expect((await listing('os=linux&arch=x86_64&version=5.4.1', '/rest/v1.1')).json).toEqual(answer.json);
  });

  it('offers the newest build when no version is asked for, by version order rather than text', async () => {
    expect((await listing('os=linux&arch=x86_64')).json).toMatchObject({ download: { version: '5.10.0' } });
  });

  it.each([
    ['an unknown version', 'os=linux&arch=x86_64&version=9.9.9'],
    ['a platform without builds', 'os=windows&arch=arm64&version=5.4.1'],
    ['no platform', 'version=5.4.1'],
  ])('answers 404 with the service error body for %s', async (_case, query) => {
    const answer = await listing(query);
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ error: { code: '404', message: 'Invalid input' } });
  });

  it('publishes the checksums it is given, to stand for a tampered download or none at all', async () => {
    const bytes = Buffer.from('not what the listing describes');
    await publish({
      version: '5.4.2',
      os: 'macos',
      arch: 'arm64',
      archive: bytes.toString('base64'),
      fileName: 'sc-5.4.2.tar.gz',
      checksums: [{ algorithm: 'sha256', value: 'ab'.repeat(32) }],
    });
    const answer = await listing('os=macos&arch=arm64&version=5.4.2');
    expect(answer.json).toEqual({
      download: {
        url: `${emulator.url}/downloads/sauce-connect/5.4.2/sc-5.4.2.tar.gz`,
        version: '5.4.2',
        checksums: [{ algorithm: 'sha256', value: 'ab'.repeat(32) }],
      },
    });
    await publish({ version: '5.4.3', os: 'macos', arch: 'arm64', archive: 'eA==', checksums: [] });
    expect((await listing('os=macos&arch=arm64&version=5.4.3')).json).toMatchObject({
      download: { checksums: [] },
    });
  });

  it.each([
    ['a file name with a slash', { fileName: '../x.tar.gz' }],
    ['a version that is not one', { version: '../../x' }],
    ['an unknown os', { os: 'plan9' }],
  ])('refuses to publish %s', async (_case, change) => {
    const answer = await publish({
      version: '5.4.1',
      os: 'linux',
      arch: 'x86_64',
      archive: 'eA==',
      ...change,
    });
    expect(answer.status).toBe(400);
  });

  it('serves no file that was not published', async () => {
    expect((await fetch(`${emulator.url}/downloads/sauce-connect/5.4.1/other.tar.gz`)).status).toBe(404);
    expect((await fetch(`${emulator.url}/downloads/sauce-connect/5.4.1/..%2F..%2Fstate.json`)).status).toBe(
      404,
    );
  });
});

describe('tunnel collisions', () => {
  const register = (name: string, pool?: boolean) =>
    call(`${emulator.url}/_emulator/tunnels`, {
      method: 'POST',
      auth: null,
      json: {
        owner: DEMO_USER,
        tunnel_identifier: name,
        ...(pool === undefined ? {} : { tunnel_pool: pool }),
      },
    });
  const statusOf = async (id: string) =>
    ((await call(`${emulator.url}/rest/v1/${DEMO_USER}/tunnels/${id}`)).json as { status: string }).status;

  it('shuts down the running tunnels of a name when Sauce Connect starts one outside a pool', async () => {
    const first = (await register('collide', false)).json as { id: string };
    const pooled = (await register('collide', true)).json as { id: string };
    expect(await statusOf(first.id)).toBe('running');
    const replacing = (await register('collide', false)).json as { id: string };
    expect(await statusOf(first.id)).toBe('terminated');
    expect(await statusOf(pooled.id)).toBe('terminated');
    expect(await statusOf(replacing.id)).toBe('running');
  });

  it('leaves others alone when a test sets tunnels up without saying how Sauce Connect started', async () => {
    const first = (await register('set-up')).json as { id: string };
    await register('set-up');
    expect(await statusOf(first.id)).toBe('running');
  });
});
