import { describe, expect, it } from 'vitest';
import {
  jsTestFinished,
  jsTestJobId,
  jsTestPassed,
  jsTestsFinished,
  type JsTestStatus,
} from '../../src/index.ts';

const JOB_ID = '0123456789abcdef0123456789abcdef';

function entry(jobId: string): JsTestStatus {
  return {
    id: 'j1',
    job_id: jobId,
    platform: ['Linux', 'chrome', '120'],
    url: 'http://127.0.0.1/',
    result: null,
  };
}

describe('jsTestPassed', () => {
  it('jasmine passes only when passed is true', () => {
    expect(jsTestPassed('jasmine', { passed: true })).toBe(true);
    expect(jsTestPassed('jasmine', { passed: false })).toBe(false);
    expect(jsTestPassed('jasmine', { passed: 1 })).toBe(false);
  });

  it('qunit and YUI Test pass when every test passed', () => {
    for (const framework of ['qunit', 'YUI Test'] as const) {
      expect(jsTestPassed(framework, { passed: 4, failed: 0, total: 4 })).toBe(true);
      expect(jsTestPassed(framework, { passed: 3, failed: 1, total: 4 })).toBe(false);
      expect(jsTestPassed(framework, { total: 4 })).toBe(false);
    }
  });

  it('mocha passes with no failures', () => {
    expect(jsTestPassed('mocha', { passes: 5, failures: 0 })).toBe(true);
    expect(jsTestPassed('mocha', { passes: 4, failures: 1 })).toBe(false);
    expect(jsTestPassed('mocha', { passes: 4 })).toBe(false);
  });

  it('custom passes when failed is 0', () => {
    expect(jsTestPassed('custom', { passed: 2, failed: 0, total: 2, duration: 10, tests: [] })).toBe(true);
    expect(jsTestPassed('custom', { passed: 1, failed: 1, total: 2 })).toBe(false);
  });

  it('a missing result or unknown framework fails', () => {
    for (const framework of ['jasmine', 'qunit', 'YUI Test', 'mocha', 'custom'] as const) {
      expect(jsTestPassed(framework, null)).toBe(false);
      expect(jsTestPassed(framework, undefined)).toBe(false);
      expect(jsTestPassed(framework, 'Test exceeded maximum duration')).toBe(false);
    }
    expect(jsTestPassed('tape', { failed: 0, failures: 0 })).toBe(false);
  });
});

describe('jsTestJobId', () => {
  it('is the 32-character job id once assigned, none before', () => {
    expect(jsTestJobId({ job_id: 'a'.repeat(32) })).toBe('a'.repeat(32));
    expect(jsTestJobId({ job_id: 'job not ready' })).toBeUndefined();
    expect(jsTestJobId({ job_id: 'a'.repeat(31) })).toBeUndefined();
  });
});

describe('jsTestFinished', () => {
  it('needs the answer completed and a 32-character job id', () => {
    expect(jsTestFinished(entry(JOB_ID), true)).toBe(true);
    expect(jsTestFinished(entry(JOB_ID), false)).toBe(false);
    expect(jsTestFinished(entry('job not ready'), true)).toBe(false);
    expect(jsTestFinished(entry(`${JOB_ID}0`), true)).toBe(false);
  });

  it('jsTestsFinished needs every platform finished', () => {
    expect(jsTestsFinished({ completed: true, 'js tests': [entry(JOB_ID), entry(JOB_ID)] })).toBe(true);
    expect(jsTestsFinished({ completed: true, 'js tests': [entry(JOB_ID), entry('job not ready')] })).toBe(
      false,
    );
    expect(jsTestsFinished({ completed: false, 'js tests': [entry(JOB_ID)] })).toBe(false);
  });
});
