/**
 * The classes of an item against earlier runs, and which items fail the step: tables of rows, each
 * an item's outcomes in the earlier runs (oldest to newest), its outcome now and what it gets.
 * P passed, F failed, ~ flaky (failed, then passed on a retry), - a run that did not run it.
 */
import { describe, expect, it } from 'vitest';
import {
  classifyItems,
  failsStep,
  HISTORY_CLASSES,
  type ClassifiedItem,
  type CurrentItem,
  type HistoryClass,
} from '../../../src/test-run/history/classes.ts';
import { itemKey, type ItemOutcome, type RunRecord } from '../../../src/test-run/history/run-record.ts';

const OUTCOMES: Record<string, ItemOutcome> = { P: 'passed', F: 'failed', '~': 'flaky' };

function outcome(letter: string): ItemOutcome {
  const found = OUTCOMES[letter];
  if (found === undefined) throw new Error(`no outcome ${letter}`);
  return found;
}

/** The earlier runs, newest first, from each item's past (oldest to newest); run numbers count from 1. */
function history(pasts: Record<string, string>): RunRecord[] {
  const columns = Object.entries(pasts).map(
    ([item, past]) => [item, past.split(' ').filter(Boolean)] as const,
  );
  const runs = Math.max(0, ...columns.map(([, past]) => past.length));
  const records: RunRecord[] = [];
  for (let index = 0; index < runs; index++) {
    const items: Record<string, ItemOutcome> = {};
    for (const [item, past] of columns) {
      const letter = past[index] ?? '-';
      if (letter !== '-') items[itemKey(item)] = outcome(letter);
    }
    const number = String(index + 1);
    records.unshift({
      series: 'nightly',
      branch: 'main',
      pullRequest: false,
      run: { number, attempt: '1', url: `https://ci.example/runs/${number}` },
      at: 1_700_000_000_000 + index * 86_400_000,
      builds: [`nightly ${number}`],
      items,
    });
  }
  return records;
}

const quarantine = { reason: 'timing on emulators', mode: 'run' } as const;

/** The one item `checkout` after `past`, with its outcome `now`. */
function classify(past: string, now: string, quarantined?: CurrentItem['quarantined']): ClassifiedItem {
  const current: CurrentItem = {
    item: 'case-checkout',
    name: 'checkout',
    outcome: outcome(now),
    ...(quarantined !== undefined ? { quarantined } : {}),
  };
  const [item] = classifyItems([current], history({ 'case-checkout': past })).items;
  if (item === undefined) throw new Error('no item classified');
  return item;
}

