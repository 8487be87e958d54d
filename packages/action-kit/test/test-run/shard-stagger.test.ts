/** Where each shard of a matrix starts its cases: slots one after another, within two minutes. */
import { describe, expect, it } from 'vitest';
import { REQUESTS_PER_SECOND, shardStaggerMs } from '../../src/test-run/request-pacer.ts';

describe('shardStaggerMs', () => {
  const rows: [string, { index: number; total: number }, number, number][] = [
    ['no shard, no wait', { index: 1, total: 1 }, 400, 0],
    ['the first shard starts at once', { index: 1, total: 20 }, 20, 0],
    ['the second after the first’s 20 starts at 5 a second', { index: 2, total: 20 }, 20, 4000],
    ['the last of 20 after 19 slots', { index: 20, total: 20 }, 20, 76_000],
    ['a shard with nothing to start does not wait', { index: 3, total: 4 }, 0, 0],
    ['large shards spread over two minutes at most', { index: 5, total: 5 }, 1000, 96_000],
    ['256 shards of one case fit one slot each', { index: 256, total: 256 }, 1, 51_000],
  ];
  it.each(rows)('%s', (_name, shard, starts, ms) => {
    expect(shardStaggerMs(shard, starts)).toBe(ms);
  });

  it('keeps the matrix’s starts under the kit’s pace when every shard starts together', () => {
    const shards = 20;
    const cases = 20;
    const starts = Array.from({ length: shards }, (_, k) =>
      shardStaggerMs({ index: k + 1, total: shards }, cases),
    )
      .flatMap((offset) => Array.from({ length: cases }, (_, n) => offset + (n * 1000) / REQUESTS_PER_SECOND))
      .sort((a, b) => a - b);
    // No window of one second holds more starts than the pace allows.
    for (let i = 0; i + REQUESTS_PER_SECOND < starts.length; i++) {
      expect(starts[i + REQUESTS_PER_SECOND]! - starts[i]!).toBeGreaterThanOrEqual(1000);
    }
  });
});
