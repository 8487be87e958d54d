/**
 * What the post step needs to stop the run's jobs when the main step is killed outright: saved in
 * the step's state as soon as it is known (the builds and job ids the start answered, the jobs
 * each poll saw), cleared when the main step ends having stopped what it had to. Never a secret:
 * the post step reads the credentials from the inputs again.
 */
import type { SauceConnection, StepState } from '@sauce-actions/action-kit';
import type { Started } from './start.ts';

/** The one state key: the serialized run. */
export const STATE_KEY = 'run';

/**
 * Job ids kept at most: the post step gets the state as an environment variable, which the
 * system caps (128 KiB on Linux); past this many, the builds find the rest.
 */
const MAX_RECORDED_IDS = 1000;

export interface RunState {
  /** Where the jobs run, to check that the post step talks to the same place. */
  region: string;
  apiUrl?: string;
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
  const count = (n: unknown): number | undefined =>
    typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
  const startedAtMs = typeof record.startedAtMs === 'number' ? record.startedAtMs : undefined;
  if (typeof record.region !== 'string' || startedAtMs === undefined) return undefined;
  const expectedCount = count(record.expectedCount);
  const minimumCount = count(record.minimumCount);
  return {
    region: record.region,
    ...(typeof record.apiUrl === 'string' ? { apiUrl: record.apiUrl } : {}),
    builds: strings(record.builds),
    jobIds: strings(record.jobIds),
    startedAtMs,
    ...(expectedCount !== undefined ? { expectedCount } : {}),
    ...(minimumCount !== undefined ? { minimumCount } : {}),
  };
}

/** Saves the run's state whenever what it names grows, and clears it at the end. */
export class RunStateRecorder {
  readonly #state: StepState;
  readonly #base: Pick<RunState, 'region' | 'apiUrl' | 'startedAtMs'>;
  readonly #jobIds = new Set<string>();
  #saved = '';

  constructor(state: StepState, connection: SauceConnection, startedAtMs: number) {
    this.#state = state;
    this.#base = {
      region: connection.region,
      ...(connection.apiUrl !== undefined ? { apiUrl: connection.apiUrl } : {}),
      startedAtMs,
    };
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
    this.#save(JSON.stringify(state));
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
      // Nothing saved yet is nothing to clear: #save writes only what differs.
      this.#save('');
      return;
    }
    const state: RunState = { ...this.#base, builds: [], jobIds: leftRunning.slice(0, MAX_RECORDED_IDS) };
    this.#save(JSON.stringify(state));
  }

  #save(text: string): void {
    if (text === this.#saved) return;
    this.#state.save(STATE_KEY, text);
    this.#saved = text;
  }
}
