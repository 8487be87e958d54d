/** Runs a suite (or chosen test cases), follows every job to its end and reports. */
import path from 'node:path';
import {
  abortReasonOf,
  describeFailure,
  formatDuration,
  type ActionResult,
  type Failure,
  type Logger,
  type StepDeps,
} from '@sauce-actions/action-kit';
import { collectJobAssets, type AssetSource } from '@sauce-actions/action-kit/assets-artifact';
import { withDeadline } from '@sauce-actions/action-kit/cancellation';
import {
  followJobs,
  isJobFinished,
  stopJobs,
  type FollowProgress,
  type JobLister,
  type JobStopper,
} from '@sauce-actions/action-kit/job-follower';
import {
  failedJobAnnotations,
  isFailedJob,
  tallyJobs,
  writeResultsFile,
  type JobTally,
  type ReportedJob,
} from '@sauce-actions/action-kit/job-report';
import { writeJUnitFile } from '@sauce-actions/action-kit/junit';
import type { Job } from '@sauce-actions/api';
import type { SuiteInputs } from './inputs.ts';
import {
  junitSuites,
  reportedJobs,
  reportJob,
  resultsData,
  suiteOutputs,
  suiteSummary,
  type SuiteOutputs,
  type SuiteReport,
} from './report.ts';
import { defaultBuildName } from './selection.ts';
import {
  findSuite,
  nothingStarted,
  startRuns,
  type FoundSuite,
  type StartClient,
  type Started,
} from './start.ts';

/** Half the service's documented limit, leaving room for other steps on the account. */
const MAX_REQUESTS_PER_SECOND = 5;
const RESULTS_FILE = 'run-suite-and-wait-results.json';
/** Assets are fetched after the wait, whatever `timeout` is left: bounded on their own. */
const ASSETS_TIMEOUT_MS = 5 * 60_000;
/** The runner kills a cancelled step within seconds: stops must be quick then. */
const STOP_TIMEOUT_MS = { cancelled: 4000, timeout: 20_000 } as const;

export interface SuiteDeps extends Pick<
  StepDeps,
  'logger' | 'signal' | 'clock' | 'tempDir' | 'workflow' | 'artifacts'
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
}

export async function run(inputs: SuiteInputs, deps: SuiteDeps): Promise<ActionResult<SuiteOutputs>> {
  const deadline = withDeadline(deps.signal, inputs.timeoutMs);
  try {
    // What fails before any run is queued is thrown: the host words it (an abort names its reason).
    return await runUntil(inputs, deps, deadline.signal);
  } finally {
    deadline.dispose();
  }
}

async function runUntil(
  inputs: SuiteInputs,
  deps: SuiteDeps,
  signal: AbortSignal,
): Promise<ActionResult<SuiteOutputs>> {
  const startedAtMs = deps.clock.now();
  const suite =
    inputs.suite !== undefined ? await findSuite(deps.client.authoring, inputs.suite, signal) : undefined;
  const requestedBuild =
    inputs.buildName ?? defaultBuildName(suite?.name ?? 'Test cases', deps.workflow, new Date(startedAtMs));

  const started = nothingStarted();
  let waited: Waited | undefined;
  try {
    await startRuns(
      deps.client.authoring,
      {
        ...(suite ? { suite } : {}),
        ...(inputs.testCases ? { testCases: inputs.testCases } : {}),
        ...(inputs.targets ? { targets: inputs.targets } : {}),
        buildName: requestedBuild,
        ...(inputs.tunnelName !== undefined ? { tunnelName: inputs.tunnelName } : {}),
        maxRequestsPerSecond: MAX_REQUESTS_PER_SECOND,
        signal,
      },
      started,
    );
  } catch (error) {
    if (started.runs === 0) throw error;
    waited = endedBy(error, signal, { seen: [], complete: false, phase: 'start' });
  }
  const buildName = started.builds[0] ?? requestedBuild;
  waited ??= await waitForJobs(inputs, deps, signal, { suite, started, buildName, startedAtMs });

  const stopped = await stopUnfinished(inputs, deps, waited, started);
  const jobs = reportedJobs(waited.seen, started, (id) => deps.client.jobUrl(id), stopped, !waited.complete);
  const report: SuiteReport = {
    suite,
    buildName,
    builds: started.builds,
    jobs,
    seen: waited.seen,
    complete: waited.complete,
    ...endedOf(waited),
    ...noteOf(waited, started),
  };
  const tally = tallyJobs(jobs);
  deps.logger.info(`Jobs: ${tally.total}, passed ${tally.passed}, failed ${tally.failed}.`);
  const resultsFile = path.join(deps.tempDir, RESULTS_FILE);
  const result: ActionResult<SuiteOutputs> = {
    outputs: suiteOutputs(report, tally, resultsFile),
    summary: suiteSummary(report, tally),
    annotations: failedJobAnnotations(jobs),
  };
  const fileFailure = await writeFiles(inputs, deps, report, tally, resultsFile, new Date(startedAtMs));
  await uploadAssets(inputs, deps, jobs);
  const failure = failureOf(inputs, waited, report, tally, stopped, signal) ?? fileFailure;
  if (failure !== fileFailure && fileFailure) deps.logger.warning(fileFailure.message);
  return failure ? { ...result, failure } : result;
}

