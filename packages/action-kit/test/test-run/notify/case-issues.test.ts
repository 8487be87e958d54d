/** The issues `issues` asks for: which cases, at most 20 writes, markers that find them, names escaped. */
import { describe, expect, it } from 'vitest';
import { MAX_ISSUE_WRITES } from '../../../src/reporting/issue-filing.ts';
import { caseIssues, type CaseIssueOptions } from '../../../src/test-run/notify/case-issues.ts';
import { FACTS, HOSTILE_NAMES, night } from './fixtures.ts';

const OPTIONS: CaseIssueOptions = {
  issues: 'both',
  runsWhat: 'suite Nightly',
  title: 'Nightly',
  inPullRequest: false,
};

/** Of `night(40)`: 10 new (every 4th, but the flaky ones), 4 flaky (every 10th). */
const counts = (issues: ReturnType<typeof caseIssues>) => {
  const titles = [...(issues?.cases ?? []).map((issue) => issue.title)];
  return {
    new: titles.filter((title) => title.startsWith('New failure:')).length,
    flaky: titles.filter((title) => title.startsWith('Flaky:')).length,
    left: issues?.left.length ?? 0,
  };
};

describe('which cases get an issue', () => {
  const comparison = night(40);
  const { new: news, flaky } = comparison.classification.counts;

  it.each<[string, Partial<CaseIssueOptions>, { new: number; flaky: number; left: number }]>([
    ['issues: new', { issues: 'new' }, { new: news, flaky: 0, left: 0 }],
    ['issues: flaky', { issues: 'flaky' }, { new: 0, flaky, left: 0 }],
    ['issues: both', { issues: 'both' }, { new: news, flaky, left: 0 }],
    [
      'issues: both, from a pull request',
      { issues: 'both', inPullRequest: true },
      { new: 0, flaky, left: 0 },
    ],
  ])('%s', (_, options, expected) => {
    expect(counts(caseIssues(comparison, FACTS, { ...OPTIONS, ...options }))).toEqual(expected);
  });

  it('none for issues: none, and none when no case needs one', () => {
    expect(caseIssues(comparison, FACTS, { ...OPTIONS, issues: 'none' })).toBeUndefined();
    expect(caseIssues(night(40), FACTS, { ...OPTIONS, issues: 'new', inPullRequest: true })).toBeUndefined();
  });

  it('writes 20 at most, the new failures first, and names the rest', () => {
    const issues = caseIssues(night(200), FACTS, OPTIONS);
    expect(issues?.cases).toHaveLength(MAX_ISSUE_WRITES);
    expect(issues?.cases.every((issue) => issue.title.startsWith('New failure:'))).toBe(true);
    const total = night(200).classification.counts;
    expect(issues?.left).toHaveLength(total.new + total.flaky - MAX_ISSUE_WRITES);
    // The 21st is named, not written.
    expect(issues?.left[0]).toBe(
      night(200).classification.items.filter((item) => item.class === 'new')[MAX_ISSUE_WRITES]?.name,
    );
  });
});

describe('an issue', () => {
  it('opens with a marker that is the same run after run, and differs by case and series', () => {
    const first = caseIssues(night(8), FACTS, OPTIONS)!.cases;
    const again = caseIssues(night(8), { ...FACTS, run: { ...FACTS.run, number: '43' } }, OPTIONS)!.cases;
    expect(again.map((issue) => issue.marker)).toEqual(first.map((issue) => issue.marker));
    expect(new Set(first.map((issue) => issue.marker)).size).toBe(first.length);
    // Another series (another repository, workflow or suite) has issues of its own.
    const otherNight = night(8);
    const other = caseIssues(
      { ...otherNight, series: { ...otherNight.series!, token: 'another' } },
      FACTS,
      OPTIONS,
    )!.cases;
    expect(other[0]?.marker).not.toBe(first[0]?.marker);
    for (const issue of first) {
      expect(issue.marker).toMatch(/^<!-- sauce-actions:issue [\w-]+ [\w-]+ -->$/);
      expect(issue.body.startsWith(`${issue.marker}\n`)).toBe(true);
    }
  });

  it('carries the run, the commit, the job and, for a new failure, the last passing run', () => {
    const [issue] = caseIssues(night(1), FACTS, { ...OPTIONS, issues: 'new' })!.cases;
    expect(issue?.body).toContain(
      'failed for the first time in [run \\#42](https://github.com/o/r/actions/runs/42)',
    );
    expect(issue?.body).toContain('on `main` at `0123456789ab`');
    expect(issue?.body).toContain('[job](https://app.saucelabs.com/tests/id-0?a=1&b=2)');
    expect(issue?.body).toContain('[last passing run](https://github.com/o/r/actions/runs/41)');
    expect(issue?.occurrence).toMatch(/^Failed again in \[run \\#42\]/);
  });

  it('holds hostile names as plain text: no mention, link, emphasis or second line', () => {
    const names = (at: number): string => HOSTILE_NAMES[at % HOSTILE_NAMES.length] ?? '';
    const issues = caseIssues(night(HOSTILE_NAMES.length * 4, names), FACTS, OPTIONS)!.cases;
    expect(issues.length).toBeGreaterThan(0);
    for (const issue of issues) {
      const text = `${issue.body}\n${issue.occurrence}`;
      expect(text).not.toMatch(/(^|[^\\])@here/);
      expect(text).not.toContain('<!channel>');
      expect(text).not.toMatch(/(^|[^\\])\]\(http:\/\/evil/);
      expect(text).not.toMatch(/(^|[^\\])\*bold/);
      expect(issue.title).not.toContain('\n');
      expect(issue.name).not.toContain('\n');
    }
  });
});
