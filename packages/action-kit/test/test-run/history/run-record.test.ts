/** A run's record in a job's custom data: the keys of its items, and writing and reading it back. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  itemKey,
  RECORD_KEY,
  recordOf,
  seriesTag,
  withRecord,
  type ItemOutcome,
  type RunRecord,
} from '../../../src/test-run/history/run-record.ts';

/** The first 50 bits of the SHA-256 of `item`, in RFC 4648 base 32, lower case: written apart from the module. */
function expectedKey(item: string): string {
  const bits = [...createHash('sha256').update(item).digest()]
    .map((byte) => byte.toString(2).padStart(8, '0'))
    .join('');
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return Array.from({ length: 10 }, (_, at) => alphabet[parseInt(bits.slice(at * 5, at * 5 + 5), 2)]).join(
    '',
  );
}

const record: RunRecord = {
  series: 'github.com/acme/shop nightly android',
  branch: 'main',
  pullRequest: false,
  run: { number: '412', attempt: '2', url: 'https://github.com/acme/shop/actions/runs/9876543210' },
  at: 1_760_000_000_000,
  builds: ['nightly 412', 'nightly 412 (retry)'],
  previous: '0a1b2c3d4e5f60718293a4b5c6d7e8f9',
  items: {
    [itemKey('case-checkout')]: 'failed',
    [itemKey('case-login')]: 'passed',
    [itemKey('case-pay')]: 'flaky',
  },
};

/** The record as it is stored: each outcome by one letter. */
const storedRecord = {
  v: 1,
  ...record,
  items: { [itemKey('case-checkout')]: 'f', [itemKey('case-login')]: 'p', [itemKey('case-pay')]: 'r' },
};

describe('itemKey', () => {
  it('is 10 characters of base 32', () => {
    for (const item of ['case-checkout', '', 'Android 14 — Pixel 8', 'x'.repeat(10_000)]) {
      expect(itemKey(item)).toMatch(/^[a-z2-7]{10}$/);
    }
  });

  it('is the first 50 bits of the SHA-256 of the item', () => {
    for (const item of ['case-checkout', '', 'Android 14 — Pixel 8', 'chrome latest Windows 11']) {
      expect(itemKey(item)).toBe(expectedKey(item));
    }
  });

  it('is stable: the records of earlier releases stay readable', () => {
    expect(itemKey('case-checkout')).toBe('mucqak7k47');
    expect(itemKey('')).toBe('4oymiquy7q');
    expect(itemKey('Android 14 — Pixel 8')).toBe('3g3rk37m2v');
  });

  it('gives 2,000 distinct items 2,000 distinct keys', () => {
    const keys = new Set(Array.from({ length: 2000 }, (_, at) => itemKey(`case-${at}`)));
    expect(keys.size).toBe(2000);
  });
});

describe('seriesTag', () => {
  it('names the series after a prefix of its own', () => {
    expect(seriesTag('abc123')).toBe('sauce-actions-history:abc123');
  });
});

describe('withRecord', () => {
  it("keeps the job's own custom data and puts the record under its key", () => {
    const own = { owner: 'qa', ticket: { id: 7 } };
    const data = withRecord(own, record);
    expect(data.owner).toBe('qa');
    expect(data.ticket).toEqual({ id: 7 });
    expect(data[RECORD_KEY]).toEqual(storedRecord);
    expect(own).toEqual({ owner: 'qa', ticket: { id: 7 } });
  });

  it('replaces only its own key', () => {
    const data = withRecord({ owner: 'qa', [RECORD_KEY]: { v: 1, stale: true } }, record);
    expect(Object.keys(data).sort()).toEqual([RECORD_KEY, 'owner'].sort());
    expect(recordOf(data)).toEqual(record);
    expect(data[RECORD_KEY]).not.toHaveProperty('stale');
  });

  const notObjects: [string, unknown][] = [
    ['none', undefined],
    ['null', null],
    ['a list', ['qa']],
    ['a string', 'qa'],
    ['a number', 7],
  ];
  it.each(notObjects)(
    'custom data that is not an object (%s) gives way to the record alone',
    (_name, own) => {
      expect(withRecord(own, record)).toEqual({ [RECORD_KEY]: storedRecord });
    },
  );
});

