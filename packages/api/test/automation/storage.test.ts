import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SauceClient } from '../../src/index.ts';
import { json, startServer, stopAll } from '../support/server.ts';
import { apiFailure, AUTOMATION_ORIGIN, onlyRequest, SAUCE_AUTH, useMock } from './helpers.ts';

describe('automation temporary storage', () => {
  const mock = useMock();
  let dir = '';
  let file = '';
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'storage-'));
    file = path.join(dir, 'app build.zip');
    await writeFile(file, 'zip-bytes-0123');
  });
  afterEach(async () => {
    await stopAll();
    await rm(dir, { recursive: true, force: true });
  });

  it('uploadTemporaryFile sends the file bytes as they are on disk', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 254, 10, 13]);
    await writeFile(file, bytes);
    const server = await startServer((_request, response) => json(response, 200, { size: bytes.length }));
    const client = new SauceClient({
      username: 'alice',
      accessKey: 'secret-access-key',
      automationUrl: server.url,
      retry: { retries: 0 },
    });
    try {
      await client.automation.storage.upload(file, { fileName: 'raw.bin' });
    } finally {
      await client.close();
    }
    const [received] = server.requests;
    expect(received?.method).toBe('POST');
    expect(received?.url).toBe('/rest/v1/storage/alice/raw.bin');
    expect(received?.headers['content-length']).toBe(String(bytes.length));
    expect(received?.body.equals(bytes)).toBe(true);
  });

  it('uploadTemporaryFile streams the raw file with its length', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'POST', '/rest/v1/storage/alice/app%20build.zip', {
      body: { username: 'alice', filename: 'app build.zip', size: 14 },
    });
    const answer = await setup.client.automation.storage.upload(file);
    expect(answer.size).toBe(14);
    const request = onlyRequest(setup);
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/rest/v1/storage/alice/app%20build.zip');
    expect(request.headers['content-type']).toBe('application/octet-stream');
    expect(request.headers['content-length']).toBe('14');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('uploadTemporaryFile asks to overwrite and takes another name', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'POST', '/rest/v1/storage/bob/app.zip', { body: { filename: 'app.zip' } });
    await setup.client.automation.storage.upload(file, {
      fileName: 'app.zip',
      overwrite: true,
      username: 'bob',
    });
    expect(onlyRequest(setup).query.get('overwrite')).toBe('true');
  });

  it('uploadTemporaryFile does not send overwrite unless asked', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'POST', '/rest/v1/storage/alice/app%20build.zip', { body: {} });
    await setup.client.automation.storage.upload(file, { overwrite: false });
    expect(onlyRequest(setup).query.has('overwrite')).toBe(false);
  });

  it('uploadTemporaryFile refuses a folder before sending', async () => {
    const setup = mock();
    await expect(setup.client.automation.storage.upload(dir)).rejects.toThrow(/not a file/);
    expect(setup.requests).toHaveLength(0);
  });

  it('uploadTemporaryFile failure gives the exact message', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'POST', '/rest/v1/storage/alice/app%20build.zip', {
      status: 409,
      body: { message: 'file exists' },
    });
    const error = await apiFailure(setup.client.automation.storage.upload(file));
    expect(error.message).toBe(
      'uploadTemporaryFile: 409 file exists (POST /rest/v1/storage/alice/app%20build.zip)',
    );
  });

  it('listTemporaryFiles reads the stored files', async () => {
    const setup = mock();
    const body = { files: [{ name: 'app.zip', size: 14, mtime: 1_700_000_000, md5: 'abc' }] };
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/storage/alice', { body });
    const list = await setup.client.automation.storage.list();
    expect(list.files[0]?.name).toBe('app.zip');
    const request = onlyRequest(setup);
    expect(request.method).toBe('GET');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });
});
