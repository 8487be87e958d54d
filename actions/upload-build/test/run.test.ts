import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ActionError,
  clearSecrets,
  createClient,
  InputError,
  InputReader,
  inputSource,
  redactSecrets,
  type ActionResult,
} from '@sauce-actions/action-kit';
import { testStepDeps, type TestStepDeps } from '@sauce-actions/action-kit/testing';
import {
  ApiError,
  TransportError,
  type MobileTesterGroup,
  type MobileUploadOptions,
  type MobileUploadResult,
} from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readInputs, type UploadInputs } from '../src/inputs.ts';
import type { UploadOutputs } from '../src/report.ts';
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
    gitMetadata: true,
    releaseNotesAuto: false,
    timeoutMs: 60_000,
    prComment: false,
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

/** The account's tester groups in the fakes. */
const GROUPS: MobileTesterGroup[] = [
  { id: 1, name: 'qa', testers: [[]] },
  { id: 2, name: 'beta', testers: [[]] },
];

function deps(
  upload: (file: string, options?: MobileUploadOptions) => Promise<MobileUploadResult>,
  listProjects: () => Promise<unknown> = async () => ({ status: 'ok', projects: [] }),
  listGroups: () => Promise<unknown> = async () => ({ status: 'ok', groups: structuredClone(GROUPS) }),
): UploadDeps & TestStepDeps {
  type Mobile = UploadDeps['client']['mobile'];
  const mobile: Mobile = {
    upload: (file, options) => upload(file, options),
    projects: { list: listProjects } as unknown as Mobile['projects'],
    testerGroups: { list: listGroups } as unknown as Mobile['testerGroups'],
    builds: {} as Mobile['builds'],
  };
  return { ...testStepDeps({ workspace }), client: { mobile } };
}

