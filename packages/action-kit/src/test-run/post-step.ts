/**
 * What the post steps that stop jobs share, the safety net for a main step killed outright: the
 * work the main step keeps in the step's state (where it runs and what names it, never a
 * credential), saved as soon as it is known and cleared when the main step ends having stopped
 * what it had to; the post step's inputs; its report of the jobs it stopped.
 */
import type { SauceConnection } from '../connection.ts';
import type { StepState } from '../deps.ts';
import type { InputReader } from '../inputs.ts';
import type { Logger } from '../logger.ts';
import type { ActionResult } from '../result.ts';
import { SummaryBuilder } from '../summary.ts';

/** Where the saved work runs, to check that the post step talks to the same place. */
export interface WorkPlace {
  region: string;
  apiUrl?: string;
}

export function placeOf(connection: SauceConnection): WorkPlace {
  return {
    region: connection.region,
    ...(connection.apiUrl !== undefined ? { apiUrl: connection.apiUrl } : {}),
  };
}

/** The non-empty strings of a saved list; anything else counts as none. */
export function savedStrings(list: unknown): string[] {
  return Array.isArray(list)
    ? list.filter((item): item is string => typeof item === 'string' && item !== '')
    : [];
}

/**
 * Reads saved work: its place, then the rest by `readRest`. Anything malformed (no JSON, no
 * region, what `readRest` refuses) counts as nothing to stop.
 */
export function parseSavedWork<T extends object>(
  text: string,
  readRest: (record: Record<string, unknown>) => T | undefined,
): (WorkPlace & T) | undefined {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.region !== 'string') return undefined;
  const rest = readRest(record);
  if (rest === undefined) return undefined;
  return {
    region: record.region,
    ...(typeof record.apiUrl === 'string' ? { apiUrl: record.apiUrl } : {}),
    ...rest,
  };
}

/** One key of the step's state, written only when what it holds changes. */
export class SavedWorkSlot {
  readonly #state: StepState;
  readonly #key: string;
  #saved = '';

  constructor(state: StepState, key: string) {
    this.#state = state;
    this.#key = key;
  }

  save(work: object): void {
    this.#write(JSON.stringify(work));
  }

  /** Nothing is left to stop: the post step does nothing. Nothing saved yet is nothing to clear. */
  clear(): void {
    this.#write('');
  }

  #write(text: string): void {
    if (text === this.#saved) return;
    this.#state.save(this.#key, text);
    this.#saved = text;
  }
}

export interface PostInputs {
  connection: SauceConnection;
}

/**
 * The post step's inputs: only the connection (the saved state says what to stop), read by the
 * main step's own reader, so that both steps read the inputs the same way; the main step saved
 * state only after it read them without error.
 */
export function connectionInputs(
  readInputs: (read: InputReader) => Promise<{ connection: SauceConnection }>,
): (read: InputReader) => Promise<PostInputs> {
  return async (read) => ({ connection: (await readInputs(read)).connection });
}

/** Warns when the post step's connection inputs name another place than the one the work ran on. */
export function warnIfElsewhere(saved: WorkPlace, connection: SauceConnection, logger: Logger): void {
  if (saved.region === connection.region && saved.apiUrl === connection.apiUrl) return;
  logger.warning(
    `The step ran its jobs on ${saved.apiUrl ?? saved.region}, but the connection inputs now name ${connection.apiUrl ?? connection.region}: the jobs may not be found.`,
  );
}

export interface StoppedJobs {
  /** The heading of the post step's summary, e.g. `Run suite and wait: cleanup`. */
  title: string;
  /** What ended early, as the start of a sentence: `The step ended before its jobs did`. */
  ended: string;
  stopped: readonly string[];
  failed: readonly { id: string; error: string }[];
  /** Further lines of the summary's list (jobs that never showed, tests never assigned a job). */
  notes?: readonly string[];
  /** Why nothing could be found to stop, when that is so (a listing that failed). */
  notFound?: string;
  jobUrl: (id: string) => string;
  logger: Logger;
}

/** The post step's result: what it stopped, what it could not, linked; a failure for the latter. */
export function stoppedJobsResult(report: StoppedJobs): ActionResult {
  const { stopped, failed, logger } = report;
  logger.info(
    `Stopped ${stopped.length} unfinished job(s)${failed.length ? `; ${failed.length} could not be stopped` : ''}.`,
  );
  for (const { id, error } of failed) logger.warning(`Could not stop job ${id}: ${error}`);
  const summary = new SummaryBuilder()
    .heading(report.title, 3)
    .paragraph(`${report.ended}: ${stopped.length} unfinished job(s) were stopped.`)
    .list([
      ...stopped.map((id) => `Stopped job ${id}: ${report.jobUrl(id)}`),
      ...failed.map(({ id, error }) => `Could not stop job ${id} (${error}): ${report.jobUrl(id)}`),
      ...(report.notes ?? []),
    ])
    .toString();
  const problem =
    failed.length > 0
      ? `Could not stop ${failed.length} job(s) the step left running (${failed.map((f) => f.id).join(', ')}): ${failed[0]?.error}. Stop them on the Sauce Labs dashboard.`
      : report.notFound;
  return {
    outputs: {},
    summary,
    annotations: [],
    ...(problem !== undefined ? { failure: { kind: 'service', message: problem } } : {}),
  };
}
