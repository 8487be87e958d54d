/**
 * What the post step needs to stop the run's jobs when the main step is killed outright (the
 * kit's running record): the builds and job ids the start answered, the jobs each poll saw.
 */
import {
  parseRunningRecord,
  savedStrings,
  type RunningRecordFormat,
  type ServicePlace,
} from '@sauce-actions/action-kit/test-run/post-step';
import type { Started } from './start.ts';

/** The one state key: the serialized run. */
export const STATE_KEY = 'run';

/**
 * Job ids kept at most: the post step gets the state as an environment variable, which the
 * system caps (128 KiB on Linux); past this many, the builds find the rest.
 */
const MAX_RECORDED_IDS = 1000;

/** What a batch records of its run; the post step reads it with the place it runs. */
export interface RunRecord {
  /** Build names the service gave the runs. */
  builds: string[];
  /** Job ids known so far (case runs answer theirs; polls show the others). */
  jobIds: string[];
  /** When the run was started (ms, on the service's clock): the post step lists jobs created since then. */
  startedAtMs: number;
  expectedCount?: number;
  minimumCount?: number;
}

/** How the run is recorded for the post step. */
export const RUN_RECORD: RunningRecordFormat<RunRecord> = { key: STATE_KEY, read: readRunRecord };

/** The recorded run, when it names anything to stop; anything malformed counts as nothing. */
function readRunRecord(text: string): (ServicePlace & RunRecord) | undefined {
  const state = parseRunningRecord(text, (record) => {
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

/** The run's record as it grows: what was started, and the ids of the jobs seen, up to `MAX_RECORDED_IDS`. */
export class RunRecorder {
  readonly #startedAtMs: number;
  readonly #jobIds = new Set<string>();

  constructor(startedAtMs: number) {
    this.#startedAtMs = startedAtMs;
  }

  /** What was started, and the ids of jobs seen since; undefined while nothing is named. */
  running(started: Started, seenIds: Iterable<string> = []): RunRecord | undefined {
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
  leftRunning(started: Started, leftRunning: readonly string[], missing: number): RunRecord | undefined {
    if (missing > 0) return this.running(started, leftRunning);
    if (leftRunning.length === 0) return undefined;
    return { startedAtMs: this.#startedAtMs, builds: [], jobIds: leftRunning.slice(0, MAX_RECORDED_IDS) };
  }
}
