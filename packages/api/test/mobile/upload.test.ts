import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SauceClient, TransportError, type UploadProgress } from '../../src/index.ts';
import { apiErrorOf } from './helpers.ts';
import { multipartFields, startUploadServer, type UploadAnswer, type UploadServer } from './upload-server.ts';

const RESULT = {
  status: 'ok',
  build_id: 70,
  project_id: 7,
  app_name: 'Shop',
  app_version: '1.2.0',
  file_size: 4096,
  build_url: 'https://mobile.example/builds/70',
  download_page_url: 'https://mobile.example/download/70',
  app_url: 'https://mobile.example/app/70',
  invite_testers_url: 'https://mobile.example/invite/70',
  icon_url: 'https://mobile.example/icon/70',
  options: 'video,feedback',
  platform: 'Android',
  tags: ['beta'],
  metadata: [],
  has_vendor_sdk: false,
  symbols_download_url: '',
  attachments: null,
  landing_page_url: 'https://mobile.example/lp',
  build_specific_landing_page_url: 'https://mobile.example/lp/70',
  landing_page_mode: 'open',
};

describe('mobile upload', () => {
  let dir: string;
  let appFile: string;
  let symbolsFile: string;
  let appBytes: Buffer;
  let server: UploadServer | undefined;
  let client: SauceClient | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mobile-upload-'));
    appFile = path.join(dir, 'shop.apk');
    symbolsFile = path.join(dir, 'mapping.txt');
    // Every byte value, so that a text re-encoding anywhere would show.
    appBytes = Buffer.concat([
      Buffer.from('PK\u0003\u0004'),
      Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
    ]);
    appBytes = Buffer.concat(Array.from({ length: 64 }, () => appBytes));
    await writeFile(appFile, appBytes);
    await writeFile(symbolsFile, 'com.example.a -> a:\n');
  });

  afterEach(async () => {
    await client?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
    client = undefined;
    server = undefined;
  });

  async function start(answer: UploadAnswer, bearer = false): Promise<SauceClient> {
    server = await startUploadServer(answer);
    client = new SauceClient({
      email: 'alice@example.com',
      ...(bearer
        ? { oidcToken: 'oidc-token-value', oidcConfigKey: 'oidc-config' }
        : { apiKey: 'secret-api-key' }),
      mobileUrl: 'http://127.0.0.1:1',
      uploadUrl: server.url,
      retry: { retries: 0 },
    });
    return client;
  }

  it('streams every field and both files with the exact Content-Length and the key in api_key', async () => {
    const sauce = await start({ body: RESULT });
    const progress: UploadProgress[] = [];
    const result = await sauce.mobile.uploads.build(appFile, {
      appName: 'Shop',
      symbolsFile,
      groups: ['QA', 'Beta'],
      notify: true,
      releaseNotes: 'Fixes checkout',
      autoUpdate: false,
      tags: ['beta', 'nightly'],
      folderName: 'Releases',
      landingPageMode: 'closed',
      uploadToVendor: true,
      platform: 'windows',
      metadata: { jira: 'SHOP-1', commit: 'abc123' },
      onProgress: (p) => progress.push(p),
    });
    expect(result).toEqual(RESULT);

    const [upload] = server!.received;
    expect(server!.received).toHaveLength(1);
    expect(upload!.method).toBe('POST');
    expect(upload!.url).toBe('/api/upload/');
    expect(upload!.headers.authorization).toBeUndefined();
    expect(upload!.headers['x-oidc-config-key']).toBeUndefined();
    expect(upload!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(Number(upload!.headers['content-length'])).toBe(upload!.body.length);

    const form = await multipartFields(upload!);
    const texts = Object.fromEntries(
      [...form.entries()]
        .filter(([, value]) => typeof value === 'string')
        .map(([key, value]) => [key, value]),
    );
    expect(texts).toEqual({
      api_key: 'secret-api-key',
      app_name: 'Shop',
      groups: 'QA,Beta',
      notify: 'on',
      release_notes: 'Fixes checkout',
      auto_update: 'off',
      tags: 'beta,nightly',
      folder_name: 'Releases',
      landing_page_mode: 'closed',
      upload_to_vendor: 'on',
      platform: 'windows',
      'metadata.jira': 'SHOP-1',
      'metadata.commit': 'abc123',
    });
    const file = form.get('file') as File;
    expect(file.name).toBe('shop.apk');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(appBytes);
    const symbols = form.get('symbols_file') as File;
    expect(symbols.name).toBe('mapping.txt');
    expect(await symbols.text()).toBe('com.example.a -> a:\n');

    const last = progress.at(-1)!;
    // Progress counts the files' bytes, not the multipart framing around them.
    const fileBytes = appBytes.length + Buffer.byteLength('com.example.a -> a:\n');
    expect(last).toEqual({ sentBytes: fileBytes, totalBytes: fileBytes });
    expect(progress.map((p) => p.sentBytes)).toEqual(
      [...progress.map((p) => p.sentBytes)].sort((a, b) => a - b),
    );
  });

  it('sends only the file and the key when nothing else is given', async () => {
    const sauce = await start({ body: RESULT });
    await sauce.mobile.upload(appFile);
    const form = await multipartFields(server!.received[0]!);
    expect([...form.keys()]).toEqual(['api_key', 'file']);
  });

  it('with an OIDC token omits api_key and sends the bearer headers', async () => {
    const sauce = await start({ body: RESULT }, true);
    await sauce.mobile.upload(appFile, { tags: ['beta'] });
    const upload = server!.received[0]!;
    expect(upload.headers.authorization).toBe('Bearer oidc-token-value');
    expect(upload.headers['x-oidc-config-key']).toBe('oidc-config');
    const form = await multipartFields(upload);
    expect(form.has('api_key')).toBe(false);
    expect(form.get('tags')).toBe('beta');
    expect(Buffer.from(await (form.get('file') as File).arrayBuffer())).toEqual(appBytes);
  });

  it('status fail code 5 becomes an ApiError with code 5 and no key in it', async () => {
    const sauce = await start({
      body: { status: 'fail', code: 5, message: 'Invalid API key secret-api-key' },
    });
    const error = await apiErrorOf(sauce.mobile.upload(appFile));
    expect(error.code).toBe(5);
    expect(error.status).toBeUndefined();
    expect(error.message).toBe('uploadBuild: failed code 5 Invalid API key *** (POST /api/upload/)');
    expect(JSON.stringify(error.body)).toBe('{"status":"fail","code":5,"message":"Invalid API key ***"}');
  });

  it('a 503 on the upload says it may have been done, is not sent again, and never shows the key', async () => {
    const sauce = await start({ status: 503, body: { message: 'overloaded near secret-api-key' } });
    const error = await apiErrorOf(sauce.mobile.upload(appFile));
    expect(error.status).toBe(503);
    expect(error.message).not.toContain('secret-api-key');
    expect(JSON.stringify(error.body)).not.toContain('secret-api-key');
    expect(error.mayHaveBeenProcessed).toBe(true);
    expect(server?.received).toHaveLength(1);
  });

  it.each([
    [1, 200, 'Missing parameter: file'],
    [105, 400, 'Invalid file'],
  ])('status fail code %i (HTTP %i) becomes ApiError.code', async (code, status, message) => {
    const sauce = await start({ status, body: { status: 'fail', code, message } });
    const error = await apiErrorOf(sauce.mobile.upload(appFile));
    expect(error.code).toBe(code);
    expect(error.serviceMessage).toBe(message);
  });

  it('a shorter headers timeout given for the call replaces the long default', async () => {
    const sauce = await start({ body: RESULT, delayMs: 500 });
    const failure = await sauce.mobile
      .upload(appFile, {}, { timeouts: { headersMs: 50 } })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).kind).toBe('timeout');
    expect(String(failure)).not.toContain('secret-api-key');
  });

  it('fails before sending when the file does not exist', async () => {
    const sauce = await start({ body: RESULT });
    await expect(sauce.mobile.upload(path.join(dir, 'missing.apk'))).rejects.toThrow(/ENOENT/);
    expect(server!.received).toHaveLength(0);
  });
});
