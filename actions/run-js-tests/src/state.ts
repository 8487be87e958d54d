/**
 * What the post step needs to stop the jobs when the main step is killed outright (the kit's
 * saved work): the test ids as soon as the start answers them (the status then gives each
 * platform's job), the job ids as they are assigned.
 */
import type { SauceConnection, StepState } from '@sauce-actions/action-kit';
import {
  parseSavedWork,
  placeOf,
  savedStrings,
  SavedWorkSlot,
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

/** Whether the saved state names anything to stop. */
export function hasJsTestsWork(state: JsTestsState | undefined): state is JsTestsState {
  return state !== undefined && (state.testIds.length > 0 || state.jobIds.length > 0);
}

/** Reads the saved state; anything malformed counts as nothing to stop. */
export function parseJsTestsState(text: string): JsTestsState | undefined {
  return parseSavedWork(text, (record) => ({
    testIds: savedStrings(record.testIds),
    jobIds: savedStrings(record.jobIds),
  }));
}

/** Saves the tests' state whenever it changes, and clears it at the end. */
export class JsTestsStateRecorder {
  readonly #slot: SavedWorkSlot;
  readonly #base: WorkPlace;
  readonly #jobIds = new Set<string>();

  constructor(state: StepState, connection: SauceConnection) {
    this.#slot = new SavedWorkSlot(state, STATE_KEY);
    this.#base = placeOf(connection);
  }

  /** Records the test ids, and the job ids assigned so far. */
  record(testIds: readonly string[], jobIds: Iterable<string> = []): void {
    for (const id of jobIds) this.#jobIds.add(id);
    this.#slot.save({ ...this.#base, testIds: [...testIds], jobIds: [...this.#jobIds] });
  }

  /**
   * The main step is done: the platforms whose job it could not stop (never assigned in time, or
   * the stop failed) are left to the post step; none clears the state.
   */
  finish(testIds: readonly string[], jobIds: readonly string[]): void {
    if (testIds.length === 0 && jobIds.length === 0) {
      this.#slot.clear();
      return;
    }
    this.#slot.save({ ...this.#base, testIds: [...testIds], jobIds: [...jobIds] });
  }
}
