/**
 * The run whose message `docs/notifications.md` shows in each format: a night of 12 cases on
 * `main`, compared with the night before, with a new failure, a fixed case, a newly flaky one and
 * one still failing. The docs' samples are these payloads exactly (`test/notification-docs.test.ts`).
 */
import { classifyItems, type CurrentItem } from '../../packages/action-kit/src/test-run/history/classes.ts';
import type { Comparison } from '../../packages/action-kit/src/test-run/history/comparison.ts';
import { itemKey, type RunRecord } from '../../packages/action-kit/src/test-run/history/run-record.ts';
import { runMessageJson } from '../../packages/action-kit/src/test-run/notify/json.ts';
import { runMessage } from '../../packages/action-kit/src/test-run/notify/message.ts';
import { slackPayload } from '../../packages/action-kit/src/test-run/notify/slack.ts';
import { teamsMessage } from '../../packages/action-kit/src/test-run/notify/teams.ts';

const RUNS = 'https://github.com/acme/shop/actions/runs';
const job = (n: number): string => `https://app.saucelabs.com/tests/${String(n).padStart(32, '0')}`;

/** How each case came out the night before, and tonight; the others passed both nights. */
const NIGHTS: Record<string, [RunRecord['items'][string], CurrentItem['outcome']]> = {
  'Checkout with a saved card': ['passed', 'failed'],
  'Search filters': ['failed', 'passed'],
  'Login with SSO': ['passed', 'flaky'],
  'Refund a partial order': ['failed', 'failed'],
};

export function sampleComparison(): Comparison {
  const names = [...Object.keys(NIGHTS), ...Array.from({ length: 8 }, (_, n) => `Case ${n + 1}`)];
  const before: RunRecord = {
    series: 'sample',
    branch: 'main',
    pullRequest: false,
    run: { number: '41', url: `${RUNS}/41` },
    at: 0,
    builds: ['Nightly #41'],
    items: Object.fromEntries(names.map((name) => [itemKey(name), NIGHTS[name]?.[0] ?? 'passed'])),
  };
  const current: CurrentItem[] = names.map((name, at) => ({
    item: name,
    name,
    outcome: NIGHTS[name]?.[1] ?? 'passed',
    url: job(at + 1),
  }));
  return {
    series: { token: 'sample', defaultBranch: 'main', ofDefaultBranch: true },
    classification: classifyItems(current, [before]),
    compared: [{ ...before, anchor: 'anchor' }],
    failing: [],
    requests: 2,
  };
}

/** The sample run's message in each format, as it is posted. */
export function samplePayloads(): Record<'slack' | 'teams' | 'json', unknown> {
  const message = runMessage(sampleComparison(), {
    run: { name: 'Regression', number: '42', attempt: '1', url: `${RUNS}/42` },
    repository: 'https://github.com/acme/shop',
    branch: 'main',
    commit: '4f2c9e1b7a3d5f60718293a4b5c6d7e8f9012345',
    reportUrl: `${RUNS}/42`,
    jobUrlOf: (item) => item.url,
  });
  return { slack: slackPayload(message), teams: teamsMessage(message), json: runMessageJson(message) };
}
