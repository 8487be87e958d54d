/**
 * A run's report compared with its history: in the JUnit report a quarantined case is skipped with
 * its reason, and nothing of its attempts is left to read as a failure or as a pass on a retry;
 * the step's failure, when it stays, names the failed items not held against it.
 */
import { describe, expect, it } from 'vitest';
import type { ResultsReport } from '../../../src/test-run/adapter.ts';
import { classifyItems, failsStep, type CurrentItem } from '../../../src/test-run/history/classes.ts';
import type { Comparison } from '../../../src/test-run/history/comparison.ts';
import { reportWithHistory } from '../../../src/test-run/history/report-with-history.ts';
import { itemKey, type RunRecord } from '../../../src/test-run/history/run-record.ts';
import { renderJUnit, type JUnitTestCase } from '../../../src/test-run/junit.ts';

const RERUN = { kind: 'failure', message: 'attempt 1: the job failed' } as const;

function report(cases: JUnitTestCase[] = []): ResultsReport<Record<string, never>> {
  return {
    outputs: () => ({}),
    summary: '# Results',
    resultsData: {},
    junitSuites: () => [{ name: 'Nightly', cases }],
    failure: { kind: 'tests-failed', message: '3 of 3 job(s) failed.' },
  };
}

/** The night before on main, with how each item (by its id) came out. */
function nightBefore(outcomes: Record<string, 'passed' | 'failed'>): RunRecord {
  const items = Object.fromEntries(
    Object.entries(outcomes).map(([item, outcome]) => [itemKey(item), outcome]),
  );
  return { series: 's', branch: 'main', pullRequest: false, run: {}, at: 1, builds: [], items };
}

function comparison(): Comparison {
  const classification = classifyItems(
    [
      { item: 'q', name: 'Quarantined', outcome: 'failed', quarantined: { reason: 'issue 31', mode: 'run' } },
      { item: 'f', name: 'Failing', outcome: 'failed' },
    ],
    [],
  );
  return { classification, compared: [], failing: [], requests: 1 };
}

describe('the JUnit report with a quarantine', () => {
  it('skips a quarantined case that failed every attempt, without its attempts', async () => {
    const failed = { failure: { message: 'the job failed' }, reruns: [RERUN] };
    const junit = await renderJUnit(
      reportWithHistory(
        report([
          { name: 'Quarantined', classname: 'Nightly.chrome', ...failed },
          { name: 'Failing', classname: 'Nightly.chrome', ...failed },
        ]),
        comparison(),
      ).junitSuites(),
    );
    const [quarantined, failing] = [...junit.matchAll(/<testcase [\s\S]*?<\/testcase>/g)].map((m) => m[0]);
    expect(quarantined).toContain('<skipped message="quarantined (failed): issue 31"/>');
    expect(quarantined).not.toMatch(/<(failure|error|flakyFailure|flakyError|rerunFailure|rerunError)\b/);
    // A case not quarantined keeps its failure and its attempts.
    expect(failing).toContain('<failure message="the job failed"');
    expect(failing).toContain('<rerunFailure message="attempt 1: the job failed"');
    expect(junit).toMatch(/<testsuite name="Nightly" tests="2" failures="1" errors="0" skipped="1"/);
  });

  it('names, in the failure it keeps, the failed items that do not fail the step', () => {
    const current: CurrentItem[] = [
      { item: 'n', name: 'Checkout', outcome: 'failed' },
      { item: 's', name: 'Search', outcome: 'failed' },
      { item: 'q', name: 'Login', outcome: 'failed', quarantined: { reason: 'issue 31', mode: 'run' } },
    ];
    const before = nightBefore({ n: 'passed', s: 'failed' });
    const judged = (failOn: 'any' | 'new') => {
      const classification = classifyItems(current, [before]);
      const failing = failsStep(classification.items, failOn);
      return reportWithHistory(report(), { classification, compared: [], failing, requests: 1 }).failure;
    };
    expect(judged('new')?.message).toBe(
      '3 of 3 job(s) failed. Not held against the step: "Search" (still failing, and fail-on is new), "Login" (quarantined).',
    );
    expect(judged('any')?.message).toBe(
      '3 of 3 job(s) failed. Not held against the step: "Login" (quarantined).',
    );
    // Nothing held against the step: no failure.
    current.splice(0, 1);
    expect(judged('new')).toBeUndefined();
  });
});

describe('which failed jobs are annotated as warnings', () => {
  it('judges each job of a case run on several targets by its own class, not by the shared name', () => {
    // Checkout on chrome fails for the first time; on firefox it failed the night before too.
    const current: CurrentItem[] = [
      { item: 'checkout\u0000chrome', name: 'Checkout', outcome: 'failed', url: 'https://jobs/chrome' },
      { item: 'checkout\u0000firefox', name: 'Checkout', outcome: 'failed', url: 'https://jobs/firefox' },
    ];
    const before = nightBefore({ 'checkout\u0000chrome': 'passed', 'checkout\u0000firefox': 'failed' });
    const classification = classifyItems(current, [before]);
    const failing = failsStep(classification.items, 'new');
    const judged = reportWithHistory(report(), { classification, compared: [], failing, requests: 1 });
    const job = (url: string) => ({
      id: url,
      name: 'Checkout',
      platform: '',
      status: 'failed' as const,
      url,
    });
    expect(judged.reportOnly?.(job('https://jobs/chrome'))).toBe(false);
    expect(judged.reportOnly?.(job('https://jobs/firefox'))).toBe(true);
    // A job with no page (an item no step ran) is judged by its name.
    expect(judged.reportOnly?.(job(''))).toBe(true);
  });
});