describe('recordOf', () => {
  it('reads back what withRecord wrote, through JSON as the service stores it', () => {
    expect(recordOf(withRecord({ owner: 'qa' }, record))).toEqual(record);
    expect(recordOf(JSON.parse(JSON.stringify(withRecord({ owner: 'qa' }, record))))).toEqual(record);
  });

  it('reads a record without a run before it, nor a run number', () => {
    const { previous: _previous, ...first } = { ...record, run: {} };
    expect(recordOf(withRecord({}, first))).toEqual(first);
  });

  /** The stored value of a record with `change` made to it. */
  const stored = (change: Record<string, unknown>): unknown => ({
    owner: 'qa',
    [RECORD_KEY]: { ...storedRecord, ...change },
  });

  const none: [string, unknown][] = [
    ['no custom data', undefined],
    ['null', null],
    ['a list', [stored({})]],
    ['a string', JSON.stringify(stored({}))],
    ['custom data without a record', { owner: 'qa' }],
    ['a record that is not an object', { [RECORD_KEY]: 'v1' }],
    ['a record that is a list', { [RECORD_KEY]: [1] }],
    ['another version', stored({ v: 2 })],
    ['a version as a string', stored({ v: '1' })],
    ['no version', { [RECORD_KEY]: { ...storedRecord, v: undefined } }],
    ['an empty series', stored({ series: '' })],
    ['a series not a string', stored({ series: 7 })],
    ['no branch', stored({ branch: undefined })],
    ['a branch not a string', stored({ branch: ['main'] })],
    ['pullRequest not a boolean', stored({ pullRequest: 'false' })],
    ['a time as a string', stored({ at: '2025-10-09' })],
    ['a time that is not finite', stored({ at: Number.NaN })],
    ['an infinite time', stored({ at: Number.POSITIVE_INFINITY })],
    ['a run that is not an object', stored({ run: '412' })],
    ['no run', stored({ run: null })],
    ['items as a list', stored({ items: ['passed'] })],
    ['no items', stored({ items: undefined })],
    ['builds not a list', stored({ builds: 'nightly 412' })],
  ];
  it.each(none)('reads none from %s', (_name, data) => {
    expect(recordOf(data)).toBeUndefined();
  });

  const cleaned: [string, Record<string, unknown>, Partial<RunRecord>][] = [
    [
      'drops an item of another outcome, or in words',
      { items: { a: 'p', b: 'f', c: 'r', d: 'passed', e: 's', f: 1, g: null } },
      { items: { a: 'passed', b: 'failed', c: 'flaky' } },
    ],
    ['drops a build that is not a string', { builds: ['nightly 412', 7, null] }, { builds: ['nightly 412'] }],
    [
      'drops empty or wrong run fields',
      { run: { number: '', attempt: 2, url: 'https://ci' } },
      { run: { url: 'https://ci' } },
    ],
  ];
  it.each(cleaned)('%s', (_name, change, expected) => {
    expect(recordOf(stored(change))).toEqual({ ...record, ...expected });
  });

  const previous: [string, unknown][] = [
    ['no job id', '../jobs/1'],
    ['too long', 'a'.repeat(65)],
    ['empty', ''],
    ['not a string', 42],
  ];
  it.each(previous)('drops a previous anchor that is %s', (_name, anchor) => {
    const { previous: _previous, ...first } = record;
    expect(recordOf(stored({ previous: anchor }))).toEqual(first);
  });

  it('drops fields a record does not have', () => {
    expect(recordOf(stored({ token: 'secret' }))).not.toHaveProperty('token');
  });

  it('keeps a record of 2,000 items under 40 KB of custom data', () => {
    const outcomes: ItemOutcome[] = ['passed', 'failed', 'flaky'];
    const items = Object.fromEntries(
      Array.from({ length: 2000 }, (_, at) => [itemKey(`case-${at}`), outcomes[at % 3] ?? 'passed']),
    );
    const data = withRecord({ owner: 'qa' }, { ...record, items });
    expect(Object.keys(recordOf(data)?.items ?? {})).toHaveLength(2000);
    expect(Buffer.byteLength(JSON.stringify(data))).toBeLessThan(40_000);
  });
});
