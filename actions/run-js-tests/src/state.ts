/**
 * What the post step needs to stop the jobs when the main step is killed outright (the kit's
 * running record): the test ids as soon as the start answers them (the status then gives each
 * platform's job), the job ids as they are assigned.
 */
import {
  parseRunningRecord,
  savedStrings,
  type RunningRecordFormat,
  type ServicePlace,
} from '@sauce-actions/action-kit/test-run/post-step';

/** The one state key: the serialized tests. */
export const STATE_KEY = 'js-tests';

/** What a batch records of its tests; the post step reads it with the place they run. */
export interface JsTestsRecord {
  /** Test ids of the platforms still to stop (all of them while the main step runs). */
  testIds: string[];
  /** Job ids assigned so far. */
  jobIds: string[];
}

/** How the tests are recorded for the post step. */
export const JS_TESTS_RECORD: RunningRecordFormat<JsTestsRecord> = {
  key: STATE_KEY,
  read: readJsTestsRecord,
};

/** The recorded tests, when they name anything to stop; anything malformed counts as nothing. */
function readJsTestsRecord(text: string): (ServicePlace & JsTestsRecord) | undefined {
  const state = parseRunningRecord(text, (record) => ({
    testIds: savedStrings(record.testIds),
    jobIds: savedStrings(record.jobIds),
  }));
  return state !== undefined && (state.testIds.length > 0 || state.jobIds.length > 0) ? state : undefined;
}
