/** `readInputs`: per-operation defaults, and every refusal before anything runs. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InputError, InputReader, inputSource } from '@sauce-actions/action-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinsPool } from '../src/args.ts';
import { readInputs, readPostInputs } from '../src/inputs.ts';
import { ACCESS_KEY, USERNAME } from './helpers.ts';

let workspace: string;

beforeAll(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'manage-tunnel-inputs-'));
  await writeFile(path.join(workspace, 'sc'), '');
  await writeFile(path.join(workspace, 'sauce-connect-5.2.0.tar.gz'), '');
});

afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

function read(values: Record<string, string>) {
  return readInputs(
    new InputReader(inputSource({ username: USERNAME, 'access-key': ACCESS_KEY, ...values }, { workspace })),
  );
}

/** The error `readInputs` refuses the values with. */
function refusal(values: Record<string, string>): InputError {
  try {
    read(values);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(values)}`);
}

describe('readInputs', () => {
  it('waits by default, with the defaults of `wait`', () => {
    expect(read({ 'tunnel-name': 'ci' })).toEqual({
      connection: { service: 'sauce', region: 'us-west-1', username: USERNAME, accessKey: ACCESS_KEY },
      operation: 'wait',
      target: { name: 'ci' },
      stopOnExit: 'started',
      timeoutMs: 5 * 60_000,
      pollIntervalMs: 5000,
    });
  });

  it('gives each operation its own default timeout and poll interval', () => {
    expect(read({ operation: 'list' })).toMatchObject({
      timeoutMs: 60_000,
      pollIntervalMs: 5000,
      target: {},
    });
    expect(read({ operation: 'stop', 'tunnel-id': 't1' })).toMatchObject({
      timeoutMs: 60_000,
      target: { id: 't1' },
    });
    expect(read({ operation: 'start', 'tunnel-name': 'ci' })).toMatchObject({
      timeoutMs: 3 * 60_000,
      pollIntervalMs: 1000,
    });
    expect(
      read({ 'tunnel-id': 't1', timeout: '90s', 'poll-interval': '2s', 'stop-on-exit': 'false' }),
    ).toEqual(
      expect.objectContaining({
        timeoutMs: 90_000,
        pollIntervalMs: 2000,
        stopOnExit: 'false',
        target: { id: 't1' },
      }),
    );
  });

  it('reads the start settings for `start` only', () => {
    expect(
      read({
        operation: 'start',
        'tunnel-name': 'ci',
        'sc-path': 'sc',
        'sc-version': '5.2.0',
        'sc-download-url': 'https://mirror.test/sc-{version}.tar.gz',
        'sc-args': `--proxy-localhost allow --metadata 'build=42 nightly'`,
        'start-retries': '0',
        'status-address': ':9000',
      }),
    ).toMatchObject({
      operation: 'start',
      tunnelName: 'ci',
      start: {
        scPath: path.join(workspace, 'sc'),
        scVersion: '5.2.0',
        scDownloadUrl: 'https://mirror.test/sc-{version}.tar.gz',
        scArgs: ['--proxy-localhost', 'allow', '--metadata', 'build=42 nightly'],
        startRetries: 0,
        statusAddress: ':9000',
      },
    });
    expect(read({ operation: 'start', 'tunnel-name': 'ci' })).toMatchObject({
      start: { scVersion: '5.4.1', scArgs: [], startRetries: 2, statusAddress: 'localhost:8032' },
    });
    // Other operations do not even look at them.
    const wait = read({ 'tunnel-name': 'ci', 'sc-version': 'latest', 'status-address': 'nowhere' });
    expect(wait).not.toHaveProperty('start');
  });

  it('refuses a wait or stop without a name or id, and a start without a name', () => {
    expect(refusal({}).message).toBe(
      'Input "tunnel-name" is required by `operation: wait` (or `tunnel-id`), but both were empty. Allowed: the tunnel name given to Sauce Connect (`--tunnel-name`), or `tunnel-id`.',
    );
    expect(refusal({ operation: 'stop' }).message).toContain(
      'is required by `operation: stop` (or `tunnel-id`)',
    );
    const start = refusal({ operation: 'start', 'tunnel-id': 't1' });
    expect(start.input).toBe('tunnel-name');
    expect(start.message).toContain('is required by `operation: start`, but was empty');
  });

  it('refuses an unknown operation, listing the allowed ones', () => {
    expect(refusal({ operation: 'restart', 'tunnel-name': 'x' }).message).toBe(
      'Input "operation" has "restart". Allowed: `wait`, `list`, `stop`, `start`.',
    );
  });

  it('refuses bad start settings', () => {
    const start = { operation: 'start', 'tunnel-name': 'x' };
    expect(refusal({ ...start, 'status-address': 'localhost' }).message).toContain(
      'Input "status-address" has "localhost", which is not host:port',
    );
    expect(refusal({ ...start, 'status-address': 'localhost:70000' }).input).toBe('status-address');
    expect(refusal({ ...start, 'sc-version': 'latest' }).message).toContain(
      'Input "sc-version" has "latest", which is not a version',
    );
    expect(refusal({ ...start, 'sc-download-url': 'ftp://mirror.test/sc.tar.gz' }).input).toBe(
      'sc-download-url',
    );
    expect(refusal({ ...start, 'sc-args': '--metadata "unclosed' }).message).toContain(
      'has an unclosed " quote',
    );
    expect(refusal({ ...start, 'start-retries': '11' }).input).toBe('start-retries');
    expect(refusal({ ...start, 'sc-path': 'missing/sc' }).message).toContain('which does not exist');
  });

  it.each(['0', '401', '7d', '-1'])(
    'refuses retention-days %s, naming the range, in the main step and the post step',
    (days) => {
      const expected = `Allowed: empty for the repository's default, or a whole number of days from 1 to 400.`;
      expect(refusal({ operation: 'start', 'tunnel-name': 'x', 'retention-days': days }).message).toContain(
        expected,
      );
      expect(refusal({ operation: 'list', 'retention-days': days }).input).toBe('retention-days');
      expect(() =>
        readPostInputs(
          new InputReader(
            inputSource(
              { username: USERNAME, 'access-key': ACCESS_KEY, 'retention-days': days },
              { workspace },
            ),
          ),
        ),
      ).toThrow(expected);
    },
  );

  it('reads retention-days for the log of a start', () => {
    expect(read({ operation: 'start', 'tunnel-name': 'x', 'retention-days': '30' })).toMatchObject({
      retentionDays: 30,
    });
    expect(read({ operation: 'start', 'tunnel-name': 'x' })).not.toHaveProperty('retentionDays');
  });

  it('reads sc-download-url as an https:// template or an archive on the runner, and refuses the rest', () => {
    const start = { operation: 'start', 'tunnel-name': 'x', 'sc-version': '5.2.0' };
    expect(read({ ...start, 'sc-download-url': 'sauce-connect-{version}.tar.gz' })).toMatchObject({
      start: { scArchive: path.join(workspace, 'sauce-connect-5.2.0.tar.gz') },
    });
    expect(read({ ...start, 'sc-download-url': 'HTTPS://mirror.test/sc.zip' })).toMatchObject({
      start: { scDownloadUrl: 'HTTPS://mirror.test/sc.zip' },
    });
    expect(refusal({ ...start, 'sc-download-url': 'http://mirror.test/sc-{version}.tar.gz' }).message).toBe(
      'Input "sc-download-url" is a plain http:// address, which nothing protects on its way to the runner. Allowed: an https:// address of a .tar.gz or .zip archive, or the path of one on the runner (relative to the workspace); `{version}` stands for `sc-version`. Serve the mirror over https.',
    );
    expect(refusal({ ...start, 'sc-download-url': 'Http://mirror.test/sc.tar.gz' }).input).toBe(
      'sc-download-url',
    );
    expect(refusal({ ...start, 'sc-download-url': 'file:///tmp/sc.tar.gz' }).message).toContain(
      'is a file:// address',
    );
    expect(refusal({ ...start, 'sc-download-url': 'missing-{version}.tar.gz' }).message).toContain(
      `names "missing-{version}.tar.gz", which is not a file on the runner (looked for ${path.join(workspace, 'missing-5.2.0.tar.gz')})`,
    );
  });

  it.each([
    ['a bare sha256', 'AB'.repeat(32), { algorithm: 'sha256', value: 'ab'.repeat(32) }],
    ['sha256:', ` sha256:${'cd'.repeat(32)} `, { algorithm: 'sha256', value: 'cd'.repeat(32) }],
    ['SHA-512:', `SHA-512:${'ef'.repeat(64)}`, { algorithm: 'sha512', value: 'ef'.repeat(64) }],
    ['a bare sha512', 'ef'.repeat(64), { algorithm: 'sha512', value: 'ef'.repeat(64) }],
  ])('reads sc-checksum as %s', (_form, value, checksum) => {
    expect(read({ operation: 'start', 'tunnel-name': 'x', 'sc-checksum': value })).toMatchObject({
      start: { scChecksum: checksum },
    });
  });

  it.each([
    ['too short', 'ab'.repeat(20)],
    ['not hex', 'zz'.repeat(32)],
    ['an algorithm too weak', `sha1:${'ab'.repeat(20)}`],
    ['a digest of the wrong length for its algorithm', `sha512:${'ab'.repeat(32)}`],
  ])('refuses an sc-checksum that is %s', (_problem, value) => {
    const error = refusal({ operation: 'start', 'tunnel-name': 'x', 'sc-checksum': value });
    expect(error.input).toBe('sc-checksum');
    expect(error.message).toContain('which is not a checksum');
    expect(error.message).toContain('64 hex digits as `sha256sum` prints them');
  });

  it('refuses sc-checksum with sc-path, which downloads nothing', () => {
    const error = refusal({
      operation: 'start',
      'tunnel-name': 'x',
      'sc-path': 'sc',
      'sc-checksum': 'ab'.repeat(32),
    });
    expect(error.input).toBe('sc-checksum');
    expect(error.message).toContain('is given with `sc-path`');
  });

  it('refuses bad waits', () => {
    expect(refusal({ 'tunnel-name': 'x', timeout: '500ms' }).input).toBe('timeout');
    expect(refusal({ 'tunnel-name': 'x', timeout: 'soon' }).input).toBe('timeout');
    expect(refusal({ 'tunnel-name': 'x', 'poll-interval': '10ms' }).input).toBe('poll-interval');
  });

  it.each([
    ['timeout', '2147484', 'has 2147484, which is longer than 24h', 'from 1s to 24h'],
    ['timeout', '25h', 'has 25h, which is longer than 24h', 'from 1s to 24h'],
    ['timeout', '0', 'has 0, which is shorter than 1s', 'from 1s to 24h'],
    ['timeout', '-5', 'has "-5", which is not a duration', 'from 1s to 24h'],
    ['timeout', '1e400', 'has "1e400", which is not a duration', 'from 1s to 24h'],
    ['poll-interval', '2147484', 'has 2147484, which is longer than 10m', 'from 1s to 10m'],
    ['poll-interval', '11m', 'has 11m, which is longer than 10m', 'from 1s to 10m'],
    ['poll-interval', '500ms', 'has 500ms, which is shorter than 1s', 'from 1s to 10m'],
    ['poll-interval', 'NaN', 'has "NaN", which is not a duration', 'from 1s to 10m'],
    ['poll-interval', '10 minutes', 'has "10 minutes", which is not a duration', 'from 1s to 10m'],
    ['poll-interval', '30x', 'has "30x", which is not a duration', 'from 1s to 10m'],
  ])('bounds the %s like every other action: %s is refused', (input, value, problem, range) => {
    for (const operation of ['wait', 'start', 'list']) {
      expect(refusal({ operation, 'tunnel-name': 'x', [input]: value }).message).toBe(
        `Input "${input}" ${problem}. Allowed: seconds (\`90\`) or a number with \`ms\`, \`s\`, \`m\`, \`h\` or \`d\` (\`90s\`, \`30m\`, \`1h30m\`, \`2d\`), ${range}.`,
      );
    }
  });

  it('reads stop-on-exit as started (the default), true or false, and refuses anything else', () => {
    expect(read({ 'tunnel-name': 'x' }).stopOnExit).toBe('started');
    for (const value of ['started', 'true', 'false'] as const) {
      expect(read({ 'tunnel-name': 'x', 'stop-on-exit': value }).stopOnExit).toBe(value);
    }
    for (const value of ['yes', 'True', 'always', 'waited', '1']) {
      expect(refusal({ 'tunnel-name': 'x', 'stop-on-exit': value }).message).toBe(
        `Input "stop-on-exit" has "${value}". Allowed: \`started\` (the post step stops only the Sauce Connect and tunnel this step started), \`true\` (also a tunnel it waited for, which other jobs may share) or \`false\` (nothing).`,
      );
    }
  });

  it('takes the credentials from the environment, and refuses none at all', () => {
    const reader = new InputReader(
      inputSource(
        { operation: 'list' },
        { env: { SAUCE_USERNAME: 'env-user', SAUCE_ACCESS_KEY: 'env-key' }, workspace },
      ),
    );
    expect(readInputs(reader).connection).toMatchObject({ username: 'env-user', accessKey: 'env-key' });
    const none = new InputReader(inputSource({ operation: 'list' }, { workspace }));
    expect(() => readInputs(none)).toThrow('Input "username" is required');
  });

  it.each([
    [['--tunnel-pool'], {}, true],
    [['-t'], {}, true],
    [['--verbose', '--tunnel-pool=true'], {}, true],
    [['--tunnel-pool=false'], {}, false],
    [['--tunnel-name', 'x'], {}, false],
    [[], { SAUCE_TUNNEL_POOL: 'true' }, true],
    [[], { SAUCE_TUNNEL_POOL: 'false' }, false],
    [['--tunnel-pool=false'], { SAUCE_TUNNEL_POOL: 'true' }, false],
  ])('tells whether Sauce Connect joins a pool: %j %j is %s', (args, env, pool) => {
    expect(joinsPool(args, env)).toBe(pool);
  });
});
