import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ActionError, InputError, InputReader, inputSource } from '@sauce-actions/action-kit';
import { testStepDeps, type TestStepDeps } from '@sauce-actions/action-kit/testing';
import {
  ApiError,
  TransportError,
  type MobileUploadOptions,
  type MobileUploadResult,
} from '@sauce-actions/api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readInputs, type UploadInputs } from '../src/inputs.ts';
import { run, type UploadDeps } from '../src/run.ts';

let workspace: string;

beforeEach(() => {
  workspace = mkdtempSync(path.join(os.tmpdir(), 'upload-build-'));
});

afterEach(() => {
  rmSync(workspace, { recursive: true, force: true });
  vi.restoreAllMocks();
});

function inputs(overrides: Partial<UploadInputs> = {}): UploadInputs {
  return {
    connection: { service: 'mobile', region: 'us-east-1', apiKey: 'k' },
    file: 'app.apk',
    groups: [],
    notify: false,
    autoUpdate: false,
    tags: [],
    uploadToVendor: false,
    metadata: {},
    timeoutMs: 60_000,
    ...overrides,
  };
}

const RESULT: MobileUploadResult = {
  status: 'ok',
  build_id: 77,
  project_id: 12,
  app_name: 'Demo',
  app_version: '1.2.3',
  file_size: 2048,
  build_url: 'http://127.0.0.1:1/projects/12/builds/77',
  download_page_url: 'http://127.0.0.1:1/download/abc',
  app_url: '',
  invite_testers_url: 'http://127.0.0.1:1/projects/12/builds/77/invite',
  icon_url: '',
  options: '',
  platform: 'Android',
  tags: ['nightly'],
  metadata: [],
  has_vendor_sdk: false,
  symbols_download_url: '',
  attachments: null,
  landing_page_url: 'http://127.0.0.1:1/p/demo',
  build_specific_landing_page_url: '',
  landing_page_mode: 'open',
};

function deps(
  upload: (file: string, options?: MobileUploadOptions) => Promise<MobileUploadResult>,
  listProjects: () => Promise<unknown> = async () => ({ status: 'ok', projects: [] }),
): UploadDeps & TestStepDeps {
  const projects = { list: listProjects } as unknown as UploadDeps['client']['mobile']['projects'];
  return {
    ...testStepDeps({ workspace }),
    client: { mobile: { upload: (file, options) => upload(file, options), projects } },
  };
}

function writeApp(name = 'app.apk', bytes = 2048): string {
  const file = path.join(workspace, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, Buffer.alloc(bytes, 1));
  return file;
}

