/**
 * One round of a suite run on the engine: the suite run, or case runs one by one, queued; their
 * jobs followed through the job listing of their builds; found and stopped when the round ends
 * early, even those no listing showed yet.
 */
import { formatDuration, shardText, type Clock, type Logger } from '@sauce-actions/action-kit';
import type { AssetSource } from '@sauce-actions/action-kit/services/assets-artifact';
import type {
  Batch,
  EarlyEnd,
  EndReason,
  Progress,
  Run,
  StartSignals,
} from '@sauce-actions/action-kit/test-run/adapter';
import {
  followJobs,
  stopRunJobs,
  type FollowProgress,
  type JobLister,
  type JobStopper,
} from '@sauce-actions/action-kit/test-run/job-follower';
import type { HistoryJobs, RecordWriter } from '@sauce-actions/action-kit/test-run/history/history-search';
import { reportedStatus } from '@sauce-actions/action-kit/test-run/job-status';
import { startTurnMs } from '@sauce-actions/action-kit/test-run/shard-turns';
import type { RequestPacer } from '@sauce-actions/action-kit/step/request-pacer';
import { START_GRACE_MS } from '@sauce-actions/action-kit/test-run/rounds';
import type { Job, ServiceClock } from '@sauce-actions/api';
import { CaseFinder } from './attempts.ts';
import type { SuiteInputs } from './inputs.ts';
import { reportedJobs, reportJob } from './jobs.ts';
import { knownCases, type Plan, type SuitePlan } from './plan.ts';
import { nothingStarted, startRuns, type StartClient, type Started } from './start.ts';
import { RunRecorder, type RunRecord } from './state.ts';

export interface SuiteClient {
  authoring: StartClient;
  automation: { jobs: JobLister & JobStopper & HistoryJobs & RecordWriter; assets: AssetSource };
  jobUrl(jobId: string): string;
  /** The service's clock, from its answers' `Date` header: the job searches' windows are on it. */
  serviceClock: Pick<ServiceClock, 'now' | 'fromLocal'>;
}

/**
 * Time to find and stop the unfinished jobs once the run ended early, on a deadline of its own.
 * The runner kills a cancelled step about ten seconds after its SIGINT: that one must be quick.
 */
const STOP_GRACE_MS: Record<EndReason, number> = {
  cancelled: 5000,
  timeout: 20_000,
  failed: 10_000,
  'fail-fast': 10_000,
};

/** What became of the unfinished jobs of a round that ended early. */
interface Stopped {
  ids: Set<string>;
  /** Unfinished jobs that could not be stopped. */
  failed: { id: string; error: string }[];
  /** Jobs the run has that never showed, so could not be stopped. */
  missing: number;
  /** Whether jobs were to be stopped (`stop-on-cancel`, `fail-fast`). */
  asked: boolean;
}

interface SuiteBatchOptions {
  plan: SuitePlan;
  /** What this round runs: the plan's runs first, then the cases that failed. */
  selection: Plan;
  attempt: number;
  inputs: Pick<SuiteInputs, 'targets' | 'tunnelName' | 'pollIntervalMs' | 'stopOnCancel' | 'timeoutMs'>;
  client: SuiteClient;
  clock: Clock;
  pacer: RequestPacer;
  logger: Logger;
  /** When the step began, on the monotonic clock: a shard's turn to start is reckoned from it. */
  stepBegunAt: number;
}

export class SuiteBatch implements Batch<Job | undefined, RunRecord> {
  /** What was queued, filled in as runs start. */
  readonly queued: Started = nothingStarted();
  /** The run's jobs as last seen. */
  seen: Job[] = [];
  stopped: Stopped = { ids: new Set(), failed: [], missing: 0, asked: false };
  readonly #options: SuiteBatchOptions;
  /** Reads `queued.caseOfJob` as the case runs answer. */
  readonly #finder: CaseFinder;
  readonly #recorder: RunRecorder;
  /** Ids of the jobs the last poll listed. */
  #polled: string[] = [];

  constructor(options: SuiteBatchOptions) {
    this.#options = options;
    this.#finder = new CaseFinder(knownCases(options.plan.runs), this.queued.caseOfJob);
    // On the service's clock (known from the plan's answers), as the post step lists jobs by it.
    this.#recorder = new RunRecorder(options.client.serviceClock.fromLocal(options.plan.startedAtMs));
  }

  get started(): boolean {
    return this.queued.builds.length > 0 || this.queued.jobIds.length > 0;
  }

