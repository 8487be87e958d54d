import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkId,
  formatDuration,
  InputError,
  InputReader,
  isId,
  MAX_DURATION_BOUNDS,
  MAX_TIMER_MS,
  parseDuration,
  pathFormHint,
  POLL_INTERVAL_BOUNDS,
  shardText,
  shareOf,
  splitList,
  TIMEOUT_BOUNDS,
  ASSETS_SIZE_BOUNDS,
  formatSize,
  parseSize,
  type DurationBounds,
} from '../../src/index.ts';

const values = new Map<string, string>();
let workspace = process.cwd();
const read = new InputReader({
  input: (name) => values.get(name) ?? '',
  env: () => undefined,
  get workspace() {
    return workspace;
  },
});

function setInput(name: string, value: string): void {
  values.set(name, value);
}

function errorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}

afterEach(() => {
  values.clear();
  workspace = process.cwd();
});

describe('string', () => {
  it('trims and treats empty as not given', () => {
    setInput('app-name', '  My App \n');
    expect(read.string('app-name')).toBe('My App');
    setInput('app-name', '   ');
    expect(read.string('app-name')).toBeUndefined();
  });

  it('checks required itself, naming the input and the form it takes', () => {
    const error = errorOf(() => read.string('file', { required: true, form: 'a path to the app file' }));
    expect(error.input).toBe('file');
    expect(error.message).toBe('Input "file" is required but was empty. Allowed: a path to the app file.');
    expect(errorOf(() => read.requiredString('url', 'an http(s):// address')).message).toBe(
      'Input "url" is required but was empty. Allowed: an http(s):// address.',
    );
    setInput('url', ' https://example.com ');
    expect(read.requiredString('url', 'an http(s):// address')).toBe('https://example.com');
  });

  it('never refuses with a form that says nothing', () => {
    const refusals = [
      errorOf(() => read.requiredString('file', 'a path')),
      errorOf(() => read.integer('retries', undefined, { required: true })),
      errorOf(() => read.duration('timeout', undefined, { ...TIMEOUT_BOUNDS, required: true })),
      errorOf(() => read.id('build-id', 'positive-integer', { required: true })),
      errorOf(() => read.email('email', { required: true })),
      errorOf(() => read.emails('testers', { required: true })),
      errorOf(() => read.list('groups', { required: true })),
      errorOf(() => read.filePath('file', { required: true })),
    ];
    for (const error of refusals) {
      expect(error.allowed, error.message).toBeTruthy();
      expect(error.message).not.toMatch(/any non-empty value/);
    }
  });
});

describe('boolean', () => {
  it('accepts only true and false', () => {
    setInput('notify', 'true');
    expect(read.boolean('notify', false)).toBe(true);
    setInput('notify', 'false');
    expect(read.boolean('notify', true)).toBe(false);
    setInput('notify', '');
    expect(read.boolean('notify', true)).toBe(true);
    for (const bad of ['yes', 'True', '1', 'on']) {
      setInput('notify', bad);
      const error = errorOf(() => read.boolean('notify', false));
      expect(error.message).toContain(`"${bad}"`);
      expect(error.message).toContain('`true` or `false`');
    }
  });
});

describe('enum', () => {
  it('lists the allowed values in its error', () => {
    setInput('landing-page-mode', 'closed');
    expect(read.enum('landing-page-mode', ['open', 'closed'])).toBe('closed');
    setInput('landing-page-mode', 'secret');
    const error = errorOf(() => read.enum('landing-page-mode', ['open', 'closed'], 'open'));
    expect(error.message).toBe('Input "landing-page-mode" has "secret". Allowed: `open`, `closed`.');
  });

  it('falls back when empty', () => {
    expect(read.enum('region', ['us-east-1', 'eu-central-1'], 'us-east-1')).toBe('us-east-1');
    expect(read.enum('region', ['a', 'b'])).toBeUndefined();
  });
});

