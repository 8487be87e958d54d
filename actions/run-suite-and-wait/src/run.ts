/** Runs a suite (or chosen test cases), follows every job to its end and reports. */
import path from 'node:path';
import {
  abortReasonOf,
  ActionError,
  describeFailure,
  formatDuration,
  shardText,
  type ActionResult,
  type Failure,
  type Logger,
  type StepDeps,
} from '@sauce-actions/action-kit';
import { collectJobAssets, type AssetSource } from '@sauce-actions/action-kit/assets-artifact';
import { graceAfter, withDeadline } from '@sauce-actions/action-kit/cancellation';
import {
  followJobs,
  reportedStatus,
  stopRunJobs,
  type FollowProgress,
  type JobLister,
  type JobStopper,
} from '@sauce-actions/action-kit/test-run/job-follower';
import {
  failedJobAnnotations,
  flakyJobAnnotations,
  isFailedJob,
  listSome,
  retryNote,
  tallyJobs,
  writeResultsFile,
  type JobTally,
  type ReportedJob,
} from '@sauce-actions/action-kit/test-run/job-report';
import { writeJUnitFile } from '@sauce-actions/action-kit/test-run/junit';
import { checkOutputFiles, type OutputFileOwner } from '@sauce-actions/action-kit/output-files';
import { anySignal, type Job } from '@sauce-actions/api';
import type { SuiteInputs } from './inputs.ts';
import {
  junitSuites,
  platformOf,
  reportedJobs,
  resultsData,
  suiteOutputs,
  suiteSummary,
  type RerunSkipped,
  type SuiteOutputs,
  type SuiteReport,
} from './report.ts';
import { suiteComment } from './comment.ts';
import { CaseFinder, failedCases, mergeAttempts, type CaseJob, type KnownCase } from './attempts.ts';
import { planRuns, plannedCases, selectedCases, withoutCases, type Plan } from './plan.ts';
import { earlierBuildNames, findEarlierResults, type EarlierResults } from './rerun.ts';
import { defaultBuildName, type CaseSelection } from './selection.ts';
import {
  findSuite,
  nothingStarted,
  startRuns,
  type FoundSuite,
  type StartClient,
  type Started,
} from './start.ts';
import { RunStateRecorder } from './state.ts';

/** Half the service's documented limit, leaving room for other steps on the account. */
const MAX_REQUESTS_PER_SECOND = 5;
const RESULTS_OWNER: OutputFileOwner = {
  what: 'The results file',
  fix: "Check that the runner's temporary folder (RUNNER_TEMP) is a writable folder.",
};
/** Assets are fetched after the wait, whatever `timeout` is left: bounded on their own. */
const ASSETS_TIMEOUT_MS = 5 * 60_000;
/**
 * How long a request that queues runs may outlive a cancellation or the `timeout`: its answer
 * names the build, without which the jobs it queued cannot be found to be stopped.
 */
const START_GRACE_MS = 2500;
/**
 * Time to find and stop the unfinished jobs once the run ended early, on a deadline of its own.
 * The runner kills a cancelled step about ten seconds after its SIGINT: that one must be quick.
 */
const STOP_GRACE_MS = { cancelled: 5000, timeout: 20_000, failed: 10_000, 'fail-fast': 10_000 } as const;

export interface SuiteDeps extends Pick<
  StepDeps,
  'logger' | 'signal' | 'clock' | 'tempDir' | 'workflow' | 'artifacts' | 'state'
> {
  client: {
    authoring: StartClient;
    automation: { jobs: JobLister & JobStopper; assets: AssetSource };
    jobUrl(jobId: string): string;
  };
}

/** How the wait went: the jobs as last seen, and why it ended before they all finished. */
interface Waited {
  seen: Job[];
  complete: boolean;
  /** Set when the step's deadline or the cancellation ended the start or the wait. */
  aborted?: 'timeout' | 'cancelled';
  /** An error other than the abort that ended the start or the wait. */
  error?: unknown;
  /** Where it ended: starting the runs or waiting for their jobs. */
  phase: 'start' | 'wait';
  /** With `fail-fast`: the first job that failed with no attempt left, which ended the wait. */
  failedFast?: Job;
}

