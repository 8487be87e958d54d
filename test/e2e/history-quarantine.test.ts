/**
 * End to end: what fails a night. With `fail-on: new` a night whose only failures were failing
 * already passes, and one with a new failure fails; a case quarantined with `mode: run` is run and
 * reported in its own section, skipped in the JUnit report, and never fails the step; one with
 * `mode: skip` is never started (the emulator's journal shows no run of it); an expired entry is
 * ignored with a warning naming it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { defaultSeed } from '@sauce-actions/emulator';
import { describe, expect, it } from 'vitest';
import { classesOf, dayFromNow, historyLab, type Outcome, type Step } from './support/history.ts';

const lab = historyLab();

const caseId = (name: string): string =>
  defaultSeed().authoring.testCases?.find((testCase) => testCase.name === name)?.id ?? '';

async function night(
  number: number,
  outcomes: Record<string, Outcome>,
  inputs: Record<string, string> = {},
): Promise<Step> {
  await lab.script(outcomes, 1);
  return lab.suiteRun({ number }, { retries: '1', ...inputs });
}

const warnings = (step: Step) => step.deps.logger.lines('warning');

describe('fail-on and the quarantine, night after night', () => {
  it('fail-on new: still failing cases do not fail the night, a new failure does', async () => {
    const first = await night(1, { 'Case 03': 'failed' }, { 'fail-on': 'new' });
    expect(classesOf(first.results)['Case 03']).toBe('new');
    expect(first.result.failure?.kind).toBe('tests-failed');

    const second = await night(2, { 'Case 03': 'failed' }, { 'fail-on': 'new' });
    expect(classesOf(second.results)['Case 03']).toBe('still-failing');
    expect(second.result.outputs).toMatchObject({ failed: 1, 'new-failures': 0, 'still-failing': 1 });
    expect(second.result.failure).toBeUndefined();
    expect(second.result.annotations.filter((a) => a.level === 'error')).toEqual([]);

    const third = await night(3, { 'Case 03': 'failed', 'Case 10': 'failed' }, { 'fail-on': 'new' });
    expect(classesOf(third.results)).toMatchObject({ 'Case 03': 'still-failing', 'Case 10': 'new' });
    expect(third.result.failure?.kind).toBe('tests-failed');
    // The failure counts both failed jobs, and says which one is not held against the step.
    expect(third.result.failure?.message).toMatch(/^2 of 12 job\(s\) failed in build /);
    expect(third.result.failure?.message).toMatch(
      / Not held against the step: "Case 03" \(still failing, and fail-on is new\)\.$/,
    );
  });

  it('mode run: a night where only the quarantined case fails passes, its case skipped in JUnit', async () => {
    const file = await lab.writeQuarantine(
      `- { case: "Case 05", reason: "tracked in #31", expires: ${dayFromNow(30)}, mode: run }\n`,
    );
    const step = await night(
      4,
      { 'Case 03': 'passed', 'Case 05': 'failed' },
      { 'quarantine-file': file, 'junit-file': 'junit.xml' },
    );
    expect(classesOf(step.results)).toMatchObject({ 'Case 03': 'fixed', 'Case 05': 'quarantined' });
    expect(step.result.outputs).toMatchObject({ failed: 1, quarantined: 1, 'new-failures': 0 });
    expect(step.result.failure).toBeUndefined();
    const quarantined = step.results.history?.items.find((item) => item.name === 'Case 05');
    expect(quarantined).toMatchObject({
      outcome: 'failed',
      quarantine: { reason: 'tracked in #31', mode: 'run' },
    });
    expect(step.summary).toContain(
      '<h4>Quarantined (1)</h4>\n<ul>\n<li><strong>Case 05</strong>: failed; quarantined: tracked in #31</li>',
    );
    // Skipped with its reason, neither failed nor flaky: no attempt of it reads as passed on a retry.
    const junit = await readFile(path.join(lab.workspace(), 'junit.xml'), 'utf8');
    const case05 = /<testcase name="Case 05"[^>]*>[\s\S]*?<\/testcase>/.exec(junit)?.[0] ?? '';
    expect(case05).toContain('<skipped message="quarantined (failed): tracked in #31"/>');
    expect(case05).not.toMatch(/<(failure|error|flakyFailure|flakyError|rerunFailure|rerunError)\b/);
    expect(junit).toMatch(/<testsuite name="Regression"[^>]* failures="0" errors="0" skipped="1"/);
  });

  it('mode skip: the case is never started; an expired entry is ignored with a warning', async () => {
    const file = await lab.writeQuarantine(
      [
        `- { case: "Case 09", reason: "tracked in #32", expires: ${dayFromNow(30)}, mode: skip }`,
        '- { case: "Case 11", reason: "tracked in #8", expires: 2000-01-01, mode: run }',
        '',
      ].join('\n'),
    );
    const step = await night(5, { 'Case 11': 'failed' }, { 'quarantine-file': file });
    const case09 = caseId('Case 09');
    expect(case09).not.toBe('');
    const runs = step.requests
      .filter((entry) => entry.method === 'POST')
      .map((entry) => entry.path)
      .filter((route) => /\/test(cases|suites)\/[^/]+\/run$/.test(route));
    // The other cases run one by one, Case 07 and Case 11 twice (each failed, and was tried
    // again), Case 09 never.
    expect(runs).toHaveLength(13);
    expect(runs.filter((route) => route.includes(case09))).toEqual([]);
    expect(step.deps.logger.lines('info')).toContain('Quarantined with mode skip, not started: Case 09.');
    expect(Object.keys(classesOf(step.results))).not.toContain('Case 09');
    expect(step.result.outputs).toMatchObject({ total: 11 });
    // Not started, yet named where people look: the summary, and the results file with its reason.
    expect(step.summary).toContain(
      '<h4>Quarantined, not started (mode: skip) (1)</h4>\n<ul>\n<li><strong>Case 09</strong>: tracked in #32</li>',
    );
    expect(step.results.history?.skipped).toEqual([{ name: 'Case 09', reason: 'tracked in #32' }]);
    // The expired entry counts for nothing: Case 11 is a new failure, and fails the night.
    expect(warnings(step).some((line) => line.includes('Case 11') && /expired|2000-01-01/.test(line))).toBe(
      true,
    );
    expect(classesOf(step.results)['Case 11']).toBe('new');
    expect(step.result.failure?.kind).toBe('tests-failed');
  });
});
