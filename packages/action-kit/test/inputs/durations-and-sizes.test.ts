/**
 * Durations and sizes: how they parse and print, and the bounds every duration input of the
 * actions keeps, refusals giving the form and the bounds.
 */
import { describe, expect, it } from 'vitest';
import {
  ASSETS_SIZE_BOUNDS,
  formatDuration,
  formatSize,
  MAX_DURATION_BOUNDS,
  MAX_TIMER_MS,
  parseDuration,
  parseSize,
  POLL_INTERVAL_BOUNDS,
  TIMEOUT_BOUNDS,
  type DurationBounds,
} from '../../src/index.ts';
import { errorOf, useTestReader } from './test-reader.ts';

const { read, setInput } = useTestReader();

describe('durations', () => {
  it('parses seconds and units', () => {
    expect(parseDuration('90')).toBe(90_000);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('30m')).toBe(1_800_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('2d')).toBe(172_800_000);
    expect(parseDuration('1d12h')).toBe(129_600_000);
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
      'Input "timeout" has 2h, which is longer than 1h. Allowed: seconds (`90`) or a number with `ms`, `s`, `m`, `h` or `d` (`90s`, `30m`, `1h30m`, `2d`), from 1s to 1h.',
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
