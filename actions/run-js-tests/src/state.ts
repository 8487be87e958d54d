/**
 * What the post step needs to stop the jobs when the main step is killed outright (the kit's
 * saved work): the test ids as soon as the start answers them (the status then gives each
 * platform's job), the job ids as they are assigned.
 */
import {
  parseSavedWork,
  savedStrings,
  type SavedWork,
  type WorkPlace,
} from '@sauce-actions/action-kit/test-run/post-step';

/** The one state key: the serialized tests. */
export const STATE_KEY = 'js-tests';

export interface JsTestsState extends WorkPlace {
  /** Test ids of the platforms still to stop (all of them while the main step runs). */
  testIds: string[];
  /** Job ids assigned so far. */
  jobIds: string[];
}

/** Where the tests are kept for the post step. */
export const SAVED_TESTS: SavedWork<JsTestsState> = { key: STATE_KEY, read: savedTests };

/** The saved tests, when they name anything to stop; anything malformed counts as nothing. */
function savedTests(text: string): JsTestsState | undefined {
  const state = parseSavedWork(text, (record) => ({
    testIds: savedStrings(record.testIds),
    jobIds: savedStrings(record.jobIds),
  }));
  return state !== undefined && (state.testIds.length > 0 || state.jobIds.length > 0) ? state : undefined;
}
