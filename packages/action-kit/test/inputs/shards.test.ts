/** Shards: `shard` read as <index>/<total>, and each shard's share of the items. */
import { describe, expect, it } from 'vitest';
import { shardText, shareOf } from '../../src/index.ts';
import { errorOf, useTestReader } from './test-reader.ts';

const { read, values, setInput } = useTestReader();

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
