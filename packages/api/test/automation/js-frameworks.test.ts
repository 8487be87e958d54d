import { frameworkResult } from '@sauce-actions/emulator/js-results';
import { describe, expect, it } from 'vitest';
import { JS_TEST_FRAMEWORKS, jsReportedTests, jsResultSeconds, jsTestCounts } from '../../src/index.ts';

/**
 * The client's record of each JS framework against the emulator's own judge of it: counts,
 * durations and single tests, from results the emulator's pages report.
 */
describe('framework results', () => {
  it.each(JS_TEST_FRAMEWORKS.filter((f) => f !== 'jasmine'))('counts the tests of %s', (framework) => {
    expect(jsTestCounts(framework, frameworkResult(framework, true))).toEqual({
      passed: 3,
      failed: 0,
      total: 3,
    });
    expect(jsTestCounts(framework, frameworkResult(framework, false))).toEqual({
      passed: 2,
      failed: 1,
      total: 3,
    });
    expect(jsResultSeconds(framework, frameworkResult(framework, true))).toBeCloseTo(0.12);
  });

  it('counts jasmine specs through nested suites, and says nothing without specs', () => {
    const report = {
      passed: false,
      durationSec: 1.5,
      suites: [
        {
          description: 'cart',
          specs: [
            { description: 'adds', passed: true, durationSec: 0.1 },
            { description: 'removes', passed: false },
          ],
          suites: [{ description: 'totals', specs: [{ description: 'sums', passed: true }] }],
        },
      ],
    };
    expect(jsTestCounts('jasmine', report)).toEqual({ passed: 2, failed: 1, total: 3 });
    expect(jsReportedTests('jasmine', report)?.map((t) => [t.name, t.passed])).toEqual([
      ['cart adds', true],
      ['cart removes', false],
      ['cart totals sums', true],
    ]);
    expect(jsResultSeconds('jasmine', report)).toBe(1.5);
    expect(jsTestCounts('jasmine', frameworkResult('jasmine', true))).toBeUndefined();
  });

  it('lists the tests of the custom framework with messages and durations', () => {
    expect(jsReportedTests('custom', frameworkResult('custom', false))).toEqual([
      { name: 'test 1', passed: true, message: 'passed', durationSeconds: 0.04 },
      { name: 'test 2', passed: true, message: 'passed', durationSeconds: 0.04 },
      { name: 'test 3', passed: false, message: 'expected true, got false', durationSeconds: 0.04 },
    ]);
    expect(jsReportedTests('qunit', frameworkResult('qunit', false))).toBeUndefined();
    expect(jsReportedTests('custom', null)).toBeUndefined();
  });

  it('fills a missing count from the others and ignores junk', () => {
    expect(jsTestCounts('qunit', { passed: 4, total: 5 })).toEqual({ passed: 4, failed: 1, total: 5 });
    expect(jsTestCounts('mocha', { failures: 0, tests: 2 })).toEqual({ passed: 2, failed: 0, total: 2 });
    expect(jsTestCounts('qunit', { passed: 'x' })).toBeUndefined();
    expect(jsTestCounts('custom', 'oops')).toBeUndefined();
  });
});
