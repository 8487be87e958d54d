/**
 * upload-build's `run` with the client faked: every option sent and the result mapped to outputs
 * and the summary, the file checked before anything is sent, failures worded as what to do, and
 * the pull-request comment of `pr-comment`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  ActionError,
  clearSecrets,
  InputError,
  InputReader,
  inputSource,
  redactSecrets,
} from '@sauce-actions/action-kit';
import { ApiError, TransportError, type MobileUploadOptions } from '@sauce-actions/api';
import { describe, expect, it, vi } from 'vitest';
import { readInputs } from '../src/inputs.ts';
import { run } from '../src/run.ts';
import { inputs, RESULT, useUploadWorkspace } from './helpers.ts';

const workspace = useUploadWorkspace();
const { deps, writeApp } = workspace;

describe('upload-build run', () => {
  it('uploads with every option and maps the result to outputs', async () => {
    const file = writeApp('build/outputs/app-release.apk');
    writeFileSync(path.join(workspace.dir, 'notes.md'), 'Fixed things\n');
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
