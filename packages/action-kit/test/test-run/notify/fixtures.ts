/** Runs to build messages of: a night of `cases` cases, a share of each class, hostile names. */
import { classifyItems, type CurrentItem } from '../../../src/test-run/history/classes.ts';
import type { Comparison } from '../../../src/test-run/history/comparison.ts';
import { itemKey, type RunRecord } from '../../../src/test-run/history/run-record.ts';
import { runMessage, type RunFacts, type RunMessage } from '../../../src/test-run/notify/message.ts';

export const HOSTILE_NAMES = [
  '<!channel>',
  '<@U1>',
  '@here',
  '*bold*',
  '[x](http://evil)',
  '](http://evil)',
  'first\nsecond',
  '::error::x',
  '`code` _it_ ~strike~ # heading > quote & <b>html</b>',
];

export const FACTS: RunFacts = {
  run: { name: 'Nightly', number: '42', attempt: '1', url: 'https://github.com/o/r/actions/runs/42' },
  repository: 'o/r',
  branch: 'main',
  commit: '0123456789abcdef0123456789abcdef01234567',
  reportUrl: 'https://github.com/o/r/actions/runs/42#summary',
  jobUrlOf: (item) => `https://app.saucelabs.com/tests/${encodeURIComponent(item.item)}?a=1&b=2`,
};

/**
 * A night of `cases`: case i is new (i % 4 === 0), still failing (1), fixed (2) or passed (3),
 * every 10th flaky now; `names(i)` names them.
 */
export function night(cases: number, names: (at: number) => string = (at) => `case ${at}`): Comparison {
  const before: RunRecord = {
    series: 's',
    branch: 'main',
    pullRequest: false,
    run: { number: '41', url: 'https://github.com/o/r/actions/runs/41' },
    at: 1,
    builds: ['Nightly #41'],
    items: {},
  };
  const current: CurrentItem[] = [];
  for (let at = 0; at < cases; at += 1) {
    const kind = at % 4;
    const id = `id-${at}`;
    before.items[itemKey(id)] = kind === 0 || kind === 3 ? 'passed' : 'failed';
    const outcome = at % 10 === 9 ? 'flaky' : kind <= 1 ? 'failed' : 'passed';
    current.push({ item: id, name: names(at), outcome });
  }
  return {
    series: { token: 't', defaultBranch: 'main', ofDefaultBranch: true },
    classification: classifyItems(current, [before]),
    compared: [{ ...before, anchor: 'a1' }],
    failing: [],
    requests: 1,
  };
}

export function nightMessage(cases: number, names?: (at: number) => string, facts = FACTS): RunMessage {
  return runMessage(night(cases, names), facts);
}

/** A message whose every name (and run name) is hostile. */
export function hostileMessage(): RunMessage {
  const names = (at: number): string => HOSTILE_NAMES[at % HOSTILE_NAMES.length] ?? '';
  return runMessage(night(HOSTILE_NAMES.length * 4, names), {
    ...FACTS,
    run: { ...FACTS.run, name: '<!channel> *Nightly* [x](http://evil)' },
    branch: '<@U1>',
  });
}