describe('the class of an item', () => {
  const rows: [string, string, string, HistoryClass][] = [
    ['a first run: a failure is new', '', 'F', 'new'],
    ['a first run: a retried failure is flaky', '', '~', 'flaky'],
    ['night 1 of a case passes: passed', '', 'P', 'passed'],
    ['night 2 fails: new', 'P', 'F', 'new'],
    ['night 3 fails again: still failing', 'P F', 'F', 'still-failing'],
    ['night 4 passes: fixed (P F F P is one streak)', 'P F F', 'P', 'fixed'],
    ['passed now and then', 'P P', 'P', 'passed'],
    ['passed now, failed long ago but passed then', 'F P P', 'P', 'passed'],
    ['failed now, flaky then: a flaky run counts as a pass, so new', '~', 'F', 'new'],
    ['passed now, flaky then: passed', '~', 'P', 'passed'],
    ['flaky now, failed then: flaky, not fixed', 'F', '~', 'flaky'],
    ['flaky now, failing for long: flaky, not still failing', 'F F F', '~', 'flaky'],
    ['a case that flips: night 2 fails, new', 'P', 'F', 'new'],
    ['night 3 passes: fixed', 'P F', 'P', 'fixed'],
    ['night 4 fails again: P F P F is two streaks, flaky', 'P F P', 'F', 'flaky'],
    ['and night 5 fails once more: still flaky', 'P F P F', 'F', 'flaky'],
    ['F P F now: flaky', 'F P', 'F', 'flaky'],
    ['F P F P now: flipping, flaky though it passes now', 'F P F', 'P', 'flaky'],
    ['a flaky run between two failures separates them: flaky', 'F ~', 'F', 'flaky'],
    ['failing in every run is one streak: still failing', 'F F F', 'F', 'still-failing'],
    ['added to the suite and failing: never run, new', '- -', 'F', 'new'],
    ['added to the suite and passing: passed', '- -', 'P', 'passed'],
    ['absent from the newest run: compared with the newest that ran it', 'F -', 'F', 'still-failing'],
    ['absent from the newest run, passing now: fixed', 'F - -', 'P', 'fixed'],
    ['absent from the newest run, passed before it: new', 'P -', 'F', 'new'],
    ['a run that did not run it does not break a streak', 'F - F', 'F', 'still-failing'],
  ];
  it.each(rows)('%s', (_name, past, now, expected) => {
    expect(classify(past, now).class).toBe(expected);
  });

  const quarantined: [string, string, string][] = [
    ['failing then and now', 'F F', 'F'],
    ['flaky now', 'P', '~'],
    ['flipping', 'F P', 'F'],
    ['newly failing', 'P', 'F'],
    ['never run', '', 'F'],
    ['passing', 'P', 'P'],
    ['fixed', 'F', 'P'],
  ];
  it.each(quarantined)('a quarantined item is quarantined whatever it did: %s', (_name, past, now) => {
    expect(classify(past, now, quarantine).class).toBe('quarantined');
    expect(classify(past, now, { reason: 'crashes the device', mode: 'skip' }).class).toBe('quarantined');
  });
});

describe('what an item is compared with', () => {
  const rows: [string, string, string, number, number, boolean, string | undefined][] = [
    ['no earlier run', '', 'F', 0, 0, true, undefined],
    ['earlier runs that did not run it', '- - -', 'F', 0, 0, true, undefined],
    ['runs that ran it, failures counted', 'P F - F', 'F', 3, 2, false, '1'],
    ['a flaky run is no failure, and a pass', 'F ~ F', 'F', 3, 2, false, '2'],
    ['the newest pass', 'P P F', 'P', 3, 1, false, '2'],
    ['never passed', 'F F', 'P', 2, 2, false, undefined],
  ];
  it.each(rows)('%s', (_name, past, now, compared, failed, neverRun, lastPassed) => {
    const item = classify(past, now);
    expect(item.comparedRuns).toBe(compared);
    expect(item.failedRuns).toBe(failed);
    expect(item.neverRun).toBe(neverRun);
    expect(item.lastPassed?.number).toBe(lastPassed);
  });

  it('links the last passing run with its address, attempt and builds', () => {
    expect(classify('P F', 'F').lastPassed).toEqual({
      number: '1',
      attempt: '1',
      url: 'https://ci.example/runs/1',
      builds: ['nightly 1'],
    });
  });
});

describe('when a quarantined item is ready to leave', () => {
  const rows: [string, string, string, boolean][] = [
    ['after 5 passing runs', 'P P P P P', 'P', true],
    ['not after 4', 'P P P P', 'P', false],
    ['after 5 passing runs that follow a failure', 'F P P P P P', 'P', true],
    ['not with a failure among the last 5', 'P P F P P P P', 'P', false],
    ['not with a flaky run among the last 5', 'P P ~ P P', 'P', false],
    ['runs that did not run it do not count', 'P P P - P P', 'P', true],
    ['nor count towards the 5', 'P P - P P', 'P', false],
    ['not when it fails now', 'P P P P P', 'F', false],
    ['not when it is flaky now', 'P P P P P', '~', false],
  ];
  it.each(rows)('%s', (_name, past, now, ready) => {
    expect(classify(past, now, quarantine).readyToLeave).toBe(ready);
  });

  it('an item that is not quarantined is never ready to leave', () => {
    expect(classify('P P P P P', 'P').readyToLeave).toBe(false);
  });
});

