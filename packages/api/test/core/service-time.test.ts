import { describe, expect, it } from 'vitest';
import { parseServiceTime } from '../../src/core/values/service-time.ts';

const utc = (iso: string): number => {
  const ms = new Date(iso).getTime();
  if (Number.isNaN(ms)) throw new Error(`bad fixture ${iso}`);
  return ms;
};

describe("a service's time", () => {
  it.each<[unknown, string]>([
    // The documented form, taken as UTC.
    ['2026-11-20 10:00:00', '2026-11-20T10:00:00Z'],
    ['2026-11-20 9:05:07', '2026-11-20T09:05:07Z'],
    ['2026-1-2 03:04:05', '2026-01-02T03:04:05Z'],
    ['  2026-11-20  10:00:00 ', '2026-11-20T10:00:00Z'],
    ['2026-11-20 10:00', '2026-11-20T10:00:00Z'],
    ['2026-11-20 10:00:00 UTC', '2026-11-20T10:00:00Z'],
    ['2026-11-20 10:00:00+02:00', '2026-11-20T08:00:00Z'],
    // ISO 8601.
    ['2026-11-20T10:00:00Z', '2026-11-20T10:00:00Z'],
    ['2026-11-20t10:00:00z', '2026-11-20T10:00:00Z'],
    ['2026-11-20T10:00:00', '2026-11-20T10:00:00Z'],
    ['2026-11-20T10:00:00.123Z', '2026-11-20T10:00:00.123Z'],
    ['2026-11-20T10:00:00,5Z', '2026-11-20T10:00:00.500Z'],
    ['2026-11-20T10:30:00+02:00', '2026-11-20T08:30:00Z'],
    ['2026-11-20T10:30:00+0530', '2026-11-20T05:00:00Z'],
    ['2026-11-20T10:30:00-05', '2026-11-20T15:30:00Z'],
    ['2026-12-31T23:30:00-02:00', '2027-01-01T01:30:00Z'],
    ['2024-02-29 12:00:00', '2024-02-29T12:00:00Z'],
    // Unix time, as the automation interface writes it.
    [1_763_632_800, '2025-11-20T10:00:00Z'],
    [1_763_632_800_000, '2025-11-20T10:00:00Z'],
  ])('%o is %s', (value, iso) => {
    expect(parseServiceTime(value)).toBe(utc(iso));
  });

  it('keeps fractions below the millisecond, which may tell two times apart', () => {
    expect(parseServiceTime('2026-11-20T10:00:00.123456789Z')).toBeCloseTo(
      utc('2026-11-20T10:00:00.123Z') + 0.456789,
      4,
    );
  });

  it.each<unknown>([
    '',
    'yesterday',
    '20/11/2026 10:00:00',
    '11/20/2026',
    '2026-11-20',
    '2026-13-01 10:00:00',
    '2026-00-10 10:00:00',
    '2026-02-30 10:00:00',
    '2025-02-29 10:00:00',
    '2026-11-20 24:00:00',
    '2026-11-20 10:60:00',
    '2026-11-20 10:00:60',
    '2026-11-20T10:00:00+25:00',
    '2026-11-20T10:00:00+02:75',
    '2026-11-20T10:00:00 CEST',
    '2026-11-20T10:00:00Z trailing',
    '+2026-11-20 10:00:00',
    null,
    undefined,
    true,
    0,
    -5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    { at: '2026-11-20 10:00:00' },
  ])('%o is no time', (value) => {
    expect(parseServiceTime(value)).toBeUndefined();
  });

  it('orders what text misorders', () => {
    const pairs: [string, string][] = [
      ['2026-11-20 9:45:00', '2026-11-20 10:15:00'],
      ['2026-11-20T10:30:00+02:00', '2026-11-20 09:00:00'],
      ['2027-01-01 01:00:00', '2026-12-31T23:30:00-02:00'],
    ];
    for (const [older, newer] of pairs) {
      expect(older > newer, `${older} sorts after ${newer} as text`).toBe(true);
      expect(parseServiceTime(older)!).toBeLessThan(parseServiceTime(newer)!);
    }
  });
});