/** An API key with its email: the REST interface, and so the group and credential checks, are open. */
const WITH_EMAIL = {
  service: 'mobile' as const,
  region: 'us-east-1' as const,
  apiKey: 'k',
  email: 'a@b.c',
};

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

  it('checks the groups before sending the file, and sends nothing when one does not exist', async () => {
    writeApp();
    const upload = vi.fn(async () => RESULT);
    const listGroups = vi.fn(async () => ({ status: 'ok', groups: structuredClone(GROUPS) }));
    const error = await run(
      inputs({ groups: ['qa', 'nope', 'gone'], connection: WITH_EMAIL }),
      deps(upload, undefined, listGroups),
    ).catch((e: unknown) => e);
    expect(listGroups).toHaveBeenCalledOnce();
    expect(upload).not.toHaveBeenCalled();
    expect(error).toBeInstanceOf(ActionError);
    expect((error as ActionError).kind).toBe('refused');
    expect((error as Error).message).toBe(
      'Unknown tester groups: nope, gone (the account has: qa, beta). Fix `groups`: the file was not sent. To create groups, run invite-testers with `create-groups: true` after the upload instead.',
    );
  });

  it('sends the checked groups by the names the account has them under', async () => {
    writeApp();
    let sent: MobileUploadOptions | undefined;
    const step = deps(async (_file, options) => {
      sent = options;
      return RESULT;
    });
    const result = await run(inputs({ groups: ['2', 'qa'], connection: WITH_EMAIL }), step);
    expect(sent?.groups).toEqual(['beta', 'qa']);
    expect(result.summary).toContain('<td>Groups</td><td>beta, qa</td>');
    expect(step.logger.lines('warning')).toEqual([]);
  });

  it('without `email`, warns that the groups were not checked and sends them as given', async () => {
    writeApp();
    const listGroups = vi.fn(async () => ({ status: 'ok', groups: [] }));
    let sent: MobileUploadOptions | undefined;
    const step = deps(
      async (_file, options) => {
        sent = options;
        return RESULT;
      },
      undefined,
      listGroups,
    );
    await run(inputs({ groups: ['qa', 'nope'] }), step);
    expect(listGroups).not.toHaveBeenCalled();
    expect(sent?.groups).toEqual(['qa', 'nope']);
    expect(step.logger.lines('warning')).toEqual([
      'The tester groups (qa, nope) were not checked: set `email` with `api-key` so that a group that does not exist is found before the file is sent.',
    ]);
  });

  it('checks the groups with an OIDC token too', async () => {
    writeApp();
    const upload = vi.fn(async () => RESULT);
    const connection = {
      service: 'mobile' as const,
      region: 'us-east-1' as const,
      oidcToken: 't',
      oidcConfigKey: 'c',
    };
    const error = await run(inputs({ groups: ['nope'], connection }), deps(upload)).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^Unknown tester group: nope \(the account has: qa, beta\)/);
    expect(upload).not.toHaveBeenCalled();
  });

  it('stops at a key refused by the group check; other trouble there warns and sends the file', async () => {
    writeApp();
    const upload = vi.fn(async () => RESULT);
    const refused = await run(
      inputs({ groups: ['qa'], connection: WITH_EMAIL }),
      deps(upload, undefined, async () => {
        throw new ApiError({
          operation: 'listTesterGroups',
          method: 'GET',
          url: '/api/1/testers/groups',
          status: 401,
        });
      }),
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ActionError);
    expect((refused as Error).message).toMatch(
      /^The API key was refused by the us-east-1 data center \(code 5\)/,
    );
    expect(upload).not.toHaveBeenCalled();

    let sent: MobileUploadOptions | undefined;
    const step = deps(
      async (_file, options) => {
        sent = options;
        return RESULT;
      },
      undefined,
      async () => {
        throw new ApiError({
          operation: 'listTesterGroups',
          method: 'GET',
          url: '/api/1/testers/groups',
          status: 503,
        });
      },
    );
    const result = await run(inputs({ groups: ['qa'], connection: WITH_EMAIL }), step);
    expect(result.outputs['build-id']).toBe('77');
    expect(sent?.groups).toEqual(['qa']);
    expect(step.logger.lines('warning')[0]).toMatch(
      /^Could not check the tester groups before the upload \(listTesterGroups: 503 .*\); sending the file with `groups` unchecked\.$/,
    );
  });

  it('needs no separate credentials check before a large file once the groups were listed', async () => {
    writeApp('big.apk', 21 * 1024 * 1024);
    const listProjects = vi.fn(async () => ({ status: 'ok', projects: [] }));
    const listGroups = vi.fn(async () => ({ status: 'ok', groups: structuredClone(GROUPS) }));
    const upload = vi.fn(async () => RESULT);
    await run(
      inputs({ file: 'big.apk', groups: ['qa'], connection: WITH_EMAIL }),
      deps(upload, listProjects, listGroups),
    );
    expect(listGroups).toHaveBeenCalledOnce();
    expect(listProjects).not.toHaveBeenCalled();
    expect(upload).toHaveBeenCalledOnce();
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
      gitMetadata: true,
      releaseNotesAuto: false,
      timeoutMs: 600_000,
      prComment: false,
    });
  });

  it('reads `release-notes: auto`, `git-metadata` and `oidc: github` with its audience', () => {
    expect(
      read({
        file: 'app.apk',
        'release-notes': 'auto',
        'git-metadata': 'false',
        oidc: 'github',
        'oidc-audience': 'sauce-labs',
        'oidc-config-key': 'cfg',
      }),
    ).toMatchObject({
      connection: { service: 'mobile', oidc: 'github', oidcAudience: 'sauce-labs', oidcConfigKey: 'cfg' },
      releaseNotesAuto: true,
      gitMetadata: false,
    });
  });

  it.each([
    [{ file: 'app.apk' }, /Input "api-key" is required/],
    [
      { 'api-key': 'k' },
      'Input "file" is required but was empty. Allowed: the path of the app file (APK, AAB, IPA or macOS ZIP) relative to the workspace, or a glob matching exactly one, such as `app/build/outputs/apk/release/*.apk`.',
    ],
    [{ 'api-key': 'k', file: 'a.apk', notify: 'yes' }, /Input "notify" has "yes"/],
    [{ 'api-key': 'k', file: 'a.apk', platform: 'android' }, /Input "platform" has "android"/],
    [{ 'api-key': 'k', file: 'a.apk', timeout: '0' }, /Input "timeout" has 0, which is shorter than 1s/],
    [
      { 'api-key': 'k', file: 'a.apk', email: 'release-bot' },
      'Input "email" has "release-bot", which is not an email address. Allowed: an email address, `name@host` such as `alice@example.com`.',
    ],
    [
      { 'api-key': 'k', file: 'a.apk', 'release-notes': 'x', 'release-notes-file': 'notes.md' },
      'Input "release-notes-file" is set together with `release-notes`. Allowed: either the notes as text (or `auto`) in `release-notes`, or a path to a file holding them, relative to the workspace, in `release-notes-file`.',
    ],
    [
      { 'api-key': 'k', file: 'a.apk', 'release-notes': 'auto' },
      'Input "release-notes" is `auto`, which reads the project\'s last build through the REST interface, but `email` is empty. Allowed: `auto` with `email`',
    ],
    [{ 'api-key': 'k', file: 'a.apk', 'git-metadata': 'no' }, /Input "git-metadata" has "no"/],
    [{ file: 'a.apk', oidc: 'gitlab' }, 'Input "oidc" has "gitlab". Allowed: `github`.'],
    [
      { file: 'a.apk', oidc: 'github' },
      'Input "oidc-config-key" is required with `oidc: github` but was empty',
    ],
    [
      { file: 'a.apk', oidc: 'github', 'oidc-token': 't0k3n', 'oidc-config-key': 'c' },
      'Input "oidc-token" is set together with `oidc: github`',
    ],
    [
      { 'api-key': 'k', file: 'a.apk', 'oidc-audience': 'x' },
      'Input "oidc-audience" is set without `oidc: github`',
    ],
  ])('refuses %o before anything is sent', (values, message) => {
    expect(() => read(values)).toThrow(InputError);
    expect(() => read(values)).toThrow(message);
  });

  it.each([
    ['2147484', 'has 2147484, which is longer than 24h'],
    ['25h', 'has 25h, which is longer than 24h'],
    ['-5', 'has "-5", which is not a duration'],
    ['0', 'has 0, which is shorter than 1s'],
    ['NaN', 'has "NaN", which is not a duration'],
    ['1e400', 'has "1e400", which is not a duration'],
    ['10 minutes', 'has "10 minutes", which is not a duration'],
    ['30x', 'has "30x", which is not a duration'],
  ])('refuses the timeout %s, with the form and the bounds', (timeout, problem) => {
    expect(() => read({ 'api-key': 'k', file: 'a.apk', timeout })).toThrow(
      `Input "timeout" ${problem}. Allowed: seconds (\`90\`) or a number with \`ms\`, \`s\`, \`m\` or \`h\` (\`90s\`, \`30m\`, \`1h30m\`), from 1s to 24h.`,
    );
  });

  it('takes a timeout of up to 24h', () => {
    expect(read({ 'api-key': 'k', file: 'a.apk', timeout: '24h' }).timeoutMs).toBe(86_400_000);
    expect(read({ 'api-key': 'k', file: 'a.apk', timeout: '86400' }).timeoutMs).toBe(86_400_000);
  });
});

