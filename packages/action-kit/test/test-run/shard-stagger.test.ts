/** Where each shard of a matrix plans and starts its cases: turns one after another, within five minutes. */
import { describe, expect, it } from 'vitest';
import { REQUESTS_PER_SECOND } from '../../src/step/request-pacer.ts';
import { planTurnMs, startTurnMs } from '../../src/test-run/shard-turns.ts';

type Shard = { index: number; total: number };

describe('the turns of a matrix’s shards', () => {
  const rows: [string, Shard | undefined, number, number, number][] = [
    ['no shard: no wait', undefined, 400, 0, 0],
    ['1/1: no wait', { index: 1, total: 1 }, 400, 0, 0],
    ['the first of 20 plans at once, and starts once all 20 planned', { index: 1, total: 20 }, 20, 0, 12_000],
    ['the second plans 0.6 s later, starts 4 s after the first', { index: 2, total: 20 }, 20, 600, 16_000],
    ['the last of 20', { index: 20, total: 20 }, 20, 11_400, 88_000],
    ['a shard with nothing to start does not wait to start', { index: 3, total: 4 }, 0, 1200, 0],
    [
      'large shards start within four minutes of planning',
      { index: 5, total: 5 },
      1000,
      2400,
      3000 + 192_000,
    ],
    [
      '256 shards of one case: planning within a minute',
      { index: 256, total: 256 },
      1,
      59_766,
      60_000 + 51_000,
    ],
  ];
  it.each(rows)('%s', (_name, shard, starts, plan, start) => {
    expect(planTurnMs(shard)).toBe(plan);
    expect(startTurnMs(shard, starts)).toBe(start);
  });

  it('keeps the matrix under the kit’s pace when every shard begins together', () => {
    const total = 20;
    const cases = 20;
    const shards = Array.from({ length: total }, (_, k) => ({ index: k + 1, total }));
    // Each shard's three planning requests and twenty starts at the kit's pace, from its turns.
    const sent = shards
      .flatMap((shard) => [
        ...Array.from({ length: 3 }, (_, n) => planTurnMs(shard) + (n * 1000) / REQUESTS_PER_SECOND),
        ...Array.from(
          { length: cases },
          (_, n) => startTurnMs(shard, cases) + (n * 1000) / REQUESTS_PER_SECOND,
        ),
      ])
      .sort((a, b) => a - b);
    for (let i = 0; i + REQUESTS_PER_SECOND < sent.length; i++) {
      expect(sent[i + REQUESTS_PER_SECOND]! - sent[i]!).toBeGreaterThanOrEqual(1000);
    }
  });
});