/** What became of the unfinished jobs of a run that ended early. */
interface Stopped {
  /** The run's jobs as last seen. */
  seen: Job[];
  ids: Set<string>;
  /** Unfinished jobs that could not be stopped. */
  failed: { id: string; error: string }[];
  /** Jobs the run has that never showed, so could not be stopped. */
  missing: number;
  /** Whether jobs were to be stopped (`stop-on-cancel`). */
  asked: boolean;
}

export async function run(inputs: SuiteInputs, deps: SuiteDeps): Promise<ActionResult<SuiteOutputs>> {
  // One file per step (the step's id): a job that runs two suites keeps both results.
  const resultsFile = path.join(deps.tempDir, `run-suite-and-wait-${deps.workflow.step ?? 'results'}.json`);
  // Before any request: a report that cannot be written is refused now, not after the run.
  await checkOutputFiles([
    ...(inputs.junitFile !== undefined
      ? [{ file: inputs.junitFile, owner: { input: 'junit-file' } satisfies OutputFileOwner }]
      : []),
    { file: resultsFile, owner: RESULTS_OWNER },
  ]);
  const deadline = withDeadline(deps.signal, inputs.timeoutMs);
  try {
    // What fails before any run is queued is thrown: the host words it (an abort names its reason).
    return await runUntil(inputs, deps, deadline.signal, resultsFile);
  } finally {
    deadline.dispose();
  }
}

/** One attempt at the planned cases (the first), or at the cases that failed (a retry). */
interface Round {
  attempt: number;
  started: Started;
  waited: Waited;
  stopped: Stopped;
  /** Its jobs, each with the case it ran when that is known. */
  jobs: CaseJob[];
}

async function runUntil(
  inputs: SuiteInputs,
  deps: SuiteDeps,
  signal: AbortSignal,
  resultsFile: string,
): Promise<ActionResult<SuiteOutputs>> {
  const startedAtMs = deps.clock.now();
  const suite =
    inputs.suite !== undefined ? await findSuite(deps.client.authoring, inputs.suite, signal) : undefined;
  const requestedBuild =
    inputs.buildName ?? defaultBuildName(suite?.name ?? 'Test cases', deps.workflow, new Date(startedAtMs));

  const planned = await planRuns(deps.client.authoring, inputs, suite, signal);
  const earlier = await earlierAttempts(inputs, deps, signal, {
    label: suite?.name ?? 'Test cases',
    plan: planned,
    startedAtMs,
  });
  const passedBefore = new Set(earlier?.passed.map(({ testCase }) => testCase.id));
  const plan = withoutCases(planned, passedBefore);
  const toRun = plannedCases(plan);
  const context = { suite, plan, buildName: requestedBuild, startedAtMs };

  // A shard with no case to run has no round: nothing to wait for, and it passes.
  const rounds: Round[] = [];
  let retryNotStarted: string | undefined;
  for (let next = toRun > 0 ? plan : undefined; next !== undefined;) {
    const round = await runRound(inputs, deps, signal, {
      ...context,
      attempt: rounds.length + 1,
      selection: next,
    });
    const { waited } = round;
    if (rounds.length > 0 && round.started.runs === 0 && waited.error !== undefined && !waited.aborted) {
      // Nothing ran again: the jobs stand as the attempts before left them, and the step fails or
      // passes on them; why the retry did not run is a warning.
      retryNotStarted = `The failed cases were not run again: ${describeFailure(waited.error, signal).message}`;
      deps.logger.warning(retryNotStarted);
      break;
    }
    rounds.push(round);
    next = retryOf(inputs, deps, context, round);
  }

  const last = rounds.at(-1);
  const waited: Waited = last?.waited ?? { seen: [], complete: true, phase: 'wait' };
  const stopped: Stopped = last?.stopped ?? {
    seen: [],
    ids: new Set(),
    failed: [],
    missing: 0,
    asked: false,
  };
  const jobs = mergeAttempts(rounds.map((round) => round.jobs));
  const tally = tallyJobs(jobs);
  const notes = [
    ...(rounds.length > 1
      ? [retryNote(jobs, { what: 'jobs', retries: inputs.retries, attemptsInAll: rounds.length })]
      : []),
    ...(last ? [noteOf(last.waited, last.started, last.stopped)] : []),
  ].filter((note) => note !== undefined);
  const report: SuiteReport = {
    suite,
    ...(plan.shard ? { shard: { ...plan.shard, cases: plannedCases(planned), of: plan.selected } } : {}),
    planned: toRun,
    ...(earlier ? { rerun: rerunReport(earlier, deps) } : {}),
    buildName: rounds[0]?.started.builds[0] ?? (toRun > 0 ? requestedBuild : ''),
    builds: rounds.flatMap((round) => round.started.builds),
    jobs,
    seen: rounds.flatMap((round) => round.stopped.seen),
    complete: waited.complete,
    ...endedOf(waited),
    ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
  };
  deps.logger.info(
    `Jobs: ${tally.total}, passed ${tally.passed}, failed ${tally.failed}${tally.flaky > 0 ? `, flaky ${tally.flaky}` : ''}.`,
  );
  // Writing the reports may fail: the outputs and the summary of the work done are returned all the same.
  const written = await writeFiles(inputs, deps, report, tally, resultsFile, new Date(startedAtMs));
  const result: ActionResult<SuiteOutputs> = {
    outputs: suiteOutputs(report, tally, written.resultsFile),
    summary: suiteSummary(report, tally),
    annotations: [
      ...failedJobAnnotations(jobs, inputs.failOnFailure ? 'error' : 'warning'),
      ...flakyJobAnnotations(jobs),
      ...(retryNotStarted !== undefined ? [{ level: 'warning' as const, message: retryNotStarted }] : []),
    ],
    ...(inputs.prComment ? { comment: suiteComment(inputs, report, tally) } : {}),
  };
  await uploadAssets(inputs, deps, jobs);
  const failure = failureOf(inputs, waited, report, tally, stopped, signal) ?? written.failure;
  if (failure !== written.failure && written.failure) deps.logger.warning(written.failure.message);
  return failure ? { ...result, failure } : result;
}

