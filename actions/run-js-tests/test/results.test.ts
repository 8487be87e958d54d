import { frameworkResult } from '@sauce-actions/emulator/js-results';
import { describe, expect, it } from 'vitest';
import { FRAMEWORKS } from '../src/inputs.ts';
import { countsText, reportedTests, resultDurationSeconds, testCounts } from '../src/results.ts';

describe('framework results', () => {
  it.each(FRAMEWORKS.filter((f) => f !== 'jasmine'))('counts the tests of %s', (framework) => {
    expect(testCounts(framework, frameworkResult(framework, true))).toEqual({
      passed: 3,
      failed: 0,
      total: 3,
    });
    expect(testCounts(framework, frameworkResult(framework, false))).toEqual({
      passed: 2,
      failed: 1,
      total: 3,
    });
    expect(resultDurationSeconds(framework, frameworkResult(framework, true))).toBeCloseTo(0.12);
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
    expect(testCounts('jasmine', report)).toEqual({ passed: 2, failed: 1, total: 3 });
    expect(reportedTests('jasmine', report)?.map((t) => [t.name, t.passed])).toEqual([
      ['cart adds', true],
      ['cart removes', false],
      ['cart totals sums', true],
    ]);
    expect(resultDurationSeconds('jasmine', report)).toBe(1.5);
    expect(testCounts('jasmine', frameworkResult('jasmine', true))).toBeUndefined();
  });

  it('lists the tests of the custom framework with messages and durations', () => {
    expect(reportedTests('custom', frameworkResult('custom', false))).toEqual([
      { name: 'test 1', passed: true, message: 'passed', durationSeconds: 0.04 },
      { name: 'test 2', passed: true, message: 'passed', durationSeconds: 0.04 },
      { name: 'test 3', passed: false, message: 'expected true, got false', durationSeconds: 0.04 },
    ]);
    expect(reportedTests('qunit', frameworkResult('qunit', false))).toBeUndefined();
    expect(reportedTests('custom', null)).toBeUndefined();
  });

  it('fills a missing count from the others and ignores junk', () => {
    expect(testCounts('qunit', { passed: 4, total: 5 })).toEqual({ passed: 4, failed: 1, total: 5 });
    expect(testCounts('mocha', { failures: 0, tests: 2 })).toEqual({ passed: 2, failed: 0, total: 2 });
    expect(testCounts('qunit', { passed: 'x' })).toBeUndefined();
    expect(testCounts('custom', 'oops')).toBeUndefined();
    expect(countsText({ passed: 2, failed: 1, total: 3 })).toBe('1 of 3 tests failed');
    expect(countsText({ passed: 3, failed: 0, total: 3 })).toBe('3 of 3 tests passed');
  });
});
