/**
 * One round of JS tests on the engine: the start of some platforms in one request, their status
 * asked in one request per poll, and their jobs stopped (each once it is assigned) when the
 * round ends early.
 */
import {
  ActionError,
  describeFailure,
  shardText,
  type Failure,
  type Logger,
  type Clock,
} from '@sauce-actions/action-kit';
import type {
  Batch,
  EarlyEnd,
  Progress,
  Run,
  StartSignals,
} from '@sauce-actions/action-kit/test-run/adapter';
import type { HistoryJobs, RecordWriter } from '@sauce-actions/action-kit/test-run/history/history-search';
import type { JobLister } from '@sauce-actions/action-kit/test-run/job-follower';
import { START_GRACE_MS, surelyNotStarted } from '@sauce-actions/action-kit/test-run/rounds';
import {
  jsTestJobId,
  jsTestsFinished,
  ResponseShapeError,
  type AutomationJobs,
  type AutomationJsTests,
  type JsTestPlatform,
  type JsTestStatusAnswer,
  type SauceClient,
} from '@sauce-actions/api';
import type { JsTestsInputs } from './inputs.ts';
import {
  markStopped,
  platformResults,
  reportedJob,
  type PlatformResult,
  type PlatformStatus,
} from './judge.ts';
import { platformName } from './platforms.ts';
import { refusedStart } from './refusals.ts';
import { startRequest, type StartInputs } from './requests.ts';
import type { JsTestsRecord } from './state.ts';
import { stopJsTestJobs, type StopJsTestsResult } from './stop.ts';
import { waitForResults } from './wait.ts';

export type JsTestsClient = Pick<SauceClient, 'jobUrl' | 'serviceClock'> & {
  automation: {
    jsTests: Pick<AutomationJsTests, 'start' | 'getStatus'>;
    jobs: Pick<AutomationJobs, 'stop'> & JobLister & HistoryJobs & RecordWriter;
  };
};

/** A platform of `platforms`, by its place there (a platform may be listed twice). */
export interface PlacedPlatform {
  platform: JsTestPlatform;
  place: number;
}

/** How the wait ended, when it ended early: the deadline, or the status checks kept failing. */
type EarlyOutcome = 'timeout' | 'cancelled' | 'status-failed';

export function earlyOutcome(end: EarlyEnd): EarlyOutcome {
  return end.why === 'timeout' || end.why === 'cancelled' ? end.why : 'status-failed';
}

/**
 * Time to stop the unfinished jobs after the wait ended early, on a deadline of its own: jobs
 * still queued get their id only when assigned, so the status is asked again meanwhile. The
 * runner kills a cancelled step about ten seconds after its SIGINT: that one must be quick.
 */
const STOP_GRACE_MS: Record<EarlyOutcome, number> = {
  cancelled: 6000,
  timeout: 20_000,
  'status-failed': 5000,
};

const STOPPING: Record<EarlyOutcome, string> = {
  timeout: 'The timeout passed: stopping the unfinished jobs.',
  cancelled: 'Cancelled: stopping the unfinished jobs.',
  'status-failed': 'Checking the status failed: stopping the unfinished jobs.',
};

/** The start's answer does not match the platforms: nothing can be followed, and the step ends on it. */
export class UnmatchedStart extends Error {
  /** The test ids answered, if any could be read. */
  readonly ids: unknown;
  /** Why the answer could not be read, when it could not. */
  readonly unreadable: Failure | undefined;

  constructor(ids: unknown, unreadable?: Failure) {
    super('the start answered test ids that do not match the platforms');
    this.ids = ids;
    this.unreadable = unreadable;
  }
}

interface JsTestsBatchOptions {
  /** What the start sends, the shard for the log, and the poll interval. */
  inputs: StartInputs & Pick<JsTestsInputs, 'shard' | 'pollIntervalMs'>;
  client: JsTestsClient;
  clock: Pick<Clock, 'now' | 'monotonic' | 'sleep'>;
  logger: Logger;
  items: readonly PlacedPlatform[];
  attempt: number;
  startedAtMs: number;
}