describe('durations', () => {
  it('parses seconds and units', () => {
    expect(parseDuration('90')).toBe(90_000);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('30m')).toBe(1_800_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('soon')).toBeUndefined();
    expect(parseDuration('10 minutes')).toBeUndefined();
    expect(parseDuration('-5')).toBeUndefined();
    expect(parseDuration('NaN')).toBeUndefined();
    expect(parseDuration('1e400')).toBeUndefined();
    expect(parseDuration('30x')).toBeUndefined();
    // Too many digits for a number: no bound admits it.
    expect(parseDuration('9'.repeat(400))).toBe(Infinity);
  });

  it('reads within the bounds given', () => {
    const bounds = { minMs: 1000, maxMs: 3_600_000 };
    setInput('timeout', '2m');
    expect(read.duration('timeout', 1000, bounds)).toBe(120_000);
    setInput('timeout', '');
    expect(read.duration('timeout', 1000, bounds)).toBe(1000);
    expect(read.duration('timeout', undefined, bounds)).toBeUndefined();
    setInput('timeout', '2h');
    expect(errorOf(() => read.duration('timeout', 1000, bounds)).message).toBe(
      'Input "timeout" has 2h, which is longer than 1h. Allowed: seconds (`90`) or a number with `ms`, `s`, `m` or `h` (`90s`, `30m`, `1h30m`), from 1s to 1h.',
    );
    setInput('timeout', 'forever');
    expect(errorOf(() => read.duration('timeout', 1000, bounds)).message).toContain('`30m`');
  });

  it('bounds every duration input of the actions well below what Node timers hold', () => {
    expect(TIMEOUT_BOUNDS).toEqual({ minMs: 1000, maxMs: 24 * 3_600_000 });
    expect(POLL_INTERVAL_BOUNDS).toEqual({ minMs: 1000, maxMs: 10 * 60_000 });
    expect(MAX_DURATION_BOUNDS).toEqual({ minMs: 1000, maxMs: 10_800_000 });
    for (const bounds of [TIMEOUT_BOUNDS, POLL_INTERVAL_BOUNDS, MAX_DURATION_BOUNDS]) {
      expect(bounds.minMs).toBeGreaterThan(0);
      expect(bounds.maxMs).toBeLessThan(MAX_TIMER_MS);
    }
  });

  it.each<[string, DurationBounds, string]>([
    ['timeout', TIMEOUT_BOUNDS, 'from 1s to 24h'],
    ['poll-interval', POLL_INTERVAL_BOUNDS, 'from 1s to 10m'],
    ['max-duration', MAX_DURATION_BOUNDS, 'from 1s to 3h'],
  ])(
    'refuses a %s that is malformed or out of its bounds, giving the form and the bounds',
    (name, bounds, range) => {
      const tooLong = formatDuration(bounds.maxMs + 1000);
      const refused: [string, string][] = [
        ['-5', 'which is not a duration'],
        ['0', 'which is shorter than 1s'],
        ['0.0001', 'which is shorter than 1s'],
        ['500ms', 'which is shorter than 1s'],
        ['NaN', 'which is not a duration'],
        ['1e400', 'which is not a duration'],
        ['10 minutes', 'which is not a duration'],
        ['30x', 'which is not a duration'],
        ['Infinity', 'which is not a duration'],
        // Past Node's timer limit, such a delay would fire after 1 ms.
        ['2147484', `which is longer than ${formatDuration(bounds.maxMs)}`],
        ['9'.repeat(400), `which is longer than ${formatDuration(bounds.maxMs)}`],
        [tooLong, `which is longer than ${formatDuration(bounds.maxMs)}`],
      ];
      for (const [value, problem] of refused) {
        setInput(name, value);
        const error = errorOf(() => read.duration(name, 5000, bounds));
        expect(error.input).toBe(name);
        expect(error.problem, value).toContain(problem);
        expect(error.allowed).toContain('seconds (`90`)');
        expect(error.allowed).toContain(range);
      }
      setInput(name, formatDuration(bounds.maxMs));
      expect(read.duration(name, 5000, bounds)).toBe(bounds.maxMs);
      setInput(name, '1');
      expect(read.duration(name, 5000, bounds)).toBe(1000);
    },
  );

  it('shortens a very long value in the refusal', () => {
    setInput('timeout', '9'.repeat(400));
    const error = errorOf(() => read.duration('timeout', 1000, TIMEOUT_BOUNDS));
    expect(error.message.length).toBeLessThan(250);
    expect(error.message).toMatch(/^Input "timeout" has "9{21}\.\.\.", which is longer than 24h\./);
  });
});

