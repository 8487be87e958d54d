/**
 * What each framework's result says about single tests: counts, duration and, where the framework
 * lists them, the tests themselves. Pass or fail of a platform is `jsTestPassed`'s call, not this.
 */
import type { JsTestFramework } from '@sauce-actions/api';

export interface TestCounts {
  passed: number;
  failed: number;
  total: number;
}

interface ReportedTest {
  name: string;
  passed: boolean;
  message?: string;
  durationSeconds?: number;
}

type Fields = Record<string, unknown>;

function fields(result: unknown): Fields | undefined {
  return result !== null && typeof result === 'object' && !Array.isArray(result)
    ? (result as Fields)
    : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function counts(passed: unknown, failed: unknown, total: unknown): TestCounts | undefined {
  const p = count(passed);
  const f = count(failed);
  const t = count(total);
  if (p === undefined && f === undefined) return undefined;
  const sum = (p ?? 0) + (f ?? 0);
  const all = t ?? sum;
  return { passed: p ?? Math.max(all - (f ?? 0), 0), failed: f ?? Math.max(all - (p ?? 0), 0), total: all };
}

/** Passed, failed and total tests as the framework reports them; undefined when it does not say. */
export function testCounts(framework: JsTestFramework, result: unknown): TestCounts | undefined {
  const r = fields(result);
  if (!r) return undefined;
  switch (framework) {
    case 'qunit':
    case 'YUI Test':
    case 'custom':
      return counts(r.passed, r.failed, r.total);
    case 'mocha':
      return counts(r.passes, r.failures, r.tests);
    case 'jasmine': {
      const specs = jasmineSpecs(r);
      if (specs.length === 0) return undefined;
      const passed = specs.filter((spec) => spec.passed).length;
      return { passed, failed: specs.length - passed, total: specs.length };
    }
  }
}

/** Single tests where the framework lists them (custom's `tests`, jasmine's specs); else undefined. */
export function reportedTests(framework: JsTestFramework, result: unknown): ReportedTest[] | undefined {
  const r = fields(result);
  if (!r) return undefined;
  if (framework === 'custom' && Array.isArray(r.tests)) {
    return r.tests.flatMap((raw, index): ReportedTest[] => {
      const test = fields(raw);
      if (!test) return [];
      const ms = count(test.duration);
      return [
        {
          name: typeof test.name === 'string' && test.name !== '' ? test.name : `test ${index + 1}`,
          passed: test.result === true,
          ...(typeof test.message === 'string' && test.message !== '' ? { message: test.message } : {}),
          // The custom framework's durations are milliseconds, like the page's own total.
          ...(ms !== undefined ? { durationSeconds: ms / 1000 } : {}),
        },
      ];
    });
  }
  if (framework === 'jasmine') {
    const specs = jasmineSpecs(r);
    return specs.length > 0 ? specs : undefined;
  }
  return undefined;
}

/** How long the page's tests ran, in seconds, in whatever unit the framework uses. */
export function resultDurationSeconds(framework: JsTestFramework, result: unknown): number | undefined {
  const r = fields(result);
  if (!r) return undefined;
  if (framework === 'jasmine') return count(r.durationSec);
  const ms = count(framework === 'qunit' ? r.runtime : r.duration);
  return ms === undefined ? undefined : ms / 1000;
}

/** Specs of a jasmine report, nested suites flattened, named by their suites' descriptions. */
function jasmineSpecs(report: Fields): ReportedTest[] {
  const out: ReportedTest[] = [];
  const walk = (suites: unknown, path: string[]): void => {
    if (!Array.isArray(suites)) return;
    for (const raw of suites) {
      const suite = fields(raw);
      if (!suite) continue;
      const here = typeof suite.description === 'string' ? [...path, suite.description] : path;
      if (Array.isArray(suite.specs)) {
        for (const rawSpec of suite.specs) {
          const spec = fields(rawSpec);
          if (!spec) continue;
          const seconds = count(spec.durationSec);
          out.push({
            name: [...here, typeof spec.description === 'string' ? spec.description : 'spec'].join(' '),
            passed: spec.passed === true,
            ...(seconds !== undefined ? { durationSeconds: seconds } : {}),
          });
        }
      }
      walk(suite.suites, here);
    }
  };
  walk(report.suites, []);
  return out;
}

export function countsText(value: TestCounts | undefined): string | undefined {
  if (!value) return undefined;
  return value.failed > 0
    ? `${value.failed} of ${value.total} tests failed`
    : `${value.passed} of ${value.total} tests passed`;
}