export class JsTestsBatch implements Batch<PlatformResult, JsTestsRecord> {
  readonly #options: JsTestsBatchOptions;
  readonly #platforms: JsTestPlatform[];
  /** Test ids, one per platform, once the start answered them. */
  #ids: string[] = [];
  /** Job ids assigned so far. */
  readonly #jobIds = new Set<string>();
  #unanswered = false;
  #answer: JsTestStatusAnswer | undefined;
  #stopping: StopJsTestsResult | undefined;
  #progressKey = '';

  constructor(options: JsTestsBatchOptions) {
    this.#options = options;
    this.#platforms = options.items.map((item) => item.platform);
  }

  get started(): boolean {
    return this.#ids.length > 0;
  }

  /** Job ids stopped after the round ended early. */
  get stoppedJobs(): string[] {
    return this.#stopping?.stopped ?? [];
  }

  /** The test ids, one per platform in their order; the request outlives a cancellation by a grace period. */
  async start({ signal, requestSignal, onStarted }: StartSignals): Promise<void> {
    const { inputs, client, logger, attempt } = this.#options;
    const count = this.#platforms.length;
    if (attempt === 1) {
      logger.info(
        `Starting ${inputs.framework} tests of ${inputs.url} on ${count} platform${count === 1 ? '' : 's'}${inputs.shard ? ` (shard ${shardText(inputs.shard)} of ${inputs.shard.of})` : ''}: ${this.#platforms.map(platformName).join('; ')}`,
      );
    }
    signal.throwIfAborted();
    this.#unanswered = true;
    let ids: unknown;
    try {
      const answer = await client.automation.jsTests.start(startRequest(inputs, this.#platforms), {
        signal: requestSignal,
        sendUntil: signal,
      });
      ids = answer['js tests'];
    } catch (error) {
      if (surelyNotStarted(error)) this.#unanswered = false;
      // The start succeeded, but its answer cannot be read: what it started cannot be followed.
      if (error instanceof ResponseShapeError && attempt === 1) {
        throw new UnmatchedStart(undefined, describeFailure(error, signal));
      }
      throw refusedStart(error, inputs);
    }
    this.#unanswered = false;
    if (!Array.isArray(ids) || ids.length !== count) {
      if (attempt === 1) throw new UnmatchedStart(ids);
      throw new ActionError(
        'service',
        `Sauce Labs answered the start of ${count} platform(s) again with ${Array.isArray(ids) ? ids.length : 'no'} test ids, so the retry could not be followed. Run the job again; report it if it repeats.`,
      );
    }
    this.#ids = ids.map(String);
    onStarted();
    logger.info(`Started the JS tests: ${this.#ids.join(', ')}`);
  }