describe('sizes', () => {
  it.each<[string, number | undefined]>([
    ['500MB', 500_000_000],
    ['500mb', 500_000_000],
    ['500 MB', 500_000_000],
    ['1.5GB', 1_500_000_000],
    ['2GiB', 2 * 1024 ** 3],
    ['64KiB', 65_536],
    ['64kB', 64_000],
    ['64KB', 64_000],
    ['1TB', 1e12],
    ['100B', 100],
    ['500', undefined],
    ['-5MB', undefined],
    ['1e3MB', undefined],
    ['5 megabytes', undefined],
    ['5Mb/s', undefined],
    ['MB', undefined],
    ['', undefined],
    ['Infinity', undefined],
  ])('%j is %j bytes', (text, bytes) => {
    expect(parseSize(text)).toBe(bytes);
  });

  it.each<[number, string]>([
    [512, '512 B'],
    [1000, '1 kB'],
    [1_000_000, '1 MB'],
    [1_048_576, '1 MiB'],
    [2 * 1024 ** 3, '2 GiB'],
    [1_234_567, '1.23 MB'],
    [999_999, '1000 kB'],
    [100e9, '100 GB'],
  ])('%j bytes show as %j', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });

  it.each<[string, number | string]>([
    ['', 7],
    ['2GiB', 2 * 1024 ** 3],
    ['1MB', 1_000_000],
    ['100GB', 100e9],
    ['500', 'has "500", which has no unit'],
    ['lots', 'has "lots", which is not a size'],
    ['-1MB', 'has "-1MB", which is not a size'],
    ['999kB', 'has "999kB", less than 1 MB'],
    ['101GB', 'has "101GB", more than 100 GB'],
    ['9'.repeat(400) + 'GB', 'more than 100 GB'],
  ])('max-assets-size %j reads as %j', (value, expected) => {
    setInput('max-assets-size', value);
    if (typeof expected === 'number') {
      expect(read.size('max-assets-size', 7, ASSETS_SIZE_BOUNDS)).toBe(expected);
      return;
    }
    const error = errorOf(() => read.size('max-assets-size', 7, ASSETS_SIZE_BOUNDS));
    expect(error.input).toBe('max-assets-size');
    expect(error.problem).toContain(expected);
    expect(error.allowed).toContain('such as `500MB` or `2GiB`, from 1 MB to 100 GB');
    expect(error.message.length).toBeLessThan(400);
  });
});

describe('ids', () => {
  it('reads a positive whole number, without leading zeros', () => {
    setInput('build-id', '77');
    expect(read.id('build-id', 'positive-integer')).toBe('77');
    setInput('build-id', ' 0077 ');
    expect(read.id('build-id', 'positive-integer')).toBe('77');
    setInput('build-id', String(Number.MAX_SAFE_INTEGER));
    expect(read.id('build-id', 'positive-integer')).toBe('9007199254740991');
    setInput('build-id', '');
    expect(read.id('build-id', 'positive-integer')).toBeUndefined();
  });

  it.each([
    ['abc', 'has "abc", which is not a positive whole number'],
    ['0', 'has "0", which is not positive'],
    ['-1', 'has "-1", which is not a positive whole number'],
    ['1.5', 'has "1.5", which is not a positive whole number'],
    ['1e3', 'has "1e3", which is not a positive whole number'],
    ['99999999999999999999', 'has "99999999999999999999", which is too large for an id'],
    ['9007199254740992', 'has "9007199254740992", which is too large for an id'],
  ])('refuses the build id %s, saying what a build id is', (value, problem) => {
    setInput('build-id', value);
    const error = errorOf(() =>
      read.id('build-id', 'positive-integer', {
        required: true,
        hint: 'the `build-id` output of upload-build',
      }),
    );
    expect(error.input).toBe('build-id');
    expect(error.message).toContain(`Input "build-id" ${problem}.`);
    expect(error.allowed).toBe(
      'a positive whole number such as `1234`, at most 9007199254740991 (the `build-id` output of upload-build)',
    );
  });

  it('needs a required id, naming its form', () => {
    expect(
      errorOf(() =>
        read.id('project-id', 'positive-integer', { required: true, hint: 'upload-build output' }),
      ).message,
    ).toBe(
      'Input "project-id" is required but was empty. Allowed: a positive whole number such as `1234`, at most 9007199254740991 (upload-build output).',
    );
  });

  it('checks 24 hexadecimal digits and UUIDs, in lists too', () => {
    const hex = '65a1f0c2b3d4e5f607182930';
    expect(checkId('test-cases', ` ${hex} `, 'hex-24')).toBe(hex);
    expect(checkId('test-cases', hex.toUpperCase(), 'hex-24')).toBe(hex.toUpperCase());
    for (const bad of [
      'abc',
      hex.slice(1),
      `${hex}0`,
      `${hex.slice(1)}g`,
      '3f6c2a9e-8b1d-4c7e-9f20-5a4b3c2d1e0f',
    ]) {
      const error = errorOf(() => checkId('test-cases', bad, 'hex-24', { where: 'item 2' }));
      expect(error.input).toBe('test-cases');
      expect(error.problem).toBe(`has item 2 "${bad}", which is not 24 hexadecimal digits`);
      expect(error.allowed).toContain('24 hexadecimal digits (0-9, a-f)');
    }
    const uuid = '3f6c2a9e-8b1d-4c7e-9f20-5a4b3c2d1e0f';
    expect(checkId('suite', uuid, 'uuid')).toBe(uuid);
    expect(errorOf(() => checkId('suite', 'Smoke', 'uuid')).message).toBe(
      'Input "suite" has "Smoke", which is not a UUID. Allowed: a UUID such as `3f6c2a9e-8b1d-4c7e-9f20-5a4b3c2d1e0f`.',
    );
  });

  it('tells whether a text is an id of a form, for inputs that take an id or a name', () => {
    expect(isId('3f6c2a9e-8b1d-4c7e-9f20-5a4b3c2d1e0f', 'uuid')).toBe(true);
    expect(isId('Smoke', 'uuid')).toBe(false);
    expect(isId('12', 'positive-integer')).toBe(true);
    expect(isId('0', 'positive-integer')).toBe(false);
    expect(isId('99999999999999999999', 'positive-integer')).toBe(false);
    expect(isId('65a1f0c2b3d4e5f607182930', 'hex-24')).toBe(true);
  });
});

