/**
 * What the test actions hand the engine of their history inputs: no comparison for a shard, the
 * expired entries warned about, the cases quarantined with `mode: skip` left out of the plan and
 * of what a report expects, and an entry that matches nothing refused.
 */
import { describe, expect, it } from 'vitest';
import { NO_HISTORY, type HistoryInputs } from '../../../src/inputs/history-inputs.ts';
import type { QuarantineEntry } from '../../../src/inputs/quarantine-entry.ts';
import { InputError } from '../../../src/step/input-error.ts';
import { recordingLogger } from '../../../src/step/logger.ts';
import { historyOptions, notSkipped, quarantinePlan } from '../../../src/test-run/history/history-options.ts';

const entry = (fields: Partial<QuarantineEntry> & { case: string }): QuarantineEntry => ({
  reason: 'tracked in #12',
  expires: '2026-12-31',
  mode: 'run',
  line: 1,
  ...fields,
});

function withQuarantine(entries: QuarantineEntry[], expired: QuarantineEntry[] = []): HistoryInputs {
  return { ...NO_HISTORY, runs: 10, quarantine: { file: '.sauce/quarantine.yml', entries, expired } };
}

const CASES = [
  { item: 'a1', name: 'Login works' },
  { item: 'b2', name: 'Search / filters' },
  { item: 'c3', name: 'Checkout' },
];
const client = {
  automation: { jobs: { list: async () => [], get: async () => ({}) as never, update: async () => ({}) } },
  serviceClock: { fromLocal: (ms: number) => ms + 1 },
};

describe('the history options', () => {
  it('compares nothing in a shard, and warns once of each expired entry wherever it runs', async () => {
    const expired = entry({ case: 'Old', expires: '2026-01-01', line: 4 });
    const logger = recordingLogger();
    const history = withQuarantine([], [expired]);
    expect(
      await historyOptions(history, {
        runsWhat: 'suite S',
        title: 'S',
        client,
        shard: { index: 1, total: 2 },
        logger,
      }),
    ).toBeUndefined();
    const options = await historyOptions(history, { runsWhat: 'suite S', title: 'S', client, logger });
    expect(options).toMatchObject({ runs: 10, failOn: 'any', runsWhat: 'suite S' });
    expect(options?.serviceTime(5)).toBe(6);
    expect(logger.lines('warning')).toHaveLength(2);
    expect(logger.lines('warning')[0]).toContain(
      '"Old" (".sauce/quarantine.yml", line 4) expired on 2026-01-01',
    );
  });

  it('matches items by id, name or glob, and leaves out those quarantined with mode skip', async () => {
    const history = withQuarantine([entry({ case: 'Search *', mode: 'skip' }), entry({ case: 'c3' })]);
    const options = await historyOptions(history, {
      runsWhat: 'suite S',
      title: 'S',
      client,
      logger: recordingLogger(),
    });
    expect(options?.quarantineOf?.({ id: 'c3', name: 'Checkout' })).toEqual({
      reason: 'tracked in #12',
      mode: 'run',
    });
    expect(options?.quarantineOf?.({ id: 'a1', name: 'Login works' })).toBeUndefined();
    const plan = await quarantinePlan(history, CASES, (item) => ({ id: item.item, name: item.name }));
    expect(plan.skipped.map((item) => item.name)).toEqual(['Search / filters']);
    expect(plan.run.map((item) => item.name)).toEqual(['Login works', 'Checkout']);
    expect(plan.reported).toEqual([{ name: 'Search / filters', reason: expect.any(String) }]);
    // A report expects of the shards what they started: the skipped case is not missed, but named.
    const report = await notSkipped({ history }, CASES);
    expect(report.expected.map((item) => item.item)).toEqual(['a1', 'c3']);
    expect(report.skipped).toEqual(plan.reported);
  });

  it('refuses an entry that matches no item, unless only a share of them is known', async () => {
    const history = withQuarantine([entry({ case: 'Renamed case', line: 7 })]);
    const refused = quarantinePlan(history, CASES, (item) => ({ id: item.item, name: item.name }));
    await expect(refused).rejects.toBeInstanceOf(InputError);
    await expect(refused).rejects.toThrow(/"Renamed case" \(line 7\)/);
    const share = await quarantinePlan(
      history,
      CASES.slice(0, 1),
      (item) => ({ id: item.item, name: item.name }),
      false,
    );
    expect(share.run).toHaveLength(1);
  });
});
