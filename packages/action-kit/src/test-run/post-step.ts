/**
 * What the post steps that stop jobs share, the safety net for a main step killed outright: the
 * running record the main step keeps in the step's state (where its jobs run and what names them,
 * never a credential), saved as soon as it is known and cleared when the main step ends having
 * stopped what it had to; the post step's definition, which reads it back; its report of the jobs
 * it stopped.
 */
import type { StepDeps, StepState } from '../deps.ts';
import { readSauceConnection, type SauceConnection } from '../inputs/connection.ts';
import type { InputReader } from '../inputs/inputs.ts';
import type { ActionResult } from '../reporting/result.ts';
import { SummaryBuilder } from '../reporting/summary.ts';
import type { Logger } from '../step/logger.ts';

/** Time a post step has to find what the main step left running and stop it: it is not killed as soon. */
const POST_STEP_GRACE_MS = 60_000;

/** Where the jobs of a record run, to check that the post step talks to the same place. */
export interface ServicePlace {
  region: string;
  apiUrl?: string;
}

export function servicePlaceOf(connection: SauceConnection): ServicePlace {
  return {
    region: connection.region,
    ...(connection.apiUrl !== undefined ? { apiUrl: connection.apiUrl } : {}),
  };
}

/** The non-empty strings of a recorded list; anything else counts as none. */
export function savedStrings(list: unknown): string[] {
  return Array.isArray(list)
    ? list.filter((item): item is string => typeof item === 'string' && item !== '')
    : [];
}

/**
 * Reads a running record: its place, then the rest by `readRest`. Anything malformed (no JSON, no
 * region, what `readRest` refuses) counts as nothing to stop.
 */
export function parseRunningRecord<W extends object>(
  text: string,
  readRest: (record: Record<string, unknown>) => W | undefined,
): (ServicePlace & W) | undefined {
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

/**
 * How a main step's record of what it has running is kept for its post step: the key of the
 * step's state, and how the post step reads it back. `W` is what a batch's `running()` returns;
 * the post step reads `W` with the place it runs on.
 */
export interface RunningRecordFormat<W extends object> {
  key: string;
  /** The record; undefined when it names nothing to stop, or cannot be read. */
  read(text: string): (ServicePlace & W) | undefined;
}

/**
 * The record a main step keeps for its post step, under its format's key, with the place it runs:
 * saved whenever it changes, and at the end only what is left running, or nothing.
 */
export class RunningRecord<W extends object> {
  readonly #state: StepState;
  readonly #key: string;
  readonly #place: ServicePlace;
  #saved = '';

  constructor(state: StepState, format: RunningRecordFormat<W>, place: ServicePlace) {
    this.#state = state;
    this.#key = format.key;
    this.#place = place;
  }

  /** Saves what the post step would have to stop now; undefined changes nothing. */
  save(running: W | undefined): void {
    if (running !== undefined) this.#write(JSON.stringify({ ...this.#place, ...running }));
  }

  /** The main step is done: what it leaves running for the post step, or nothing, and then the post step does nothing. */
  finish(leftRunning: W | undefined): void {
    if (leftRunning === undefined) this.#write('');
    else this.save(leftRunning);
  }

  #write(text: string): void {
    if (text === this.#saved) return;
    this.#state.save(this.#key, text);
    this.#saved = text;
  }
}

interface PostInputs {
  connection: SauceConnection;
}

/** What a post step stopped, for its report: `StoppedJobs` less what the definition knows. */
export type Stopping = Omit<StoppedJobs, 'title' | 'jobUrl' | 'logger'>;

type CleanupDeps = Pick<StepDeps, 'logger' | 'state'> & { client: { jobUrl(jobId: string): string } };

/** A post step that stops what its main step left running. */
interface CleanupStep<D> {
  title: string;
  /** Whether the main step left a running record; if not, the post step does not even read its inputs. */
  hasLeftRunning(state: StepState): boolean;
  /** Only the connection: the running record says what to stop. */
  readInputs(read: InputReader): Promise<PostInputs>;
  run(inputs: PostInputs, deps: D): Promise<ActionResult>;
}

/**
 * The post step that reads the running record the main step saved and stops it, with `stop`, within
 * `POST_STEP_GRACE_MS`. It reads the connection alone, as the main step read it
 * (`readConnectionOnly`): nothing else the main step read (a quarantine file changed since) can
 * keep it from stopping what runs. It warns when the connection names another place than the
 * jobs ran on.
 */
export function cleanupStep<W extends object, D extends CleanupDeps>(
  title: string,
  format: RunningRecordFormat<W>,
  readInputs: (read: InputReader) => Promise<{ connection: SauceConnection }>,
  stop: (record: ServicePlace & W, deps: D, graceMs: number) => Promise<Stopping>,
): CleanupStep<D> {
  return {
    title,
    hasLeftRunning: (state) => format.read(state.get(format.key)) !== undefined,
    readInputs: async (read) => ({ connection: (await readInputs(read)).connection }),
    run: async (inputs, deps) => {
      const record = format.read(deps.state.get(format.key));
      if (record === undefined) return { outputs: {}, summary: '', annotations: [] };
      warnIfElsewhere(record, inputs.connection, deps.logger);
      const stopping = await stop(record, deps, POST_STEP_GRACE_MS);
      return stoppedJobsResult({
        title,
        ...stopping,
        jobUrl: (id) => deps.client.jobUrl(id),
        logger: deps.logger,
      });
    },
  };
}

/** What a post step reads back: the batch's running record `W`, with the place its jobs run on. */
export type Recorded<W extends object> = ServicePlace & W;

/** The post step of a test action on Sauce Labs: `cleanupStep` reading the connection alone. */
export function sauceCleanupStep<W extends object, D extends CleanupDeps>(
  title: string,
  format: RunningRecordFormat<W>,
  stop: (record: Recorded<W>, deps: D, graceMs: number) => Promise<Stopping>,
): CleanupStep<D> {
  return cleanupStep(title, format, readConnectionOnly, stop);
}

/** A post step's inputs: the connection alone, read by the reader every Sauce Labs step uses. */
export async function readConnectionOnly(read: InputReader): Promise<{ connection: SauceConnection }> {
  return { connection: readSauceConnection(read) };
}

/** Warns when the post step's connection inputs name another place than the one the jobs ran on. */
function warnIfElsewhere(saved: ServicePlace, connection: SauceConnection, logger: Logger): void {
  if (saved.region === connection.region && saved.apiUrl === connection.apiUrl) return;
  logger.warning(
    `The step ran its jobs on ${saved.apiUrl ?? saved.region}, but the connection inputs now name ${connection.apiUrl ?? connection.region}: the jobs may not be found.`,
  );
}

interface StoppedJobs {
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
function stoppedJobsResult(report: StoppedJobs): ActionResult {
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