describe('emails', () => {
  it('reads one email, refusing anything but name@host', () => {
    setInput('email', 'me@example.com');
    expect(read.email('email')).toBe('me@example.com');
    for (const bad of ['me', 'me@example', '@example.com', 'me@@example.com', 'me @example.com']) {
      setInput('email', bad);
      const error = errorOf(() => read.email('email'));
      expect(error.message).toBe(
        `Input "email" has ${JSON.stringify(bad)}, which is not an email address. Allowed: an email address, \`name@host\` such as \`alice@example.com\`.`,
      );
    }
  });

  it('reads a list of emails, checked, without duplicates', () => {
    setInput('testers', 'alice@example.com\nbob@example.com, Alice@Example.com');
    expect(read.emails('testers')).toEqual(['alice@example.com', 'bob@example.com']);
    setInput('testers', 'ok@example.com, not-an-email, a@b');
    const error = errorOf(() => read.emails('testers'));
    expect(error.message).toBe(
      'Input "testers" has invalid emails: "not-an-email", "a@b". Allowed: email addresses (`name@host`, such as `alice@example.com`), separated by commas or newlines.',
    );
    setInput('testers', '');
    expect(read.emails('testers')).toEqual([]);
  });
});

describe('integer', () => {
  it('accepts whole numbers within bounds', () => {
    setInput('retries', '3');
    expect(read.integer('retries', 1, { min: 0, max: 5 })).toBe(3);
    setInput('retries', '9');
    expect(errorOf(() => read.integer('retries', 1, { min: 0, max: 5 })).message).toContain('from 0 to 5');
    setInput('retries', '2.5');
    expect(errorOf(() => read.integer('retries', 1)).message).toContain('not a whole number');
  });
});

describe('shard', () => {
  it('reads <index>/<total>, spaces around the slash allowed', () => {
    setInput('shard', '2/4');
    expect(read.shard('shard')).toEqual({ index: 2, total: 4 });
    setInput('shard', ' 3 / 3 ');
    expect(read.shard('shard')).toEqual({ index: 3, total: 3 });
    values.delete('shard');
    expect(read.shard('shard')).toBeUndefined();
  });

  it.each([
    ['4/3', 'whose index is past its total'],
    ['0/3', 'whose index is 0 (shards count from 1)'],
    ['1/0', 'whose total is 0'],
    ['a/b', 'which is not <index>/<total>'],
    ['2', 'which is not <index>/<total>'],
    ['-1/3', 'which is not <index>/<total>'],
    ['1/257', 'whose total is over 256'],
  ])('refuses %s by name, with the form', (value, problem) => {
    setInput('shard', value);
    const error = errorOf(() => read.shard('shard'));
    expect(error.input).toBe('shard');
    expect(error.message).toContain(problem);
    expect(error.message).toContain('`2/4`');
  });
});