/**
 * With `rerun-failed`, on an attempt after the first: the earlier attempts' results of the planned
 * cases. None when there is nothing to look for; a search that fails is told and everything runs.
 */
async function earlierAttempts(
  inputs: SuiteInputs,
  deps: SuiteDeps,
  signal: AbortSignal,
  context: { label: string; plan: Plan; startedAtMs: number },
): Promise<EarlierResults | undefined> {
  if (!inputs.rerunFailed || plannedCases(context.plan) === 0) return undefined;
  const now = new Date(context.startedAtMs);
  const earlier = earlierBuildNames(context.label, inputs.buildName, deps.workflow, now);
  if (earlier === undefined) {
    if (Number(deps.workflow.runAttempt ?? '1') > 1) {
      deps.logger.warning(
        'This is a re-run, but without the run number the build names of the earlier attempts cannot be known: every case runs.',
      );
    }
    return undefined;
  }
  try {
    const results = await findEarlierResults(deps.client.automation.jobs, {
      cases: selectedCases(context.plan),
      known: knownCases(context.plan),
      ...earlier,
      nowMs: context.startedAtMs,
      signal,
      maxRequestsPerSecond: MAX_REQUESTS_PER_SECOND,
    });
    deps.logger.info(
      `Attempt ${earlier.attempt}: ${results.found} job(s) of earlier attempts found in build(s) "${earlier.builds.join('", "')}"; ${results.passed.length} of ${plannedCases(context.plan)} case(s) passed there and are not run again.`,
    );
    return results;
  } catch (error) {
    if (signal.aborted) throw error;
    deps.logger.warning(
      `Could not read the results of the earlier attempts (${(error as Error).message}): every case runs.`,
    );
    return undefined;
  }
}

function rerunReport(earlier: EarlierResults, deps: SuiteDeps): RerunSkipped {
  return {
    attempt: earlier.attempt,
    builds: earlier.builds,
    cases: earlier.passed.map(({ testCase, jobs }) => ({
      name: testCase.name ?? testCase.id,
      jobs: jobs.map((job) => ({ id: job.id, url: deps.client.jobUrl(job.id), platform: job.platform })),
    })),
    found: earlier.found,
    capped: earlier.capped,
  };
}

