/**
 * What the post step needs to stop the jobs when the main step is killed outright: the test ids
 * as soon as the start answers them (the status then gives each platform's job), the job ids as
 * they are assigned; cleared when the main step ends having stopped what it had to. Never a
 * secret: the post step reads the credentials from the inputs again.
 */
import type { SauceConnection, StepState } from '@sauce-actions/action-kit';

/** The one state key: the serialized tests. */
export const STATE_KEY = 'js-tests';

export interface JsTestsState {
  /** Where the jobs run, to check that the post step talks to the same place. */
  region: string;
  apiUrl?: string;
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
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const strings = (list: unknown): string[] =>
    Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string' && item !== '') : [];
  if (typeof record.region !== 'string') return undefined;
  return {
    region: record.region,
    ...(typeof record.apiUrl === 'string' ? { apiUrl: record.apiUrl } : {}),
    testIds: strings(record.testIds),
    jobIds: strings(record.jobIds),
  };
}

/** Saves the tests' state whenever it changes, and clears it at the end. */
export class JsTestsStateRecorder {
  readonly #state: StepState;
  readonly #base: Pick<JsTestsState, 'region' | 'apiUrl'>;
  readonly #jobIds = new Set<string>();
  #saved = '';

  constructor(state: StepState, connection: SauceConnection) {
    this.#state = state;
    this.#base = {
      region: connection.region,
      ...(connection.apiUrl !== undefined ? { apiUrl: connection.apiUrl } : {}),
    };
  }

  /** Records the test ids, and the job ids assigned so far. */
  record(testIds: readonly string[], jobIds: Iterable<string> = []): void {
    for (const id of jobIds) this.#jobIds.add(id);
    this.#save({ ...this.#base, testIds: [...testIds], jobIds: [...this.#jobIds] });
  }

  /**
   * The main step is done: the platforms whose job it could not stop (never assigned in time, or
   * the stop failed) are left to the post step; none clears the state.
   */
  finish(testIds: readonly string[], jobIds: readonly string[]): void {
    if (testIds.length === 0 && jobIds.length === 0) {
      // Nothing saved yet is nothing to clear: #persist writes only what differs.
      this.#persist('');
      return;
    }
    this.#save({ ...this.#base, testIds: [...testIds], jobIds: [...jobIds] });
  }

  #save(state: JsTestsState): void {
    this.#persist(JSON.stringify(state));
  }

  #persist(text: string): void {
    if (text === this.#saved) return;
    this.#state.save(STATE_KEY, text);
    this.#saved = text;
  }
}
