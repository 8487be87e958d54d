/**
 * Simulated jobs: created by the interfaces that start tests (AI authoring runs, JS unit tests),
 * changed and stopped by clients. A job's state is read from its times (`job-view.ts`).
 */
import type { StoreState } from '../../shared/store-state.ts';
import { hexId } from '../ids.ts';
import { isFinished } from '../job-view.ts';
import type { AutomationData, JobRecord, TunnelRecord } from '../model.ts';
import { JobIndex, type JobPage } from './job-index.ts';
import type { AutomationTunnels } from './tunnels.ts';

/** What another interface (AI authoring runs, JS unit tests) gives to create a simulated job. */
export interface NewJobInput {
  name: string;
  /** Build name the job belongs to (the run's build). */
  build: string;
  browser: string;
  browserVersion?: string | undefined;
  os: string;
  /** Whether the simulated job ends passed (true) or failed (false). */
  passes: boolean;
  /** Account username owning the job; default the seed's first user. */
  owner?: string;
  tags?: string[];
  tunnelIdentifier?: string | null;
  customData?: Record<string, unknown>;
  automationBackend?: string;
  /** Longest run once started (the `maxDuration` capability), in milliseconds; absent: no limit. */
  maxDurationMs?: number;
}

/** What a client may change of a job; only the members given change. */
interface JobUpdate {
  name?: string;
  tags?: string[];
  customData?: Record<string, unknown> | null;
  passed?: boolean;
  build?: string;
  public?: string;
}

export class AutomationJobs {
  readonly #state: StoreState<AutomationData>;
  readonly #tunnels: AutomationTunnels;
  /** How long a simulated job takes from creation to its end. */
  readonly #durationMs: number;
  /** Each owner's jobs in creation order, derived from the records (never persisted). */
  #index: JobIndex | undefined;

  constructor(state: StoreState<AutomationData>, tunnels: AutomationTunnels, durationMs: number) {
    this.#state = state;
    this.#tunnels = tunnels;
    this.#durationMs = durationMs;
  }

  /** Creates a simulated job that moves through queued, in progress and its end over the job duration. */
  create(input: NewJobInput): { id: string } {
    const owner = input.owner ?? Object.keys(this.#state.data.users)[0] ?? 'demo';
    const now = this.#state.now();
    const tunnel = input.tunnelIdentifier ? this.#tunnels.running(owner, input.tunnelIdentifier) : undefined;
    const record: JobRecord = {
      id: hexId(),
      owner,
      name: input.name,
      build: input.build || null,
      browser: input.browser,
      browserVersion: input.browserVersion ?? 'latest',
      os: input.os,
      automationBackend: input.automationBackend ?? 'webdriver',
      passes: input.passes,
      passedOverride: null,
      tags: input.tags ?? [],
      customData: input.customData ?? null,
      public: 'team',
      tunnelIdentifier: input.tunnelIdentifier ?? null,
      tunnelId: tunnel?.id ?? null,
      createdMs: now,
      durationMs: this.#durationMs,
      ...(input.maxDurationMs !== undefined ? { maxDurationMs: input.maxDurationMs } : {}),
      stoppedMs: null,
      modifiedMs: now,
      assetsDeleted: false,
    };
    const index = this.#indexed();
    this.#state.data.jobs[record.id] = record;
    index.add(record);
    this.#state.changed();
    return { id: record.id };
  }

  get(id: string): JobRecord | undefined {
    const { jobs } = this.#state.data;
    return Object.hasOwn(jobs, id) ? jobs[id] : undefined;
  }

  /** The owner's jobs, newest first. */
  of(owner: string): JobRecord[] {
    return this.#indexed().page(owner, { skip: 0, limit: Infinity });
  }

  /** A page of the owner's jobs, newest first: the job list. */
  page(owner: string, page: JobPage): JobRecord[] {
    return this.#indexed().page(owner, page);
  }

  /** The owner's jobs not finished at `nowMs` (queued or in progress), in no particular order. */
  unfinished(owner: string, nowMs: number): JobRecord[] {
    return this.#indexed()
      .recent(owner, nowMs)
      .filter((job) => !isFinished(job, nowMs));
  }

  /** The owner's jobs created at or after `sinceMs`, oldest first. */
  createdSince(owner: string, sinceMs: number): JobRecord[] {
    return this.#indexed().createdSince(owner, sinceMs);
  }

  /** Every job, newest first: a sort of them all, for the admin listing, off the hot paths. */
  all(): JobRecord[] {
    return newestFirst(Object.values(this.#state.data.jobs));
  }

  update(id: string, update: JobUpdate): JobRecord {
    const job = this.#mustGet(id);
    if (update.name !== undefined) job.name = update.name;
    if (update.tags !== undefined) job.tags = update.tags;
    if (update.customData !== undefined) job.customData = update.customData;
    if (update.passed !== undefined) job.passedOverride = update.passed;
    if (update.build !== undefined) job.build = update.build;
    if (update.public !== undefined) job.public = update.public;
    job.modifiedMs = this.#state.now();
    this.#state.changed();
    return job;
  }

  /** Ends a queued or running job as error; a finished job stays as it is. */
  stop(id: string): JobRecord {
    const job = this.#mustGet(id);
    const now = this.#state.now();
    if (!isFinished(job, now)) {
      job.stoppedMs = now;
      job.modifiedMs = now;
      this.#state.changed();
    }
    return job;
  }

  /** Removes the job with its assets (assets are generated from the job, so nothing else is left). */
  delete(id: string): void {
    const job = this.get(id);
    if (job) this.#indexed().remove(job);
    Reflect.deleteProperty(this.#state.data.jobs, id);
    this.#state.changed();
  }

  deleteAssets(id: string): void {
    const job = this.#mustGet(id);
    job.assetsDeleted = true;
    job.modifiedMs = this.#state.now();
    this.#state.changed();
  }

  /** How many jobs of the tunnel's owner not finished yet run through it. */
  runningThrough(tunnel: TunnelRecord): number {
    return this.unfinished(tunnel.owner, this.#state.now()).filter((job) => job.tunnelId === tunnel.id)
      .length;
  }

  /** The index of the records as they are now: rebuilt when a reset or a load replaced them. */
  #indexed(): JobIndex {
    const { jobs } = this.#state.data;
    if (this.#index?.source !== jobs) this.#index = new JobIndex(jobs);
    return this.#index;
  }

  #mustGet(id: string): JobRecord {
    const job = this.get(id);
    if (!job) throw new Error(`no job ${id}`);
    return job;
  }
}

function newestFirst(jobs: JobRecord[]): JobRecord[] {
  return jobs.sort((a, b) => b.createdMs - a.createdMs);
}