/**
 * Starts the selection, follows its jobs to their end, and stops them if the run ends first. The
 * first round throws what fails before anything was queued; a retry reports it with the rounds
 * before it.
 */
async function runRound(
  inputs: SuiteInputs,
  deps: SuiteDeps,
  signal: AbortSignal,
  context: {
    suite: FoundSuite | undefined;
    plan: Plan;
    selection: Plan;
    attempt: number;
    buildName: string;
    startedAtMs: number;
  },
): Promise<Round> {
  const { startedAtMs } = context;
  const started = nothingStarted();
  // Reads `started.caseOfJob` as the case runs answer.
  const finder = new CaseFinder(knownCases(context.plan), started.caseOfJob);
  /** A job that failed and will not run again: its case has no attempt left, or cannot be told. */
  const failsForGood = (job: Job): boolean => {
    const status = reportedStatus(job);
    if (status !== 'failed' && status !== 'error') return false;
    return context.attempt > inputs.retries || finder.caseOf(job) === undefined;
  };
  // Without `stop-on-cancel` nothing is to be stopped, so nothing is left for the post step.
  const recorder = inputs.stopOnCancel
    ? new RunStateRecorder(deps.state, inputs.connection, startedAtMs)
    : undefined;
  const startEnded = await startPlanned(inputs, deps, signal, {
    ...context,
    plan: context.selection,
    started,
    rethrow: context.attempt === 1,
    onQueued: () => recorder?.record(started),
  });
  const waited =
    startEnded ??
    (await waitForJobs(inputs, deps, signal, {
      what: startedWhat(context.suite, context.selection, started, context.attempt),
      started,
      buildName: started.builds[0] ?? context.buildName,
      startedAtMs,
      onSeen: (ids) => recorder?.record(started, ids),
      ...(inputs.failFast ? { failsFast: failsForGood } : {}),
    }));
  const stopped = await stopUnfinished(inputs, deps, waited, started, startedAtMs);
  recorder?.finish(
    started,
    stopped.failed.map((failed) => failed.id),
    stopped.missing,
  );
  const reported = reportedJobs(
    stopped.seen,
    started,
    (id) => deps.client.jobUrl(id),
    stopped.ids,
    !waited.complete,
  );
  const records = new Map(stopped.seen.map((job) => [job.id, job]));
  const jobs = reported.map((job): CaseJob => {
    const record = records.get(job.id);
    const caseId = finder.caseOf(record ?? { id: job.id });
    return {
      job,
      ...(caseId !== undefined ? { caseId } : {}),
      ...(record?.build ? { build: record.build } : {}),
    };
  });
  return { attempt: context.attempt, started, waited, stopped, jobs };
}

/** The cases of the plan by id and name, to tell which case each job ran. */
function knownCases(plan: Plan): KnownCase[] {
  return plan.suiteCases ?? plan.testCases ?? [];
}

/**
 * The next round: the cases whose jobs failed, while `retries` lasts, each in the build of the run
 * it repeats. None when the round ended early or nothing failed.
 */
function retryOf(
  inputs: SuiteInputs,
  deps: SuiteDeps,
  context: { plan: Plan },
  round: Round,
): Plan | undefined {
  if (!round.waited.complete || round.attempt > inputs.retries) return undefined;
  const untraced = round.jobs.filter(({ job, caseId }) => caseId === undefined && isFailedJob(job));
  if (untraced.length > 0) {
    deps.logger.warning(
      `${untraced.length} failed job(s) could not be traced to their test case, so they are not run again: ${listSome(untraced.map(({ job }) => `"${job.name}" (${job.id})`))}.`,
    );
  }
  const failed = failedCases(round.jobs);
  if (failed.length === 0) return undefined;
  const { plan } = context;
  const chosen = new Map(selectedCases(plan).map((testCase) => [testCase.id, testCase]));
  const testCases = failed.map(({ caseId, build }): CaseSelection => ({
    ...(chosen.get(caseId) ?? { id: caseId }),
    ...(build !== undefined ? { buildName: build } : {}),
  }));
  deps.logger.info(
    `Running ${testCases.length} failed test case(s) again, attempt ${round.attempt + 1} of ${inputs.retries + 1} at most: ${listSome(testCases.map((testCase) => testCase.name ?? testCase.id))}.`,
  );
  return { testCases, selected: plan.selected };
}