async function waitForJobs(
  inputs: SuiteInputs,
  deps: SuiteDeps,
  signal: AbortSignal,
  context: { suite: FoundSuite | undefined; started: Started; buildName: string; startedAtMs: number },
): Promise<Waited> {
  const { suite, started } = context;
  deps.logger.info(
    `Started ${suite ? `suite "${suite.name}"` : `${started.runs} test case(s)`} in build "${context.buildName}"` +
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
      signal,
      onPoll: (poll) => {
        lastSeen = [...poll.jobs];
        progress(poll);
      },
      now: () => deps.clock.now(),
      sleep: (ms, sleepSignal) => deps.clock.sleep(ms, sleepSignal),
    });
    deps.logger.debug(`Followed in ${followed.polls} poll(s), ${followed.requests} request(s).`);
    const waited: Waited = { seen: followed.jobs, complete: followed.complete, phase: 'wait' };
    return followed.complete ? waited : endedBy(undefined, signal, waited);
  } catch (error) {
    return endedBy(error, signal, { seen: lastSeen, complete: false, phase: 'wait' });
  }
}

/** Why the start or the wait ended early: the step's signal, else the error. */
function endedBy(error: unknown, signal: AbortSignal, waited: Waited): Waited {
  const aborted = abortReasonOf(signal);
  if (aborted !== undefined) return { ...waited, aborted };
  return error === undefined ? { ...waited, aborted: 'cancelled' } : { ...waited, error };
}

/** On timeout or cancellation, with `stop-on-cancel`, the jobs not finished are stopped. */
async function stopUnfinished(
  inputs: SuiteInputs,
  deps: SuiteDeps,
  waited: Waited,
  started: Started,
): Promise<Set<string>> {
  const stopped = new Set<string>();
  if (waited.aborted === undefined) return stopped;
  deps.logger.info(
    waited.aborted === 'timeout' ? 'Timeout reached: stopping the wait.' : 'Cancelled: stopping the wait.',
  );
  const unfinished = new Set(waited.seen.filter((job) => !isJobFinished(job)).map((job) => job.id));
  const seenIds = new Set(waited.seen.map((job) => job.id));
  for (const id of started.jobIds) if (!seenIds.has(id)) unfinished.add(id);
  if (!inputs.stopOnCancel || unfinished.size === 0) return stopped;

  const result = await stopJobs(deps.client.automation.jobs, [...unfinished], {
    signal: AbortSignal.timeout(STOP_TIMEOUT_MS[waited.aborted]),
    concurrency: 8,
    maxRequestsPerSecond: Math.max(MAX_REQUESTS_PER_SECOND, 8),
  });
  for (const id of result.stopped) stopped.add(id);
  deps.logger.info(
    `Stopped ${result.stopped.length} unfinished job(s)${result.failed.length ? `; ${result.failed.length} could not be stopped` : ''}.`,
  );
  for (const failed of result.failed) deps.logger.warning(`Could not stop job ${failed.id}: ${failed.error}`);
  return stopped;
}