  async start({ signal, requestSignal, onStarted }: StartSignals): Promise<void> {
    const { plan, selection, inputs, client, attempt, clock, logger } = this.#options;
    const { shard } = selection;
    const cases = selection.testCases?.length ?? 0;
    // Each shard before it has about as many cases to start: the largest share.
    const slot = shard ? Math.ceil(selection.selected / shard.total) : 0;
    const turnMs = attempt === 1 && cases > 0 ? startTurnMs(shard, slot) : 0;
    const waitMs = Math.round(turnMs - (clock.monotonic() - this.#options.stepBegunAt));
    if (shard && waitMs > 0) {
      logger.info(
        `Shard ${shardText(shard)} starts its ${cases} case(s) in ${formatDuration(waitMs)}, at its turn: a matrix's shards plan, then start their cases, one after another on the account they share.`,
      );
      await clock.sleep(waitMs, signal);
    }
    await startRuns(
      client.authoring,
      {
        ...(plan.suite ? { suite: plan.suite } : {}),
        ...(selection.suiteCases ? { suiteCases: selection.suiteCases } : {}),
        ...(selection.testCases ? { testCases: selection.testCases } : {}),
        ...(inputs.targets ? { targets: inputs.targets } : {}),
        buildName: plan.buildName,
        ...(inputs.tunnelName !== undefined ? { tunnelName: inputs.tunnelName } : {}),
        signal,
        pacer: this.#options.pacer,
        requestSignal,
        onQueued: onStarted,
      },
      this.queued,
    );
  }

  /** A start request cut off with no answer: say what may run, and where to look. */
  cutOff(aborted: 'timeout' | 'cancelled'): string | undefined {
    const build = this.queued.unanswered;
    if (build === undefined) return undefined;
    const how = aborted === 'timeout' ? 'Timed out' : 'Cancelled';
    const next =
      aborted === 'timeout'
        ? ` Raise \`timeout\` (now ${formatDuration(this.#options.inputs.timeoutMs)}) if starting needs longer.`
        : '';
    return `${how} while the runs of build "${build}" were being queued: Sauce Labs did not answer within ${START_GRACE_MS / 1000}s, so what it queued, if anything, could not be identified to be stopped. Look for build "${build}" (or with a suffix such as " - 1") on the dashboard.${next}`;
  }

  async follow(
    signal: AbortSignal,
    onProgress: (progress: Progress<Job | undefined>) => void,
  ): Promise<boolean> {
    const { plan, inputs, client, clock, logger } = this.#options;
    const { queued } = this;
    const expected = queued.expectedCount;
    logger.info(
      `Started ${this.#what()} in build "${queued.builds[0] ?? plan.buildName}"` +
        (expected !== undefined ? `: ${expected} job(s) expected.` : '.'),
    );
    const followed = await followJobs({
      jobs: client.automation.jobs,
      builds: queued.builds,
      jobIds: queued.jobIds,
      ...(expected !== undefined ? { expectedCount: expected } : {}),
      ...(queued.minimumCount !== undefined ? { minimumCount: queued.minimumCount } : {}),
      startedAtMs: client.serviceClock.fromLocal(plan.startedAtMs),
      serviceNow: () => client.serviceClock.now(),
      intervalMs: inputs.pollIntervalMs,
      ...(this.#options.selection.shard ? { shards: this.#options.selection.shard.total } : {}),
      pacer: this.#options.pacer,
      signal,
      onPoll: (poll) => {
        this.seen = [...poll.jobs];
        this.#polled = this.seen.map((job) => job.id);
        const jobUrl = (id: string): string => client.jobUrl(id);
        const runs = this.seen.map((job) => this.#runOf(job, reportJob(job, jobUrl, new Set())));
        onProgress({ runs, changed: poll.changed, line: progressLine(poll, expected) });
      },
      now: () => clock.monotonic(),
      sleep: (ms, sleepSignal) => clock.sleep(ms, sleepSignal),
      warn: (message) => logger.warning(message),
    });
    logger.debug(`Followed in ${followed.polls} poll(s), ${followed.requests} request(s).`);
    this.seen = followed.jobs;
    return followed.complete;
  }

  /**
   * When the round ended before its jobs did, they are found, even those no poll saw yet, and
   * with `stop-on-cancel` (or `fail-fast`) the unfinished ones are stopped: nobody follows them
   * any more.
   */
  async stop(end: EarlyEnd<Job | undefined>): Promise<boolean> {
    const { inputs, client, logger } = this.#options;
    const { queued } = this;
    logger.info(
      end.why === 'timeout'
        ? 'Timeout reached: stopping the wait.'
        : end.why === 'cancelled'
          ? 'Cancelled: stopping the wait.'
          : end.why === 'fail-fast'
            ? `Fail fast: job "${end.failedFast?.job.name}" failed with no attempt left; stopping the jobs still queued or running.`
            : 'The run ended before its jobs did.',
    );
    const graceMs = STOP_GRACE_MS[end.why];
    // `fail-fast` asks for the rest to be stopped, whatever `stop-on-cancel` says.
    const stop = inputs.stopOnCancel || end.why === 'fail-fast';
    const found = await stopRunJobs({
      jobs: client.automation.jobs,
      builds: queued.builds,
      jobIds: queued.jobIds,
      seen: this.seen,
      ...(queued.expectedCount !== undefined ? { expectedCount: queued.expectedCount } : {}),
      ...(queued.minimumCount !== undefined ? { minimumCount: queued.minimumCount } : {}),
      startedAtMs: client.serviceClock.fromLocal(this.#options.plan.startedAtMs),
      stop,
      graceMs,
      intervalMs: 500,
      pacer: this.#options.pacer,
    });
    if (found.error !== undefined) logger.warning(`Listing the jobs of the run failed: ${found.error}`);
    if (stop) {
      logger.info(
        `Stopped ${found.stopped.length} unfinished job(s)${found.failed.length ? `; ${found.failed.length} could not be stopped` : ''}.`,
      );
      for (const failed of found.failed) logger.warning(`Could not stop job ${failed.id}: ${failed.error}`);
    }
    if (found.missing > 0) {
      logger.warning(
        `${found.missing} job(s) of build "${queued.builds.join('", "')}" did not show within ${graceMs / 1000}s${stop ? ', so they could not be stopped' : ''}.`,
      );
    }
    this.seen = found.jobs;
    this.stopped = { ids: new Set(found.stopped), failed: found.failed, missing: found.missing, asked: stop };
    return false;
  }

  running(): RunRecord | undefined {
    return this.#recorder.running(this.queued, this.#polled);
  }

  leftRunning(): RunRecord | undefined {
    const { failed, missing } = this.stopped;
    return this.#recorder.leftRunning(
      this.queued,
      failed.map(({ id }) => id),
      missing,
    );
  }

  /** The round's jobs, oldest first, with those the start answered and no listing showed. */
  runs(end: EarlyEnd<Job | undefined> | undefined): Run<Job | undefined>[] {
    const { client } = this.#options;
    const records = new Map(this.seen.map((job) => [job.id, job]));
    const jobUrl = (id: string): string => client.jobUrl(id);
    const reported = reportedJobs(this.seen, this.queued, jobUrl, this.stopped.ids, end !== undefined);
    return reported.map((job) => this.#runOf(records.get(job.id), job));
  }

  #runOf(record: Job | undefined, job: Run['job']): Run<Job | undefined> {
    const item = this.#finder.caseOf(record ?? { id: job.id });
    return { ...(item !== undefined ? { item } : {}), job, jobId: job.id, record };
  }

  /** `suite "Smoke"`, `4 test case(s) of suite "Smoke" (shard 2/3)`, `2 test case(s)`, `1 test case(s) again (attempt 2)`. */
  #what(): string {
    const { plan, selection, attempt } = this.#options;
    const { runs } = this.queued;
    if (attempt > 1) return `${runs} test case(s) again (attempt ${attempt})`;
    const shard = selection.shard ? ` (shard ${shardText(selection.shard)})` : '';
    if (plan.suite && selection.testCases === undefined) return `suite "${plan.suite.name}"${shard}`;
    return `${runs} test case(s)${plan.suite ? ` of suite "${plan.suite.name}"` : ''}${shard}`;
  }
}

/** `5 of 12 jobs: 2 queued, 3 running, 0 passed, 0 failed; 30s elapsed`. */
function progressLine({ jobs, elapsedMs }: FollowProgress, expected: number | undefined): string {
  const counts = { queued: 0, running: 0, passed: 0, failed: 0 };
  for (const job of jobs) {
    const status = reportedStatus(job);
    if (status === 'queued') counts.queued += 1;
    else if (status === 'running') counts.running += 1;
    else if (status === 'passed') counts.passed += 1;
    else counts.failed += 1;
  }
  const of = expected !== undefined ? ` of ${expected}` : '';
  return `${jobs.length}${of} jobs: ${counts.queued} queued, ${counts.running} running, ${counts.passed} passed, ${counts.failed} failed; ${Math.round(elapsedMs / 1000)}s elapsed`;
}