/** What the retries came to: how many cases were run again, how many passed then (flaky), how many never. */
/**
 * Queues the planned runs. What fails before any run is queued is thrown; after, the start ended
 * early and the runs queued are still followed or stopped.
 */
async function startPlanned(
  inputs: SuiteInputs,
  deps: SuiteDeps,
  signal: AbortSignal,
  context: {
    plan: Plan;
    suite: FoundSuite | undefined;
    buildName: string;
    started: Started;
    /** Whether a start that queued nothing throws (the first round) or ends the round (a retry). */
    rethrow: boolean;
    onQueued: () => void;
  },
): Promise<Waited | undefined> {
  const { plan, suite, started } = context;
  const startGrace = graceAfter(signal, START_GRACE_MS);
  try {
    await startRuns(
      deps.client.authoring,
      {
        ...(suite ? { suite } : {}),
        ...(plan.suiteCases ? { suiteCases: plan.suiteCases } : {}),
        ...(plan.testCases ? { testCases: plan.testCases } : {}),
        ...(inputs.targets ? { targets: inputs.targets } : {}),
        buildName: context.buildName,
        ...(inputs.tunnelName !== undefined ? { tunnelName: inputs.tunnelName } : {}),
        maxRequestsPerSecond: MAX_REQUESTS_PER_SECOND,
        signal,
        requestSignal: startGrace.signal,
        onQueued: context.onQueued,
      },
      started,
    );
    return undefined;
  } catch (error) {
    if (started.runs === 0 && context.rethrow)
      throw started.unanswered !== undefined ? cutOffStart(inputs, started, signal, error) : error;
    return endedBy(error, signal, { seen: [], complete: false, phase: 'start' });
  } finally {
    startGrace.dispose();
  }
}

/** A start request cut off with no answer and nothing known to be queued: say what may run. */
function cutOffStart(inputs: SuiteInputs, started: Started, signal: AbortSignal, error: unknown): unknown {
  const aborted = abortReasonOf(signal);
  if (aborted === undefined) return error;
  const build = started.unanswered ?? '';
  const how = aborted === 'timeout' ? 'Timed out' : 'Cancelled';
  const next =
    aborted === 'timeout'
      ? ` Raise \`timeout\` (now ${formatDuration(inputs.timeoutMs)}) if starting needs longer.`
      : '';
  return new ActionError(
    aborted,
    `${how} while the runs of build "${build}" were being queued: Sauce Labs did not answer within ${START_GRACE_MS / 1000}s, so what it queued, if anything, could not be identified to be stopped. Look for build "${build}" (or with a suffix such as " - 1") on the dashboard.${next}`,
    { cause: error },
  );
}

async function waitForJobs(
  inputs: SuiteInputs,
  deps: SuiteDeps,
  signal: AbortSignal,
  context: {
    /** What was started, for the log. */
    what: string;
    started: Started;
    buildName: string;
    startedAtMs: number;
    onSeen: (ids: string[]) => void;
    /** With `fail-fast`: whether a job failed with no attempt left, which ends the wait at once. */
    failsFast?: (job: Job) => boolean;
  },
): Promise<Waited> {
  const { started, failsFast } = context;
  const failFast = new AbortController();
  let failedFast: Job | undefined;
  deps.logger.info(
    `Started ${context.what} in build "${context.buildName}"` +
      (started.expectedCount !== undefined ? `: ${started.expectedCount} job(s) expected.` : '.'),
  );
  const progress = progressLogger(deps.logger, started.expectedCount);
  let lastSeen: Job[] = [];
  try {
    const followed = await followJobs({
      jobs: deps.client.automation.jobs,
      builds: started.builds,
      jobIds: started.jobIds,
      ...(started.expectedCount !== undefined ? { expectedCount: started.expectedCount } : {}),
      ...(started.minimumCount !== undefined ? { minimumCount: started.minimumCount } : {}),
      startedAtMs: context.startedAtMs,
      intervalMs: inputs.pollIntervalMs,
      maxRequestsPerSecond: MAX_REQUESTS_PER_SECOND,
      signal: anySignal(signal, failFast.signal),
      onPoll: (poll) => {
        lastSeen = [...poll.jobs];
        context.onSeen(lastSeen.map((job) => job.id));
        progress(poll);
        failedFast ??= failsFast ? lastSeen.find(failsFast) : undefined;
        if (failedFast) failFast.abort();
      },
      now: () => deps.clock.now(),
      sleep: (ms, sleepSignal) => deps.clock.sleep(ms, sleepSignal),
      warn: (message) => deps.logger.warning(message),
    });
    deps.logger.debug(`Followed in ${followed.polls} poll(s), ${followed.requests} request(s).`);
    const waited: Waited = { seen: followed.jobs, complete: followed.complete, phase: 'wait' };
    if (followed.complete) return waited;
    return failedFast && !signal.aborted ? { ...waited, failedFast } : endedBy(undefined, signal, waited);
  } catch (error) {
    return endedBy(error, signal, { seen: lastSeen, complete: false, phase: 'wait' });
  }
}