/**
 * The step as the runner's host runs it (inputs read, then the client made, then `run`) against the
 * emulator, whose journal shows every request that reached it.
 */
describe('upload-build against the emulator', () => {
  let emulator: RunningEmulator;

  beforeEach(async () => {
    emulator = await startEmulator({ port: 0 });
    await createSampleApk(path.join(workspace, 'app.apk'), {
      packageId: 'com.example.upload',
      name: 'Upload',
      version: '1.0.0',
      versionCode: 1,
    });
  });

  afterEach(async () => {
    await emulator.close();
  });

  async function hostRun(values: Record<string, string>): Promise<ActionResult<UploadOutputs>> {
    const parsed = readInputs(
      new InputReader(
        inputSource(
          { 'api-url': emulator.url, 'api-key': 'demo-api-key', file: 'app.apk', ...values },
          { env: {}, workspace },
        ),
      ),
    );
    const client = createClient(parsed.connection, testStepDeps().logger);
    try {
      return await run(parsed, { ...testStepDeps({ workspace }), client });
    } finally {
      await client.close();
    }
  }

  async function journal(): Promise<{ method: string; path: string }[]> {
    const answer = await fetch(`${emulator.url}/_emulator/requests`);
    return ((await answer.json()) as { requests: { method: string; path: string }[] }).requests;
  }

  it.each([
    { timeout: '2147484' },
    { timeout: '1e400' },
    { email: 'demo' },
    { 'release-notes': 'x', 'release-notes-file': 'notes.md' },
    { file: '' },
  ])('refuses %o with no request sent', async (values) => {
    const error = await hostRun(values).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(await journal()).toEqual([]);
  });

  it('looks the groups up and uploads nothing when one does not exist', async () => {
    const error = await hostRun({ email: 'demo@example.com', groups: 'qa, nope' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActionError);
    expect((error as Error).message).toMatch(/^Unknown tester group: nope \(the account has: qa, beta\)\./);
    const requests = await journal();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/1/testers/groups']);
  });

  it('uploads with groups that exist', async () => {
    const result = await hostRun({ email: 'demo@example.com', groups: 'qa' });
    expect(result.failure).toBeUndefined();
    const requests = (await journal()).map((r) => `${r.method} ${r.path}`);
    expect(requests[0]).toBe('GET /api/1/testers/groups');
    expect(requests.filter((r) => r.startsWith('POST /api/upload'))).toHaveLength(1);
  });
});

describe('upload-build pr-comment', () => {
  it('returns the comment of the upload with `pr-comment`, and none without', async () => {
    writeApp();
    const withComment = await run(
      inputs({ prComment: true }),
      deps(async () => RESULT),
    );
    expect(withComment.comment).toMatchObject({ action: 'upload-build', identity: { project: '12' } });
    expect(withComment.comment?.body).toContain('[Install (download page)](http://127.0.0.1:1/download/abc)');
    const without = await run(
      inputs(),
      deps(async () => RESULT),
    );
    expect(without).not.toHaveProperty('comment');
  });

  it('reads `pr-comment` and masks `github-token` as it reads it', () => {
    clearSecrets();
    const read = readInputs(
      new InputReader(
        inputSource({
          'api-key': 'k',
          file: 'a.apk',
          'pr-comment': 'true',
          'github-token': 'ghs_readToken123',
        }),
      ),
    );
    expect(read).toMatchObject({ prComment: true, githubToken: 'ghs_readToken123' });
    expect(redactSecrets('token ghs_readToken123')).toBe('token ***');
    expect(() =>
      readInputs(new InputReader(inputSource({ 'api-key': 'k', file: 'a.apk', 'pr-comment': 'yes' }))),
    ).toThrow(/Input "pr-comment" has "yes"/);
  });
});
