/** When a JS unit test's platform is final, as long-lived clients of the interface tell it (its framework's verdict: `js-frameworks.ts`). */
import type { JsTestStatus, JsTestStatusAnswer } from './types.ts';

/** Job ids are 32 characters; until a job is assigned the service puts a placeholder text there. */
const JOB_ID = /^[0-9a-z]{32}$/i;

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