/** `suite "Smoke"`, `4 test case(s) of suite "Smoke" (shard 2/3)`, `2 test case(s)`, `1 test case(s) again (attempt 2)`. */
function startedWhat(suite: FoundSuite | undefined, plan: Plan, started: Started, attempt: number): string {
  if (attempt > 1) return `${started.runs} test case(s) again (attempt ${attempt})`;
  const shard = plan.shard ? ` (shard ${shardText(plan.shard)})` : '';
  if (suite && plan.testCases === undefined) return `suite "${suite.name}"${shard}`;
  return `${started.runs} test case(s)${suite ? ` of suite "${suite.name}"` : ''}${shard}`;
}

/** Why the start or the wait ended early: the step's signal, else the error. */
function endedBy(error: unknown, signal: AbortSignal, waited: Waited): Waited {
  const aborted = abortReasonOf(signal);
  if (aborted !== undefined) return { ...waited, aborted };
  return error === undefined ? { ...waited, aborted: 'cancelled' } : { ...waited, error };
}

/**
 * When the run ended before its jobs did (timeout, cancellation, a failed start or wait), its
 * jobs are found, even those no poll saw yet, and with `stop-on-cancel` the unfinished ones are
 * stopped: nobody follows them any more.
 */
async function stopUnfinished(
  inputs: SuiteInputs,
  deps: SuiteDeps,
  waited: Waited,
  started: Started,
  startedAtMs: number,
): Promise<Stopped> {
  const none: Stopped = { seen: waited.seen, ids: new Set(), failed: [], missing: 0, asked: false };
  if (waited.complete || (started.builds.length === 0 && started.jobIds.length === 0)) return none;
  const why = waited.aborted ?? (waited.failedFast ? 'fail-fast' : 'failed');
  deps.logger.info(
    why === 'timeout'
      ? 'Timeout reached: stopping the wait.'
      : why === 'cancelled'
        ? 'Cancelled: stopping the wait.'
        : why === 'fail-fast'
          ? `Fail fast: job "${waited.failedFast?.name ?? waited.failedFast?.id}" failed with no attempt left; stopping the jobs still queued or running.`
          : 'The run ended before its jobs did.',
  );
  const graceMs = STOP_GRACE_MS[why];
  // `fail-fast` asks for the rest to be stopped, whatever `stop-on-cancel` says.
  const stop = inputs.stopOnCancel || why === 'fail-fast';
  const found = await stopRunJobs({
    jobs: deps.client.automation.jobs,
    builds: started.builds,
    jobIds: started.jobIds,
    seen: waited.seen,
    ...(started.expectedCount !== undefined ? { expectedCount: started.expectedCount } : {}),
    ...(started.minimumCount !== undefined ? { minimumCount: started.minimumCount } : {}),
    startedAtMs,
    stop,
    graceMs,
    intervalMs: 500,
    maxRequestsPerSecond: Math.max(MAX_REQUESTS_PER_SECOND, 8),
    now: () => deps.clock.now(),
  });
  if (found.error !== undefined) deps.logger.warning(`Listing the jobs of the run failed: ${found.error}`);
  if (stop) {
    deps.logger.info(
      `Stopped ${found.stopped.length} unfinished job(s)${found.failed.length ? `; ${found.failed.length} could not be stopped` : ''}.`,
    );
    for (const failed of found.failed)
      deps.logger.warning(`Could not stop job ${failed.id}: ${failed.error}`);
  }
  if (found.missing > 0) {
    deps.logger.warning(
      `${found.missing} job(s) of build "${started.builds.join('", "')}" did not show within ${graceMs / 1000}s${stop ? ', so they could not be stopped' : ''}.`,
    );
  }
  return {
    seen: found.jobs,
    ids: new Set(found.stopped),
    failed: found.failed,
    missing: found.missing,
    asked: stop,
  };
}

