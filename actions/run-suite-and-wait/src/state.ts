/**
 * What the post step needs to stop the run's jobs when the main step is killed outright (the
 * kit's saved work): the builds and job ids the start answered, the jobs each poll saw.
 */
import {
  parseSavedWork,
  savedStrings,
  type SavedWork,
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
  /** When the run was started (ms, on the service's clock): the post step lists jobs created since then. */
  startedAtMs: number;
  expectedCount?: number;
  minimumCount?: number;
}

/** Where the run is kept for the post step. */
export const SAVED_RUN: SavedWork<RunState> = { key: STATE_KEY, read: savedRun };

/** The saved run, when it names anything to stop; anything malformed counts as nothing. */
function savedRun(text: string): RunState | undefined {
  const state = parseSavedWork(text, (record) => {
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
  return state !== undefined && (state.builds.length > 0 || state.jobIds.length > 0) ? state : undefined;
}

/** The run's work as it grows: what was started, and the ids of the jobs seen, up to `MAX_RECORDED_IDS`. */
export class RunWork {
  readonly #startedAtMs: number;
  readonly #jobIds = new Set<string>();

  constructor(startedAtMs: number) {
    this.#startedAtMs = startedAtMs;
  }

  /** What was started, and the ids of jobs seen since; undefined while nothing is named. */
  now(started: Started, seenIds: Iterable<string> = []): Omit<RunState, keyof WorkPlace> | undefined {
    for (const id of [...started.jobIds, ...seenIds]) {
      if (this.#jobIds.size >= MAX_RECORDED_IDS) break;
      this.#jobIds.add(id);
    }
    if (started.builds.length === 0 && this.#jobIds.size === 0) return undefined;
    return {
      startedAtMs: this.#startedAtMs,
      builds: [...started.builds],
      jobIds: [...this.#jobIds],
      ...(started.expectedCount !== undefined ? { expectedCount: started.expectedCount } : {}),
      ...(started.minimumCount !== undefined ? { minimumCount: started.minimumCount } : {}),
    };
  }

  /**
   * The main step is done. Jobs it could not stop are left to the post step, by id; when jobs it
   * expected never showed, the builds too, so that the post step looks for them again. With
   * neither, nothing is left.
   */
  left(
    started: Started,
    leftRunning: readonly string[],
    missing: number,
  ): Omit<RunState, keyof WorkPlace> | undefined {
    if (missing > 0) return this.now(started, leftRunning);
    if (leftRunning.length === 0) return undefined;
    return { startedAtMs: this.#startedAtMs, builds: [], jobIds: leftRunning.slice(0, MAX_RECORDED_IDS) };
  }
}