describe('shareOf', () => {
  const ids = Array.from({ length: 12 }, (_, n) => `case-${String(n + 1).padStart(2, '0')}`);

  it('gives every item to exactly one shard, evenly, whatever order the items come in', () => {
    const reversed = [...ids].reverse();
    const shuffled = [...ids.slice(5), ...ids.slice(0, 5)];
    for (const order of [ids, reversed, shuffled]) {
      const shares = [1, 2, 3].map((index) => shareOf(order, { index, total: 3 }, (id) => id));
      expect(shares.map((share) => share.length)).toEqual([4, 4, 4]);
      expect(shares.flat().sort()).toEqual(ids);
      // The same items in each shard whatever the order; each share keeps the order given.
      expect(shares.map((share) => [...share].sort())).toEqual(
        [1, 2, 3].map((index) => shareOf(ids, { index, total: 3 }, (id) => id)),
      );
      for (const share of shares) expect(share).toEqual(order.filter((id) => share.includes(id)));
    }
  });

  it('sizes differ by one at most; a shard past the items is empty; no shard or 1/1 is all', () => {
    const sizes = [1, 2, 3, 4, 5].map((index) => shareOf(ids, { index, total: 5 }, (id) => id).length);
    expect(sizes).toEqual([3, 3, 2, 2, 2]);
    expect(shareOf(ids.slice(0, 2), { index: 3, total: 4 }, (id) => id)).toEqual([]);
    expect(shareOf(ids, undefined, (id) => id)).toEqual(ids);
    expect(shareOf(ids, { index: 1, total: 1 }, (id) => id)).toEqual(ids);
    expect(shardText({ index: 2, total: 4 })).toBe('2/4');
  });
});

describe('lists and key=value lines', () => {
  it('splits on commas and newlines', () => {
    expect(splitList('a, b\nc,,\n d ')).toEqual(['a', 'b', 'c', 'd']);
    setInput('groups', 'qa\nbeta, staff');
    expect(read.list('groups')).toEqual(['qa', 'beta', 'staff']);
    setInput('groups', ' , ');
    expect(errorOf(() => read.list('groups', { required: true })).input).toBe('groups');
  });

  it('reads key=value lines', () => {
    setInput('metadata', 'branch=main\n# note\n\ncommit = abc=def\n');
    expect(read.keyValues('metadata')).toEqual({ branch: 'main', commit: 'abc=def' });
    setInput('metadata', 'branch=main\nnokey');
    expect(errorOf(() => read.keyValues('metadata')).message).toContain('line 2');
    setInput('metadata', 'a=1\na=2');
    expect(errorOf(() => read.keyValues('metadata')).message).toContain('twice');
  });
});

describe('filePath', () => {
  it('resolves against the workspace and checks the file', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kit-'));
    try {
      writeFileSync(path.join(dir, 'app.apk'), 'x');
      workspace = dir;
      setInput('file', 'app.apk');
      expect(read.filePath('file')).toBe(path.join(dir, 'app.apk'));
      setInput('file', 'missing.apk');
      expect(errorOf(() => read.filePath('file')).message).toContain('does not exist');
      setInput('file', '.');
      expect(errorOf(() => read.filePath('file')).message).toContain('not a file');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('paths in a form the runner does not read', () => {
  it.each<[string, NodeJS.Platform, string]>([
    ['build\\app.apk', 'linux', ': \\ is not a folder separator on Linux; write "build/app.apk"'],
    ['build\\app.apk', 'darwin', ': \\ is not a folder separator on macOS; write "build/app.apk"'],
    ['build\\app.apk', 'win32', ''],
    ['C:\\x\\app.apk', 'linux', ': a drive letter (C:) is a Windows path, and this runner is Linux;'],
    ['d:/x/app.apk', 'darwin', ': a drive letter (d:) is a Windows path, and this runner is macOS;'],
    ['C:\\x\\app.apk', 'win32', ''],
    ['~/app.apk', 'linux', ': `~` is not expanded, as the runner passes inputs as written;'],
    ['~\\app.apk', 'win32', ': `~` is not expanded'],
    ['~', 'darwin', ': `~` is not expanded'],
    ['~x/app.apk', 'linux', ''],
    ['build/app.apk', 'linux', ''],
  ])('%s on %s', (value, platform, hint) => {
    const said = pathFormHint(value, platform);
    if (hint === '') expect(said).toBe('');
    else expect(said.startsWith(hint)).toBe(true);
  });

  it.runIf(process.platform !== 'win32').each(['build\\app.apk', 'C:\\x\\app.apk', '~/app.apk'])(
    'the refusal of %s names its form',
    (value) => {
      setInput('file', value);
      const message = errorOf(() => read.filePath('file')).message;
      expect(message).toContain('does not exist');
      expect(message).toContain(pathFormHint(value));
      expect(pathFormHint(value)).not.toBe('');
    },
  );
});
