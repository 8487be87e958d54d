/** How a JS unit test's result is judged, by framework, as long-lived clients of the interface do. */
import type { JsTestFramework, JsTestStatus, JsTestStatusAnswer } from './types.ts';

/** Job ids are 32 characters; until a job is assigned the service puts a placeholder text there. */
const JOB_ID = /^[0-9a-z]{32}$/i;

/**
 * Whether a platform's result passed: jasmine `passed`; qunit and YUI Test `passed === total`;
 * mocha `failures === 0`; custom `failed === 0`. A missing result, or an unknown framework, fails.
 */
export function jsTestPassed(framework: JsTestFramework | (string & {}), result: unknown): boolean {
  if (result === null || typeof result !== 'object') return false;
  const r = result as Record<string, unknown>;
  switch (framework) {
    case 'jasmine':
      return r.passed === true;
    case 'qunit':
    case 'YUI Test':
      return typeof r.passed === 'number' && r.passed === r.total;
    case 'mocha':
      return r.failures === 0;
    case 'custom':
      return r.failed === 0;
    default:
      return false;
  }
}

/** The job id assigned to a platform's entry; none while it reads `job not ready` (or anything else). */
export function jsTestJobId(entry: Pick<JsTestStatus, 'job_id'>): string | undefined {
  return typeof entry.job_id === 'string' && JOB_ID.test(entry.job_id) ? entry.job_id : undefined;
}

/** Whether a platform's entry is final: the status answer is `completed` and a real job id is assigned. */
export function jsTestFinished(entry: Pick<JsTestStatus, 'job_id'>, completed: boolean): boolean {
  return completed && jsTestJobId(entry) !== undefined;
}

/** Whether every platform of a status answer is final. */
export function jsTestsFinished(answer: JsTestStatusAnswer): boolean {
  return answer['js tests'].every((entry) => jsTestFinished(entry, answer.completed));
}