function endedOf(waited: Waited): Pick<SuiteReport, 'ended'> {
  if (waited.aborted !== undefined) return { ended: waited.aborted };
  return waited.error !== undefined ? { ended: 'failed' } : {};
}

function noteOf(waited: Waited, started: Started): Pick<SuiteReport, 'note'> {
  if (waited.phase === 'start' && (waited.aborted !== undefined || waited.error !== undefined)) {
    return {
      note: `Starting the runs ended after ${started.runs} case run(s) were queued; their jobs were not followed.`,
    };
  }
  if (waited.aborted === 'timeout') return { note: 'The wait timed out before every job finished.' };
  if (waited.aborted === 'cancelled') return { note: 'The run was cancelled before every job finished.' };
  if (waited.error !== undefined) {
    return { note: 'Following the jobs failed before every job finished: the jobs are shown as last seen.' };
  }
  return {};
}

/** The results file, and the JUnit report when asked; a file that cannot be written fails the step. */
async function writeFiles(
  inputs: SuiteInputs,
  deps: SuiteDeps,
  report: SuiteReport,
  tally: JobTally,
  resultsFile: string,
  startedAt: Date,
): Promise<Failure | undefined> {
  try {
    await writeResultsFile(resultsFile, resultsData(report, tally));
    if (inputs.junitFile !== undefined) {
      const label = report.suite?.name ?? 'Test cases';
      await writeJUnitFile(inputs.junitFile, junitSuites(label, report.buildName, report.jobs, startedAt));
      deps.logger.info(`JUnit report written to ${inputs.junitFile}.`);
    }
    return undefined;
  } catch (error) {
    return describeFailure(error);
  }
}

/** What makes the step fail: the wait ended early, the start or the wait failed, or jobs failed. */
function failureOf(
  inputs: SuiteInputs,
  waited: Waited,
  report: SuiteReport,
  tally: JobTally,
  stopped: ReadonlySet<string>,
  signal: AbortSignal,
): Failure | undefined {
  const { buildName } = report;
  if (waited.aborted !== undefined) {
    const notFinished = tally.total - tally.finished;
    const where =
      waited.phase === 'start'
        ? `while starting the runs of build "${buildName}"`
        : `while waiting for build "${buildName}"`;
    const counts = `${tally.finished} of ${tally.total} job(s) finished (${tally.passed} passed, ${tally.failed} failed); ${notFinished} did not finish${stopped.size > 0 ? ` and ${stopped.size} were stopped` : ''}.`;
    if (waited.aborted === 'timeout') {
      return {
        kind: 'timeout',
        message: `Timed out ${where}: ${counts} Raise \`timeout\` (now ${formatDuration(inputs.timeoutMs)}) if the suite needs longer.`,
      };
    }
    return { kind: 'cancelled', message: `Cancelled ${where}: ${counts}` };
  }
  if (waited.error !== undefined) return describeFailure(waited.error, signal);
  if (tally.failed > 0 && inputs.failOnFailure) {
    const names = report.jobs.filter(isFailedJob).map((job) => `"${job.name}" (${job.platform})`);
    return {
      kind: 'tests-failed',
      message: `${tally.failed} of ${tally.total} job(s) failed in build "${buildName}": ${names.slice(0, 10).join(', ')}${names.length > 10 ? ', …' : ''}. See the step summary for links.`,
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
      signal: AbortSignal.any([deps.signal, AbortSignal.timeout(ASSETS_TIMEOUT_MS)]),
      maxRequestsPerSecond: MAX_REQUESTS_PER_SECOND,
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
      const status = reportJob(job, () => '', new Set()).status;
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
