/** Which nights send their one message, by `notify-on`: four scripted nights as the issue plays them. */
import { describe, expect, it } from 'vitest';
import { classifyItems, type CurrentItem } from '../../../src/test-run/history/classes.ts';
import { itemKey, type ItemOutcome, type RunRecord } from '../../../src/test-run/history/run-record.ts';
import type { NotifyOn } from '../../../src/inputs/notify-inputs.ts';
import { notifyReason } from '../../../src/test-run/notify/notify-on.ts';

/** Nights of two cases, oldest first: each compared with the ones before it. */
function nights(outcomes: readonly (readonly ItemOutcome[])[]) {
  const records: RunRecord[] = [];
  return outcomes.map((night, index) => {
    const current: CurrentItem[] = night.map((outcome, n) => ({ item: `c${n}`, name: `Case ${n}`, outcome }));
    const comparison = { classification: classifyItems(current, [...records].reverse()) };
    records.push({
      series: 's',
      branch: 'main',
      pullRequest: false,
      run: { number: String(index + 1) },
      at: index,
      builds: [],
      items: Object.fromEntries(current.map((item) => [itemKey(item.item), item.outcome])),
    });
    return { comparison, failed: night.filter((outcome) => outcome === 'failed').length };
  });
}

// Fail, the same failure, all green, all green.
const FOUR_NIGHTS = nights([
  ['failed', 'passed'],
  ['failed', 'passed'],
  ['passed', 'passed'],
  ['passed', 'passed'],
]);

describe('notify-on', () => {
  it.each<[NotifyOn, (string | undefined)[]]>([
    ['change', ['1 new failure(s)', undefined, '1 fixed', undefined]],
    ['failure', ['1 failed', '1 failed', undefined, undefined]],
    ['always', ['notify-on is always', 'notify-on is always', 'notify-on is always', 'notify-on is always']],
    ['never', [undefined, undefined, undefined, undefined]],
  ])('%s: four nights send as the rule says', (notifyOn, reasons) => {
    expect(FOUR_NIGHTS.map(({ comparison, failed }) => notifyReason(notifyOn, comparison, failed))).toEqual(
      reasons,
    );
  });

  it('change: a case that turns flaky sends once; flaky again the next night, it does not', () => {
    const reasons = nights([['passed'], ['flaky'], ['flaky'], ['passed'], ['flaky']]).map(
      ({ comparison, failed }) => notifyReason('change', comparison, failed),
    );
    expect(reasons).toEqual([undefined, '1 newly flaky', undefined, undefined, '1 newly flaky']);
  });

  it('change: a case that flips into flaky sends once, and not while it keeps flipping', () => {
    // P F P F: its failures form two streaks on night 4, which makes it flaky; P F P F F stays so.
    const reasons = nights([['passed'], ['failed'], ['passed'], ['failed'], ['failed']]).map(
      ({ comparison, failed }) => notifyReason('change', comparison, failed),
    );
    expect(reasons).toEqual([undefined, '1 new failure(s)', '1 fixed', '1 newly flaky', undefined]);
  });
});
