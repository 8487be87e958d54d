/**
 * The contract between an action and the host that runs it. An action is `readInputs` (every
 * input, checked, into one typed object) and `run(inputs, deps)`, whose every effect goes through
 * `deps`; the host (the GitHub runner, the command line) builds the deps and publishes the result.
 */
import { monotonicNow, sleep, type SauceClient } from '@sauce-actions/api';
import type { Connection } from './inputs/connection.ts';
import type { IdTokenSource } from './inputs/id-token.ts';
import type { InputReader } from './inputs/inputs.ts';
import type { ActionResult, Outputs } from './reporting/result.ts';
import type { CiContext, TriggeringRun } from './step/ci-context.ts';
import type { GitHistory } from './step/git-history.ts';
import type { Logger } from './step/logger.ts';
import type { RequestPacer } from './step/request-pacer.ts';

export interface Clock {
  /** The wall clock (ms since the epoch): for what is shown and named, never for a deadline. */
  now(): number;
  /**
   * A clock that only moves forward (ms, from an arbitrary start): deadlines and intervals are
   * reckoned on it, so that a wall clock set back or forward moves none of them.
   */
  monotonic(): number;
  /** Resolves after `ms`, rejects when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = { now: () => Date.now(), monotonic: monotonicNow, sleep };

/** Values a step saves for its post step (which may run in another process). */
export interface StepState {
  save(name: string, value: string): void;
  /** '' when nothing was saved under the name. */
  get(name: string): string;
}

/** State kept in memory: for tests, and for a host that runs the post step in the same process. */
export function memoryState(initial: Readonly<Record<string, string>> = {}): StepState & {
  readonly saved: Map<string, string>;
} {
  const saved = new Map(Object.entries(initial));
  return { saved, save: (name, value) => void saved.set(name, value), get: (name) => saved.get(name) ?? '' };
}

/** What the host knows of the workflow run, for names that must be unique per run and attempt. */
export interface WorkflowRun {
  /**
   * Unique to the run across CI systems, repositories and workflows, the same in its every job
   * and attempt (`runIdentityOf`); absent where no CI system is known (a terminal).
   */
  key?: string;
  /** The run's number as the CI system shows it; absent without `key`. */
  runNumber?: string;
  /** GitHub's attempt of the run; other systems have none. */
  runAttempt?: string;
  /** The job's id in the workflow. */
  job?: string;
  /** The step's id. */
  step?: string;
  /**
   * Which runs are earlier runs of this one (`RunIdentity.series`): the same server, repository
   * and workflow, whatever the branch; a history of test runs is read by it.
   */
  series?: string;
  /**
   * When the run was created (ms since the epoch), where the CI system tells: a report's search
   * of the service's jobs reads back to it and no further.
   */
  createdAtMs?: number;
  /**
   * With a `workflow_run` event: the run that triggered this one, whose results a report gathers
   * and publishes (its key, run number and attempt, head commit and pull request).
   */
  triggeredBy?: TriggeringRun;
}

/**
 * What became of an upload. A refusal the step can act on is an answer, not an error: the files
 * stay where they are, and anything else that goes wrong is thrown.
 */
export type ArtifactUpload =
  | { outcome: 'uploaded'; id?: number | undefined; size?: number | undefined }
  /** No artifact service here (another CI system, GitHub Enterprise Server, a step outside the runner): `reason` says which. */
  | { outcome: 'unavailable'; reason: string }
  /** The run has an artifact of that name already: names are unique within a run, and artifacts immutable. */
  | { outcome: 'name-taken' };

/** Workflow artifacts. */
export interface Artifacts {
  /** Uploads files as one artifact; without `retentionDays`, it is kept as long as the repository's settings say. */
  upload(
    name: string,
    files: readonly string[],
    rootDirectory: string,
    options?: { retentionDays?: number },
  ): Promise<ArtifactUpload>;
}

/** A folder of tools kept across runs, by name and version (the runner's tool cache). */
export interface ToolCache {
  /** The cached folder, '' when that version is not cached. */
  find(tool: string, version: string): Promise<string>;
  /** Downloads to a temporary file; `signal` (the step's cancel and deadline) ends the wait. */
  downloadTool(url: string, signal?: AbortSignal): Promise<string>;
  extractTar(file: string): Promise<string>;
  extractZip(file: string): Promise<string>;
  cacheDir(sourceDir: string, tool: string, version: string): Promise<string>;
}

/** Every effect of a step but the service client. */
export interface StepDeps {
  logger: Logger;
  /** Aborts when the run is cancelled (reason `CancelledError`). */
  signal: AbortSignal;
  clock: Clock;
  /**
   * The step's one pace of requests to the service, shared by everything the kit sends for the
   * step (listing, stopping, searching, starting, downloading), the post step's too.
   */
  pacer: RequestPacer;
  /** Where relative paths start. */
  workspace: string;
  /** A folder for files that last as long as the job (results, logs). */
  tempDir: string;
  state: StepState;
  workflow: WorkflowRun;
  artifacts: Artifacts;
  tools: ToolCache;
  /** The environment a child process the step starts begins from (proxy settings, PATH). */
  env: Readonly<Record<string, string | undefined>>;
  /** What the CI system says of the run: commit, branch or tag, pull request, repository, run address. */
  ci: CiContext;
  /** The workspace's git history. */
  git: GitHistory;
  /** The job's own OIDC ID token, where the host can get one (`oidc: github`). */
  idToken: IdTokenSource;
}

export interface ActionDeps extends StepDeps {
  /** Made by the host from `inputs.connection`, closed by the host. */
  client: SauceClient;
}

export interface ActionInputs {
  connection: Connection;
  /** `github-token` (masked as read): what the GitHub host writes a pull-request comment and a check run with. */
  githubToken?: string;
  /** `pull-request`: the pull request to comment on when the event names none (a fork's, on `workflow_run`). */
  pullRequest?: number;
}

export interface ActionDefinition<I extends ActionInputs = ActionInputs, O extends Outputs = Outputs> {
  /** Names the step in failure summaries, for example "Upload build". */
  title: string;
  readInputs(read: InputReader): I | Promise<I>;
  run(inputs: I, deps: ActionDeps): Promise<ActionResult<O>>;
}

/** A post step: runs after the job's steps, whatever their outcome, to clean up what the step started. */
export interface PostDefinition<I extends ActionInputs = ActionInputs> extends ActionDefinition<I> {
  /** Whether the state the main step saved names anything left running; if not, no input is even read. */
  hasLeftRunning(state: StepState): boolean;
}
