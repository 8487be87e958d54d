/** upload-build's inputs: every input read into one object, and each bad value refused before anything is sent. */
import { InputError, InputReader, inputSource } from '@sauce-actions/action-kit';
import { describe, expect, it } from 'vitest';
import { readInputs } from '../src/inputs.ts';
import { useUploadWorkspace } from './helpers.ts';

const workspace = useUploadWorkspace();

describe('upload-build inputs', () => {
  const read = (values: Record<string, string>, env: Record<string, string> = {}) =>
    readInputs(new InputReader(inputSource(values, { env, workspace: workspace.dir })));

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
      `Input "timeout" ${problem}. Allowed: seconds (\`90\`) or a number with \`ms\`, \`s\`, \`m\`, \`h\` or \`d\` (\`90s\`, \`30m\`, \`1h30m\`, \`2d\`), from 1s to 24h.`,
    );
  });

  it('takes a timeout of up to 24h', () => {
    expect(read({ 'api-key': 'k', file: 'a.apk', timeout: '24h' }).timeoutMs).toBe(86_400_000);
    expect(read({ 'api-key': 'k', file: 'a.apk', timeout: '86400' }).timeoutMs).toBe(86_400_000);
  });
});