describe('upload-build run', () => {
  it('uploads with every option and maps the result to outputs', async () => {
    const file = writeApp('build/outputs/app-release.apk');
    writeFileSync(path.join(workspace, 'notes.md'), 'Fixed things\n');
    let seen: { file: string; options?: MobileUploadOptions } | undefined;
    const stepDeps = deps(async (f, options) => {
      seen = { file: f, ...(options ? { options } : {}) };
      options?.onProgress?.({ sentBytes: 2048, totalBytes: 2048 });
      return RESULT;
    });
    const result = await run(
      inputs({
        file: 'build/**/*.apk',
        appName: 'Demo',
        groups: ['qa', 'beta'],
        notify: true,
        releaseNotesFile: 'notes.md',
        tags: ['nightly'],
        landingPageMode: 'closed',
        metadata: { branch: 'main' },
      }),
      stepDeps,
    );
    expect(seen?.file).toBe(file);
    expect(seen?.options).toMatchObject({
      appName: 'Demo',
      groups: ['qa', 'beta'],
      notify: true,
      releaseNotes: 'Fixed things',
      tags: ['nightly'],
      landingPageMode: 'closed',
      metadata: { branch: 'main' },
      autoUpdate: false,
      uploadToVendor: false,
    });
    expect(result.failure).toBeUndefined();
    expect(result.annotations).toEqual([]);
    expect(result.outputs).toEqual({
      'build-id': '77',
      'project-id': '12',
      'build-url': RESULT.build_url,
      'download-page-url': RESULT.download_page_url,
      'landing-page-url': RESULT.landing_page_url,
      'app-name': 'Demo',
      'app-version': '1.2.3',
    });
    expect(
      stepDeps.logger
        .lines()
        .some((line) => /^Uploading app-release\.apk: 100% \(2\.0 KiB of 2\.0 KiB, .+\/s\)$/.test(line)),
    ).toBe(true);
    const html = result.summary;
    expect(html).toContain('<h2>Uploaded Demo 1.2.3</h2>');
    expect(html).toContain('<a href="http://127.0.0.1:1/download/abc">Download page</a>');
    expect(html).toContain('<a href="http://127.0.0.1:1/projects/12/builds/77/invite">Invite testers</a>');
    expect(html).toContain('<td>Groups</td><td>qa, beta</td>');
    expect(html).toContain('<td>Size</td><td>2.0 KiB</td>');
  });

  it('checks the file before sending anything', async () => {
    const upload = vi.fn(async () => RESULT);
    await expect(run(inputs(), deps(upload))).rejects.toThrow(
      /Input "file" names .*app\.apk, which does not exist/,
    );
    writeApp('app.apk', 0);
    await expect(run(inputs(), deps(upload))).rejects.toThrow(/which is empty/);
    writeApp('app.exe');
    await expect(run(inputs({ file: 'app.exe' }), deps(upload))).rejects.toThrow(
      /\.apk, \.aab, \.ipa, \.zip; for other apps set `platform`/,
    );
    expect(upload).not.toHaveBeenCalled();
    await run(inputs({ file: 'app.exe', platform: 'windows' }), deps(upload));
    expect(upload).toHaveBeenCalledOnce();
  });

  it('refuses a glob matching several files, listing them', async () => {
    writeApp('a.apk');
    writeApp('b.apk');
    const error = await run(
      inputs({ file: '*.apk' }),
      deps(async () => RESULT),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain('matches 2 files (a.apk, b.apk)');
  });

  it('checks the credentials before sending a file of more than 20 MiB, and sends nothing when refused', async () => {
    writeApp('big.apk', 21 * 1024 * 1024);
    const upload = vi.fn(async () => RESULT);
    const listProjects = vi.fn(async () => {
      throw new ApiError({ operation: 'listProjects', method: 'GET', url: '/api/2/projects/', status: 401 });
    });
    const connection = {
      service: 'mobile' as const,
      region: 'us-east-1' as const,
      apiKey: 'k',
      email: 'a@b.c',
    };
    const error = await run(inputs({ file: 'big.apk', connection }), deps(upload, listProjects)).catch(
      (e: unknown) => e,
    );
    expect(listProjects).toHaveBeenCalledOnce();
    expect(upload).not.toHaveBeenCalled();
    expect(error).toBeInstanceOf(ActionError);
    expect((error as ActionError).kind).toBe('refused');
    expect((error as Error).message).toMatch(
      /^The API key was refused by the us-east-1 data center \(code 5\)/,
    );

    const accepted = vi.fn(async () => ({ status: 'ok', projects: [] }));
    const step = deps(upload, accepted);
    await run(inputs({ file: 'big.apk', connection }), step);
    expect(accepted).toHaveBeenCalledOnce();
    expect(upload).toHaveBeenCalledOnce();
    expect(step.logger.lines()[0]).toBe(`Uploading big.apk (21.0 MiB) to us-east-1`);
  });

  it('sends the file anyway, with a warning, when the check fails for another reason than the key', async () => {
    writeApp('big.apk', 21 * 1024 * 1024);
    const upload = vi.fn(async () => RESULT);
    const connection = {
      service: 'mobile' as const,
      region: 'us-east-1' as const,
      apiKey: 'k',
      email: 'a@b.c',
    };
    for (const status of [403, 503]) {
      const step = deps(upload, async () => {
        throw new ApiError({ operation: 'listProjects', method: 'GET', url: '/api/2/projects/', status });
      });
      const result = await run(inputs({ file: 'big.apk', connection }), step);
      expect(result.outputs['build-id']).toBe('77');
      expect(step.logger.lines('warning')[0]).toMatch(
        new RegExp(
          `^Could not check the credentials before the upload \\(listProjects: ${status} .*\\); sending the file anyway\\.$`,
        ),
      );
    }
    expect(upload).toHaveBeenCalledTimes(2);
  });

  it('says that only the upload checks a key given without its email, and sends no check', async () => {
    writeApp('big.apk', 21 * 1024 * 1024);
    const listProjects = vi.fn(async () => ({}));
    const step = deps(async () => RESULT, listProjects);
    await run(inputs({ file: 'big.apk' }), step);
    expect(listProjects).not.toHaveBeenCalled();
    expect(step.logger.lines()[0]).toBe(
      'The API key is checked only by the upload itself: set `email` so that a wrong key is found before 21.0 MiB are sent.',
    );
  });

  it('sends no check before a small file', async () => {
    writeApp();
    const listProjects = vi.fn(async () => ({}));
    const connection = {
      service: 'mobile' as const,
      region: 'us-east-1' as const,
      apiKey: 'k',
      email: 'a@b.c',
    };
    await run(
      inputs({ connection }),
      deps(async () => RESULT, listProjects),
    );
    expect(listProjects).not.toHaveBeenCalled();
  });

  it('words a service that does not take the file in time as a timeout naming `timeout`', async () => {
    writeApp();
    const error = await run(
      inputs({ timeoutMs: 90_000 }),
      deps(async () => {
        throw new TransportError({
          operation: 'uploadBuild',
          method: 'POST',
          url: '/api/upload/',
          kind: 'timeout',
          message: 'no answer',
        });
      }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActionError);
    expect((error as ActionError).kind).toBe('timeout');
    expect((error as Error).message).toContain('within 90s of receiving it');
    expect((error as Error).message).toContain('Raise `timeout`');
  });

  it.each([
    ['1', /required parameter is missing/],
    ['5', /refused by the us-east-1 data center \(code 5\).*the others are eu-central-1, legacy/],
    ['105', /could not read app\.apk as an app \(code 105\)/],
  ])('words failure code %s as what to do', async (code, pattern) => {
    writeApp();
    const error = await run(
      inputs(),
      deps(async () => {
        throw new ApiError({
          operation: 'uploadBuild',
          method: 'POST',
          url: '/api/upload/',
          code: Number(code),
          serviceMessage: 'nope',
        });
      }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActionError);
    expect((error as ActionError).kind).toBe('refused');
    expect((error as Error).message).toMatch(pattern);
    expect((error as Error).message).toContain('The service said: nope.');
  });
});

describe('upload-build inputs', () => {
  const read = (values: Record<string, string>, env: Record<string, string> = {}) =>
    readInputs(new InputReader(inputSource(values, { env, workspace })));

  it('reads every input into one object, with the key from the environment', () => {
    const read1 = read(
      {
        file: 'app.apk',
        groups: 'qa, beta',
        notify: 'true',
        metadata: 'commit=abc',
        'landing-page-mode': 'closed',
        platform: 'windows',
        timeout: '10m',
      },
      { SAUCE_APPDIST_API_KEY: 'env-key' },
    );
    expect(read1).toEqual({
      connection: { service: 'mobile', region: 'us-east-1', apiKey: 'env-key' },
      file: 'app.apk',
      groups: ['qa', 'beta'],
      notify: true,
      autoUpdate: false,
      tags: [],
      landingPageMode: 'closed',
      uploadToVendor: false,
      platform: 'windows',
      metadata: { commit: 'abc' },
      timeoutMs: 600_000,
    });
  });

  it.each([
    [{ file: 'app.apk' }, /Input "api-key" is required/],
    [{ 'api-key': 'k' }, /Input "file" is required/],
    [{ 'api-key': 'k', file: 'a.apk', notify: 'yes' }, /Input "notify" has "yes"/],
    [{ 'api-key': 'k', file: 'a.apk', platform: 'android' }, /Input "platform" has "android"/],
    [{ 'api-key': 'k', file: 'a.apk', timeout: '0' }, /Input "timeout" has 0, which is shorter than 1s/],
    [
      { 'api-key': 'k', file: 'a.apk', 'release-notes': 'x', 'release-notes-file': 'notes.md' },
      /Input "release-notes-file" is set together with `release-notes`/,
    ],
  ])('refuses %o before anything is sent', (values, message) => {
    expect(() => read(values)).toThrow(InputError);
    expect(() => read(values)).toThrow(message);
  });
});