  /** The start request cut off with no answer: the tests may run, and cannot be identified. */
  cutOff(aborted: 'timeout' | 'cancelled'): string | undefined {
    if (!this.#unanswered) return undefined;
    const { inputs } = this.#options;
    const how = aborted === 'timeout' ? 'Timed out' : 'Cancelled';
    const build = inputs.build !== undefined ? ` in build "${inputs.build}"` : '';
    return `${how} while the JS tests were being started: Sauce Labs did not answer within ${START_GRACE_MS / 1000}s, so the jobs it started, if any, could not be identified to be stopped. Look for jobs of ${inputs.url}${build} on the dashboard.${aborted === 'timeout' ? ' Raise `timeout` if the start needs longer.' : ''}`;
  }

  async follow(
    signal: AbortSignal,
    onProgress: (progress: Progress<PlatformResult>) => void,
  ): Promise<boolean> {
    const { inputs, client, clock, logger } = this.#options;
    const waited = await waitForResults(client.automation.jsTests, {
      ids: this.#ids,
      pace: {
        baseMs: inputs.pollIntervalMs,
        ...(inputs.shard !== undefined ? { shards: inputs.shard.total } : {}),
      },
      signal,
      clock,
      logger,
      onAnswer: (answer) => {
        this.#answer = answer;
        for (const entry of answer['js tests']) {
          const jobId = jsTestJobId(entry);
          if (jobId !== undefined) this.#jobIds.add(jobId);
        }
        onProgress(this.#progress());
      },
    });
    return waited.ended === 'finished';
  }

  /**
   * The unfinished jobs are stopped, those still queued as soon as they are assigned. True when
   * the last answer shows everything final and nothing had to be stopped.
   */
  async stop(end: EarlyEnd): Promise<boolean> {
    const { client, logger } = this.#options;
    const why = earlyOutcome(end);
    logger.warning(STOPPING[why]);
    const stopping = await stopJsTestJobs({
      status: client.automation.jsTests,
      jobs: client.automation.jobs,
      ids: this.#ids,
      ...(this.#answer !== undefined ? { last: this.#answer } : {}),
      graceMs: STOP_GRACE_MS[why],
      intervalMs: 500,
    });
    this.#stopping = stopping;
    logStopping(stopping, logger);
    this.#answer = stopping.answer ?? this.#answer;
    const nothingLeft = stopping.stopped.length === 0 && stopping.unassigned.length === 0;
    return nothingLeft && this.#answer !== undefined && jsTestsFinished(this.#answer);
  }

  /** The test ids, and the job ids assigned so far. */
  running(): JsTestsRecord | undefined {
    return this.started ? { testIds: [...this.#ids], jobIds: [...this.#jobIds] } : undefined;
  }

  /** The platforms whose job could not be stopped (never assigned in time, or the stop failed). */
  leftRunning(): JsTestsRecord | undefined {
    const left = this.#results().filter((p) => p.status === 'running' || p.status === 'queued');
    const jobIds = left.flatMap((p) => (p.jobId !== undefined ? [p.jobId] : []));
    return left.length > 0 ? { testIds: left.map((p) => p.id), jobIds } : undefined;
  }

  runs(): Run<PlatformResult>[] {
    return this.#results().map((p, index) => ({
      item: String(this.#options.items[index]?.place),
      job: reportedJob(p),
      ...(p.jobId !== undefined ? { jobId: p.jobId } : {}),
      record: p,
    }));
  }

  /** Every platform as the last answer shows it, marked with what stopping it came to. */
  #results(): PlatformResult[] {
    const { inputs, client } = this.#options;
    const platforms = platformResults(
      {
        platforms: this.#platforms,
        ids: this.#ids,
        framework: inputs.framework,
        jobUrl: (id) => client.jobUrl(id),
      },
      this.#answer,
    );
    if (this.#stopping) markStopped(platforms, this.#stopping);
    return platforms;
  }

  /** `1 of 2 platforms finished: 1 passed, 1 running (12s)`. */
  #progress(): Progress<PlatformResult> {
    const runs = this.runs();
    const counts = new Map<PlatformStatus, number>();
    for (const { record } of runs) counts.set(record.status, (counts.get(record.status) ?? 0) + 1);
    const key = (['passed', 'failed', 'error', 'running', 'queued'] as const)
      .filter((status) => counts.has(status))
      .map((status) => `${counts.get(status)} ${status}`)
      .join(', ');
    const changed = key !== this.#progressKey;
    this.#progressKey = key;
    const finished = runs.filter(({ record }) => record.status !== 'running' && record.status !== 'queued');
    // For display only: a wall clock set back shows no time below nothing.
    const elapsed = Math.max(0, Math.round((this.#options.clock.now() - this.#options.startedAtMs) / 1000));
    return {
      runs,
      changed,
      line: `${finished.length} of ${runs.length} platforms finished: ${key} (${elapsed}s)`,
    };
  }
}

function logStopping(stopping: StopJsTestsResult, logger: Logger): void {
  const { graceMs } = stopping;
  if (stopping.stopped.length > 0) {
    logger.info(`Stopped ${stopping.stopped.length} unfinished job(s): ${stopping.stopped.join(', ')}`);
  }
  for (const failed of stopping.failed) logger.warning(`Could not stop job ${failed.jobId}: ${failed.error}`);
  if (stopping.unassigned.length > 0) {
    logger.warning(
      `${stopping.unassigned.length} platform(s) had no job assigned within ${graceMs / 1000}s, so nothing could be stopped there: ${stopping.unassigned.join(', ')}`,
    );
  }
  if (stopping.error !== undefined) logger.warning(`Checking the status failed: ${stopping.error}`);
}
