import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DownloadLimitError } from '../../src/index.ts';
import { apiFailure, AUTOMATION_ORIGIN, onlyRequest, SAUCE_AUTH, useMock } from './helpers.ts';

const JOB_ID = '0123456789abcdef0123456789abcdef';
const ASSETS = `/rest/v1/alice/jobs/${JOB_ID}/assets`;

describe('automation job assets', () => {
  const mock = useMock();
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'assets-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('listJobAssets maps names to file names or null', async () => {
    const setup = mock();
    const body = { 'sauce-log': 'log.json', video: null, screenshots: ['0000screenshot.png'] };
    setup.reply(AUTOMATION_ORIGIN, 'GET', ASSETS, { body });
    const assets = await setup.client.automation.assets.list(JOB_ID);
    expect(assets).toEqual(body);
    expect(assets.video).toBeNull();
    const request = onlyRequest(setup);
    expect(request.method).toBe('GET');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('downloadJobAsset streams the asset into the folder', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', `${ASSETS}/selenium-server.log`, {
      body: 'line 1\nline 2\n',
      headers: { 'content-type': 'text/plain' },
    });
    const result = await setup.client.automation.assets.download(JOB_ID, 'selenium-server.log', dir);
    expect(result.path).toBe(path.join(dir, 'selenium-server.log'));
    expect(result.bytes).toBe(14);
    expect(await readFile(result.path, 'utf8')).toBe('line 1\nline 2\n');
    const request = onlyRequest(setup);
    expect(request.method).toBe('GET');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('downloadJobAsset keeps a hostile name inside the folder', async () => {
    const setup = mock();
    const hostile = '../../evil\u0000.log';
    setup.reply(AUTOMATION_ORIGIN, 'GET', `${ASSETS}/${encodeURIComponent(hostile)}`, { body: 'x' });
    const result = await setup.client.automation.assets.download(JOB_ID, hostile, dir);
    expect(result.path).toBe(path.join(dir, 'evil.log'));
    expect(await readdir(dir)).toEqual(['evil.log']);
    expect(onlyRequest(setup).path).toBe(`${ASSETS}/..%2F..%2Fevil%00.log`);

    setup.reply(AUTOMATION_ORIGIN, 'GET', `${ASSETS}/video.mp4`, { body: 'v' });
    const saved = await setup.client.automation.assets.download(JOB_ID, 'video.mp4', dir, {
      saveAs: '/etc/passwd',
    });
    expect(saved.path).toBe(path.join(dir, 'passwd'));
  });

  it('downloadJobAsset stops past maxBytes and keeps nothing of the file', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', `${ASSETS}/video.mp4`, { body: 'v'.repeat(5000) });
    const error = await setup.client.automation.assets
      .download(JOB_ID, 'video.mp4', dir, { maxBytes: 1000 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DownloadLimitError);
    expect(error).toMatchObject({ fileName: 'video.mp4', maxBytes: 1000 });
    expect(await readdir(dir)).toEqual([]);

    setup.reply(AUTOMATION_ORIGIN, 'GET', `${ASSETS}/log.json`, { body: 'l'.repeat(1000) });
    const kept = await setup.client.automation.assets.download(JOB_ID, 'log.json', dir, { maxBytes: 1000 });
    expect(kept.bytes).toBe(1000);
  });

  it('downloadJobAsset failure leaves no file and gives the exact message', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', `${ASSETS}/video.mp4`, {
      status: 404,
      body: { message: 'asset not found' },
    });
    const error = await apiFailure(setup.client.automation.assets.download(JOB_ID, 'video.mp4', dir));
    expect(error.message).toBe(`downloadJobAsset: 404 asset not found (GET ${ASSETS}/video.mp4)`);
    expect(await readdir(dir)).toEqual([]);
  });

  it('deleteJobAssets sends DELETE for another account', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'DELETE', `/rest/v1/bob/jobs/${JOB_ID}/assets`, { body: ['video'] });
    await expect(setup.client.automation.assets.delete(JOB_ID, { username: 'bob' })).resolves.toBeUndefined();
    const request = onlyRequest(setup);
    expect(request.method).toBe('DELETE');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });
});