function endedOf(waited: Waited): Pick<SuiteReport, 'ended'> {
  if (waited.aborted !== undefined) return { ended: waited.aborted };
  if (waited.failedFast !== undefined) return { ended: 'fail-fast' };
  return waited.error !== undefined ? { ended: 'failed' } : {};
}

function noteOf(waited: Waited, started: Started, stopped: Stopped): string | undefined {
  const stoppedText = stopped.ids.size > 0 ? ` ${stopped.ids.size} unfinished job(s) were stopped.` : '';
  const missingText =
    stopped.missing > 0
      ? ` ${stopped.missing} job(s) the runs queued did not show in time${stopped.asked ? ' and could not be stopped' : ''}.`
      : '';
  const unanswered =
    started.unanswered !== undefined
      ? ` One more start request got no answer: what it queued, if anything, could not be identified.`
      : '';
  const after = `${stoppedText}${missingText}${unanswered}`;
  if (waited.phase === 'start' && (waited.aborted !== undefined || waited.error !== undefined)) {
    return `Starting the runs ended after ${started.runs} case run(s) were queued; their jobs were not followed.${after}`;
  }
  if (waited.aborted === 'timeout') return `The wait timed out before every job finished.${after}`;
  if (waited.aborted === 'cancelled') return `The run was cancelled before every job finished.${after}`;
  if (waited.error !== undefined) {
    return `Following the jobs failed before every job finished: the jobs are shown as last seen.${after}`;
  }
  if (waited.failedFast !== undefined) {
    const job = waited.failedFast;
    return `Fail fast: "${job.name ?? job.id}" (${platformOf(job)}) failed with no attempt left, so the jobs still queued or running were stopped and no more attempts were made.${after}`;
  }
  return undefined;
}

/**
 * The results file, and the JUnit report when asked. A file that cannot be written becomes a
 * failure, never an exception: the outputs and the summary of the run still go out.
 */
async function writeFiles(
  inputs: SuiteInputs,
  deps: SuiteDeps,
  report: SuiteReport,
  tally: JobTally,
  resultsFile: string,
  startedAt: Date,
): Promise<{ resultsFile: string; failure?: Failure }> {
  try {
    await writeResultsFile(resultsFile, resultsData(report, tally));
  } catch (error) {
    return { resultsFile: '', failure: describeFailure(error) };
  }
  if (inputs.junitFile === undefined) return { resultsFile };
  try {
    const label = report.suite?.name ?? 'Test cases';
    await writeJUnitFile(inputs.junitFile, junitSuites(label, report.buildName, report.jobs, startedAt));
    deps.logger.info(`JUnit report written to ${inputs.junitFile}.`);
    return { resultsFile };
  } catch (error) {
    return {
      resultsFile,
      failure: {
        kind: 'input',
        message: `Could not write the JUnit report to ${inputs.junitFile} (\`junit-file\`): ${(error as Error).message}. The run's outputs and summary are complete; fix \`junit-file\` for the next run.`,
      },
    };
  }
}

