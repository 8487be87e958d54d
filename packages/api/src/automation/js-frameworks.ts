/**
 * What a JS unit test framework's result means, one record per framework: whether the platform
 * passed (as long-lived clients of the interface judge it), its test counts, its single tests
 * where the framework lists them, and how long they ran. Adding a framework is a row here, which
 * `JsTestFramework` and run-js-tests' allowed values are made from, plus its `action.yml` and
 * README lines and the emulator's own judge of it (independent on purpose): run-js-tests'
 * framework test names each of the three when one is missing.
 */
export interface JsTestCounts {
  passed: number;
  failed: number;
  total: number;
}

export interface JsReportedTest {
  name: string;
  passed: boolean;
  message?: string;
  durationSeconds?: number;
}

type Fields = Record<string, unknown>;

interface JsFrameworkRecord {
  /** Whether the page's result passed. */
  passed(result: Fields): boolean;
  /** Passed, failed and total tests as the page reports them; undefined when it does not say. */
  counts(result: Fields): JsTestCounts | undefined;
  /** Its single tests, where the framework lists them. */
  tests?(result: Fields): JsReportedTest[] | undefined;
  /** How long the page's tests ran, in seconds. */
  durationSeconds(result: Fields): number | undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function fields(result: unknown): Fields | undefined {
  return result !== null && typeof result === 'object' && !Array.isArray(result)
    ? (result as Fields)
    : undefined;
}

function counts(passed: unknown, failed: unknown, total: unknown): JsTestCounts | undefined {
  const p = count(passed);
  const f = count(failed);
  const t = count(total);
  if (p === undefined && f === undefined) return undefined;
  const all = t ?? (p ?? 0) + (f ?? 0);
  return { passed: p ?? Math.max(all - (f ?? 0), 0), failed: f ?? Math.max(all - (p ?? 0), 0), total: all };
}

/** A duration field in milliseconds, in seconds. */
const millis = (value: unknown): number | undefined => {
  const ms = count(value);
  return ms === undefined ? undefined : ms / 1000;
};

/** Specs of a jasmine report, nested suites flattened, named by their suites' descriptions. */
function jasmineSpecs(report: Fields): JsReportedTest[] {
  const out: JsReportedTest[] = [];
  const walk = (suites: unknown, path: string[]): void => {
    if (!Array.isArray(suites)) return;
    for (const raw of suites) {
      const suite = fields(raw);
      if (!suite) continue;
      const here = typeof suite.description === 'string' ? [...path, suite.description] : path;
      for (const rawSpec of Array.isArray(suite.specs) ? suite.specs : []) {
        const spec = fields(rawSpec);
        if (!spec) continue;
        const seconds = count(spec.durationSec);
        out.push({
          name: [...here, typeof spec.description === 'string' ? spec.description : 'spec'].join(' '),
          passed: spec.passed === true,
          ...(seconds !== undefined ? { durationSeconds: seconds } : {}),
        });
      }
      walk(suite.suites, here);
    }
  };
  walk(report.suites, []);
  return out;
}

/** The tests of `window.global_test_results` (seed 002): durations in milliseconds, like its total. */
function customTests(result: Fields): JsReportedTest[] | undefined {
  if (!Array.isArray(result.tests)) return undefined;
  return result.tests.flatMap((raw, index): JsReportedTest[] => {
    const test = fields(raw);
    if (!test) return [];
    const seconds = millis(test.duration);
    return [
      {
        name: typeof test.name === 'string' && test.name !== '' ? test.name : `test ${index + 1}`,
        passed: test.result === true,
        ...(typeof test.message === 'string' && test.message !== '' ? { message: test.message } : {}),
        ...(seconds !== undefined ? { durationSeconds: seconds } : {}),
      },
    ];
  });
}

/** QUnit and YUI Test: every test passed. */
const allPassed = (r: Fields): boolean => typeof r.passed === 'number' && r.passed === r.total;

export const JS_FRAMEWORKS = {
  qunit: {
    passed: allPassed,
    counts: (r) => counts(r.passed, r.failed, r.total),
    durationSeconds: (r) => millis(r.runtime),
  },
  jasmine: {
    passed: (r) => r.passed === true,
    counts: (r) => {
      const specs = jasmineSpecs(r);
      if (specs.length === 0) return undefined;
      const passed = specs.filter((spec) => spec.passed).length;
      return { passed, failed: specs.length - passed, total: specs.length };
    },
    tests: (r) => {
      const specs = jasmineSpecs(r);
      return specs.length > 0 ? specs : undefined;
    },
    durationSeconds: (r) => count(r.durationSec),
  },
  'YUI Test': {
    passed: allPassed,
    counts: (r) => counts(r.passed, r.failed, r.total),
    durationSeconds: (r) => millis(r.duration),
  },
  mocha: {
    passed: (r) => r.failures === 0,
    counts: (r) => counts(r.passes, r.failures, r.tests),
    durationSeconds: (r) => millis(r.duration),
  },
  custom: {
    passed: (r) => r.failed === 0,
    counts: (r) => counts(r.passed, r.failed, r.total),
    tests: customTests,
    durationSeconds: (r) => millis(r.duration),
  },
} as const satisfies Record<string, JsFrameworkRecord>;

export type JsTestFramework = keyof typeof JS_FRAMEWORKS;

/** The frameworks the interface accepts, in the table's order. */
export const JS_TEST_FRAMEWORKS = Object.keys(JS_FRAMEWORKS) as JsTestFramework[];

function recordOf(framework: string): JsFrameworkRecord | undefined {
  return Object.hasOwn(JS_FRAMEWORKS, framework)
    ? (JS_FRAMEWORKS[framework as JsTestFramework] as JsFrameworkRecord)
    : undefined;
}

/**
 * Whether a platform's result passed: jasmine `passed`; qunit and YUI Test `passed === total`;
 * mocha `failures === 0`; custom `failed === 0`. A missing result, or an unknown framework, fails.
 */
export function jsTestPassed(framework: JsTestFramework | (string & {}), result: unknown): boolean {
  const r = fields(result);
  return r !== undefined && (recordOf(framework)?.passed(r) ?? false);
}

/** Passed, failed and total tests as the framework reports them; undefined when it does not say. */
export function jsTestCounts(framework: JsTestFramework, result: unknown): JsTestCounts | undefined {
  const r = fields(result);
  return r && recordOf(framework)?.counts(r);
}

/** Single tests where the framework lists them (custom's `tests`, jasmine's specs); else undefined. */
export function jsReportedTests(framework: JsTestFramework, result: unknown): JsReportedTest[] | undefined {
  const r = fields(result);
  return r && recordOf(framework)?.tests?.(r);
}

/** How long the page's tests ran, in seconds, in whatever unit the framework reports. */
export function jsResultSeconds(framework: JsTestFramework, result: unknown): number | undefined {
  const r = fields(result);
  return r && recordOf(framework)?.durationSeconds(r);
}
