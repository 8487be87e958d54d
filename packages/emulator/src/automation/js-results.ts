/** Results of JS unit tests in each framework's own shape, as the service reports them. */

/** Three tests; a failing page fails one of them. */
export function frameworkResult(framework: string, passes: boolean): Record<string, unknown> {
  const total = 3;
  const failed = passes ? 0 : 1;
  const passed = total - failed;
  const durationMs = 120;
  switch (framework) {
    case 'jasmine':
      return {
        passed: passes,
        durationSec: durationMs / 1000,
        suites: [{ description: 'page', passed: passes, durationSec: durationMs / 1000, specs: [] }],
      };
    case 'qunit':
      return { passed, failed, total, runtime: durationMs };
    case 'YUI Test':
      return { passed, failed, total, ignored: 0, duration: durationMs, name: 'page', type: 'report' };
    case 'mocha':
      return {
        passes: passed,
        failures: failed,
        tests: total,
        pending: 0,
        duration: durationMs,
        reports: [],
      };
    default:
      // custom: window.global_test_results as the page sets it.
      return {
        passed,
        failed,
        total,
        duration: durationMs,
        tests: Array.from({ length: total }, (_, index) => ({
          name: `test ${index + 1}`,
          result: index >= passed ? false : true,
          message: index >= passed ? 'expected true, got false' : 'passed',
          duration: durationMs / total,
        })),
      };
  }
}