/** What makes the step fail: the wait ended early, the start or the wait failed, or jobs failed. */
function failureOf(
  inputs: SuiteInputs,
  waited: Waited,
  report: SuiteReport,
  tally: JobTally,
  stopped: Stopped,
  signal: AbortSignal,
): Failure | undefined {
  const { buildName } = report;
  const missing =
    stopped.missing > 0
      ? ` ${stopped.missing} more job(s) the runs queued did not show in time${stopped.asked ? ' and could not be stopped' : ''}.`
      : '';
  if (waited.aborted !== undefined) {
    const notFinished = tally.total - tally.finished;
    const where =
      waited.phase === 'start'
        ? `while starting the runs of build "${buildName}"`
        : `while waiting for build "${buildName}"`;
    const counts = `${tally.finished} of ${tally.total} job(s) finished (${tally.passed} passed, ${tally.failed} failed); ${notFinished} did not finish${stopped.ids.size > 0 ? ` and ${stopped.ids.size} were stopped` : ''}.${missing}`;
    if (waited.aborted === 'timeout') {
      return {
        kind: 'timeout',
        message: `Timed out ${where}: ${counts} Raise \`timeout\` (now ${formatDuration(inputs.timeoutMs)}) if the suite needs longer.`,
      };
    }
    return { kind: 'cancelled', message: `Cancelled ${where}: ${counts}` };
  }
  if (waited.error !== undefined) {
    const failure = describeFailure(waited.error, signal);
    const stoppedText =
      stopped.ids.size > 0
        ? ` The ${stopped.ids.size} unfinished job(s) of build "${buildName}" were stopped.`
        : '';
    return { ...failure, message: `${failure.message}${stoppedText}${missing}` };
  }
  if (tally.failed > 0 && inputs.failOnFailure) {
    const names = report.jobs
      .filter(isFailedJob)
      .map(
        (job) =>
          `"${job.name}" (${job.platform}${job.attempts?.length ? `, all ${job.attempts.length + 1} attempts` : ''})`,
      );
    const fast =
      waited.failedFast !== undefined
        ? ` \`fail-fast\` stopped the ${stopped.ids.size} job(s) still queued or running.${missing}`
        : '';
    return {
      kind: 'tests-failed',
      message: `${tally.failed} of ${tally.total} job(s) failed in build "${buildName}": ${names.slice(0, 10).join(', ')}${names.length > 10 ? ', …' : ''}.${fast} See the step summary for links.`,
    };
  }
  return undefined;
}

/** The assets of the chosen jobs as one artifact; a missing artifact never fails the run. */
async function uploadAssets(
  inputs: SuiteInputs,
  deps: SuiteDeps,
  jobs: readonly ReportedJob[],
): Promise<void> {
  // A cancelled step is killed within seconds: no time for downloads.
  if (inputs.downloadAssets === 'none' || deps.signal.aborted) return;
  const chosen = inputs.downloadAssets === 'all' ? jobs : jobs.filter(isFailedJob);
  if (chosen.length === 0) return;
  try {
    await collectJobAssets({
      assets: deps.client.automation.assets,
      jobs: chosen,
      dir: path.join(deps.tempDir, 'sauce-job-assets'),
      artifactName: `sauce-job-assets-${deps.workflow.job ?? 'run'}`,
      logger: deps.logger,
      artifacts: deps.artifacts,
      signal: anySignal(deps.signal, AbortSignal.timeout(ASSETS_TIMEOUT_MS)),
      maxRequestsPerSecond: MAX_REQUESTS_PER_SECOND,
      limit: { bytes: inputs.maxAssetsBytes, input: 'max-assets-size' },
    });
  } catch (error) {
    deps.logger.warning(`Could not upload the job assets: ${(error as Error).message}`);
  }
}

/** One line per poll at most: when something changed, or once a minute while nothing does. */
function progressLogger(logger: Logger, expected: number | undefined): (poll: FollowProgress) => void {
  let lastLineAt = -Infinity;
  return ({ jobs, changed, elapsedMs }) => {
    if (!changed && elapsedMs - lastLineAt < 60_000) return;
    lastLineAt = elapsedMs;
    const counts = { queued: 0, running: 0, passed: 0, failed: 0 };
    for (const job of jobs) {
      const status = reportedStatus(job);
      if (status === 'queued') counts.queued += 1;
      else if (status === 'running') counts.running += 1;
      else if (status === 'passed') counts.passed += 1;
      else counts.failed += 1;
    }
    const of = expected !== undefined ? ` of ${expected}` : '';
    logger.info(
      `${jobs.length}${of} jobs: ${counts.queued} queued, ${counts.running} running, ${counts.passed} passed, ${counts.failed} failed; ${Math.round(elapsedMs / 1000)}s elapsed`,
    );
  };
}