describe('which items fail the step', () => {
  const rows: [string, string, string, boolean, boolean, boolean][] = [
    // name, past, now, quarantined, fails with `any`, fails with `new`
    ['a new failure', 'P', 'F', false, true, true],
    ['a first run failure', '', 'F', false, true, true],
    ['an item added to the suite, failing', '- -', 'F', false, true, true],
    ['a still failing item', 'F', 'F', false, true, false],
    ['a fixed item', 'F', 'P', false, false, false],
    ['a passing item', 'P', 'P', false, false, false],
    ['an item flaky now', 'P', '~', false, false, false],
    ['an item flaky now that failed then', 'F', '~', false, false, false],
    ['a flipping item that failed now', 'P F P', 'F', false, true, false],
    ['a flipping item that passed now', 'F P F', 'P', false, false, false],
    ['a quarantined new failure', 'P', 'F', true, false, false],
    ['a quarantined still failing item', 'F', 'F', true, false, false],
    ['a quarantined item never run', '', 'F', true, false, false],
  ];
  it.each(rows)('%s', (_name, past, now, isQuarantined, any, onlyNew) => {
    const item = classify(past, now, isQuarantined ? quarantine : undefined);
    expect(failsStep([item], 'any')).toEqual(any ? [item] : []);
    expect(failsStep([item], 'new')).toEqual(onlyNew ? [item] : []);
  });
});

describe('classifyItems', () => {
  const pasts = {
    login: 'P P P',
    search: 'P P P',
    cart: 'P F F',
    pay: 'F P F',
    profile: '- - -',
    legacy: 'F F F',
    share: 'F F F',
  };
  const current: CurrentItem[] = [
    { item: 'login', name: 'Login', outcome: 'passed' },
    { item: 'search', name: 'Search', outcome: 'failed' },
    { item: 'cart', name: 'Cart', outcome: 'passed' },
    { item: 'pay', name: 'Pay', outcome: 'failed' },
    { item: 'profile', name: 'Profile', outcome: 'failed' },
    { item: 'legacy', name: 'Legacy', outcome: 'failed' },
    { item: 'share', name: 'Share', outcome: 'failed', quarantined: quarantine },
  ];
  const result = classifyItems(current, history(pasts));

  it('keeps each item in order with what it came with, and its class', () => {
    expect(result.items.map((item) => [item.name, item.class])).toEqual([
      ['Login', 'passed'],
      ['Search', 'new'],
      ['Cart', 'fixed'],
      ['Pay', 'flaky'],
      ['Profile', 'new'],
      ['Legacy', 'still-failing'],
      ['Share', 'quarantined'],
    ]);
    expect(result.items[6]).toMatchObject(current[6] ?? {});
  });

  it('counts every class, those no item has at 0', () => {
    expect(result.counts).toEqual({
      new: 2,
      'still-failing': 1,
      fixed: 1,
      flaky: 1,
      quarantined: 1,
      passed: 1,
    });
    expect(Object.keys(classifyItems([], []).counts).sort()).toEqual([...HISTORY_CLASSES].sort());
    expect(Object.values(classifyItems([], []).counts)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('says how many earlier runs it compared with', () => {
    expect(result.comparedRuns).toBe(3);
    expect(classifyItems(current, []).comparedRuns).toBe(0);
  });

  it('looks an item up by its key, not by its name', () => {
    const [renamed] = classifyItems(
      [{ item: 'cart', name: 'Basket', outcome: 'failed' }],
      history(pasts),
    ).items;
    expect(renamed?.class).toBe('still-failing');
    const [other] = classifyItems([{ item: 'Cart', name: 'Cart', outcome: 'failed' }], history(pasts)).items;
    expect(other?.neverRun).toBe(true);
  });

  it('with no history, every failure is new and never run', () => {
    const { items } = classifyItems(current.slice(0, 6), []);
    for (const item of items) {
      expect(item.neverRun).toBe(true);
      expect(item.class).toBe(item.outcome === 'failed' ? 'new' : 'passed');
    }
  });
});
