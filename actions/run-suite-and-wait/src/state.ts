/**
 * What the post step needs to stop the run's jobs when the main step is killed outright (the
 * kit's saved work): the builds and job ids the start answered, the jobs each poll saw.
 */
import type { SauceConnection, StepState } from '@sauce-actions/action-kit';
import {
  parseSavedWork,
  placeOf,
  savedStrings,
  SavedWorkSlot,
  type WorkPlace,
} from '@sauce-actions/action-kit/test-run/post-step';
import type { Started } from './start.ts';

/** The one state key: the serialized run. */
export const STATE_KEY = 'run';

/**
 * Job ids kept at most: the post step gets the state as an environment variable, which the
 * system caps (128 KiB on Linux); past this many, the builds find the rest.
 */
const MAX_RECORDED_IDS = 1000;

export interface RunState extends WorkPlace {
  /** Build names the service gave the runs. */
  builds: string[];
  /** Job ids known so far (case runs answer theirs; polls show the others). */
  jobIds: string[];
  /** When the run was started (ms): the post step lists jobs created since then. */
  startedAtMs: number;
  expectedCount?: number;
  minimumCount?: number;
}

/** Whether the saved state names anything to stop. */
export function hasRunWork(state: RunState | undefined): state is RunState {
  return state !== undefined && (state.builds.length > 0 || state.jobIds.length > 0);
}

/** Reads the saved state; anything malformed counts as nothing to stop. */
export function parseRunState(text: string): RunState | undefined {
  return parseSavedWork(text, (record) => {
    if (typeof record.startedAtMs !== 'number') return undefined;
    const count = (n: unknown): number | undefined =>
      typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
    const expectedCount = count(record.expectedCount);
    const minimumCount = count(record.minimumCount);
    return {
      builds: savedStrings(record.builds),
      jobIds: savedStrings(record.jobIds),
      startedAtMs: record.startedAtMs,
      ...(expectedCount !== undefined ? { expectedCount } : {}),
      ...(minimumCount !== undefined ? { minimumCount } : {}),
    };
  });
}

/** Saves the run's state whenever what it names grows, and clears it at the end. */
export class RunStateRecorder {
  readonly #slot: SavedWorkSlot;
  readonly #base: Pick<RunState, 'region' | 'apiUrl' | 'startedAtMs'>;
  readonly #jobIds = new Set<string>();

  constructor(state: StepState, connection: SauceConnection, startedAtMs: number) {
    this.#slot = new SavedWorkSlot(state, STATE_KEY);
    this.#base = { ...placeOf(connection), startedAtMs };
  }

  /** Records what was started, and the ids of jobs seen since. */
  record(started: Started, seenIds: Iterable<string> = []): void {
    for (const id of [...started.jobIds, ...seenIds]) {
      if (this.#jobIds.size >= MAX_RECORDED_IDS) break;
      this.#jobIds.add(id);
    }
    const state: RunState = {
      ...this.#base,
      builds: [...started.builds],
      jobIds: [...this.#jobIds],
      ...(started.expectedCount !== undefined ? { expectedCount: started.expectedCount } : {}),
      ...(started.minimumCount !== undefined ? { minimumCount: started.minimumCount } : {}),
    };
    if (!hasRunWork(state)) return;
    this.#slot.save(state);
  }

  /**
   * The main step is done. Jobs it could not stop are left to the post step, by id; when jobs it
   * expected never showed, the builds too, so that the post step looks for them again. With
   * neither, the state is cleared and the post step does nothing.
   */
  finish(started: Started, leftRunning: readonly string[], missing: number): void {
    if (missing > 0) {
      this.record(started, leftRunning);
      return;
    }
    if (leftRunning.length === 0) {
      this.#slot.clear();
      return;
    }
    const state: RunState = { ...this.#base, builds: [], jobIds: leftRunning.slice(0, MAX_RECORDED_IDS) };
    this.#slot.save(state);
  }
}
