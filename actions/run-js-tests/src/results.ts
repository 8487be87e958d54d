/** How a platform's test counts read in a summary and a failure; the counts are the client's (`jsTestCounts`). */
import type { JsTestCounts } from '@sauce-actions/api';

export type TestCounts = JsTestCounts;

export function countsText(value: TestCounts | undefined): string | undefined {
  if (!value) return undefined;
  return value.failed > 0
    ? `${value.failed} of ${value.total} tests failed`
    : `${value.passed} of ${value.total} tests passed`;
}
