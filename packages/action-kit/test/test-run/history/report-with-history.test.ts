/**
 * The JUnit report of a run compared with its history: a quarantined case is skipped with its
 * reason, and nothing of its attempts is left to read as a failure or as a pass on a retry.
 */
import { describe, expect, it } from 'vitest';
import type { ResultsReport } from '../../../src/test-run/adapter.ts';
import { classifyItems } from '../../../src/test-run/history/classes.ts';
import type { Comparison } from '../../../src/test-run/history/comparison.ts';
import { reportWithHistory } from '../../../src/test-run/history/report-with-history.ts';
import { renderJUnit, type JUnitTestCase } from '../../../src/test-run/junit.ts';

const RERUN = { kind: 'failure', message: 'attempt 1: the job failed' } as const;

function report(cases: JUnitTestCase[]): ResultsReport<Record<string, never>> {
  return {
    outputs: () => ({}),
    summary: '# Results',
    resultsData: {},
    junitSuites: () => [{ name: 'Nightly', cases }],
  };
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
});
