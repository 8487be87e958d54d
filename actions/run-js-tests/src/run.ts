/** Starts the JS unit tests on every platform, waits for them, judges and reports each platform. */
import path from 'node:path';
import {
  abortReasonOf,
  ActionError,
  describeFailure,
  shardText,
  type ActionResult,
  type Failure,
  type StepDeps,
} from '@sauce-actions/action-kit';
import { graceAfter, withDeadline } from '@sauce-actions/action-kit/cancellation';
import {
  failedJobAnnotations,
  flakyJobAnnotations,
  tallyJobs,
} from '@sauce-actions/action-kit/test-run/job-report';
import { writeJUnitFile } from '@sauce-actions/action-kit/test-run/junit';
import { checkOutputFiles, type OutputFileOwner } from '@sauce-actions/action-kit/output-files';
import {
  jsTestJobId,
  ApiError,
  jsTestFinished,
  jsTestPassed,
  jsTestsFinished,
  ResponseShapeError,
  TransportError,
  type AutomationJobs,
  type AutomationJsTests,
  type JsTestFramework,
  type JsTestPlatform,
  type JsTestStatus,
  type JsTestStatusAnswer,
  type SauceClient,
} from '@sauce-actions/api';
import type { JsTestsInputs } from './inputs.ts';
import { platformName } from './platforms.ts';
import { refusedStart } from './refusals.ts';
import {
  jsTestsSummary,
  junitSuites,
  reportedJobs,
  unmatchedStartSummary,
  writeResults,
  type JsTestsReport,
  type Outcome,
  type PlatformResult,
  type PlatformStatus,
} from './report.ts';
import { countsText, resultDurationSeconds, testCounts } from './results.ts';
import { JsTestsStateRecorder } from './state.ts';
import { stopJsTestJobs, type StopJsTestsResult } from './stop.ts';
import { waitForResults, type WaitResult } from './wait.ts';

export interface JsTestsDeps extends Pick<
  StepDeps,
  'logger' | 'signal' | 'clock' | 'tempDir' | 'workflow' | 'state'
> {
  client: Pick<SauceClient, 'jobUrl'> & {
    automation: {
      jsTests: Pick<AutomationJsTests, 'start' | 'getStatus'>;
      jobs: Pick<AutomationJobs, 'stop'>;
    };
  };
}

export type JsTestsOutputs = {
  total: number;
  passed: number;
  failed: number;
  /** Platforms that passed after failing on an earlier attempt (counted in `passed`). */
  flaky: number;
  /** A JSON array, as action.yml documents it. */
  'job-ids': string;
  'results-file': string;
};

/**
 * Time to stop the unfinished jobs after the wait ended early, on a deadline of its own: jobs
 * still queued get their id only when assigned, so the status is asked again meanwhile. The
 * runner kills a cancelled step about ten seconds after its SIGINT: that one must be quick.
 */
export const STOP_GRACE_MS: Record<'timeout' | 'cancelled' | 'status-failed', number> = {
  cancelled: 6000,
  timeout: 20_000,
  'status-failed': 5000,
};
/** How long the start request may outlive a cancellation or the `timeout`: its answer names the tests to stop. */
const START_GRACE_MS = 2500;
/** Least time between two progress lines that say nothing new. */
const QUIET_PROGRESS_MS = 60_000;
const RESULTS_OWNER: OutputFileOwner = {
  what: 'The results file',
  fix: "Check that the runner's temporary folder (RUNNER_TEMP) is a writable folder.",
};

export async function run(inputs: JsTestsInputs, deps: JsTestsDeps): Promise<ActionResult<JsTestsOutputs>> {
  const resultsFile = path.join(deps.tempDir, `run-js-tests-${deps.workflow.step ?? 'results'}.json`);
  // Before any request: a report that cannot be written is refused now, not after the run.
  await checkOutputFiles([
    ...(inputs.junitFile !== undefined
      ? [{ file: inputs.junitFile, owner: { input: 'junit-file' } satisfies OutputFileOwner }]
      : []),
    { file: resultsFile, owner: RESULTS_OWNER },
  ]);
  const deadline = withDeadline(deps.signal, inputs.timeoutMs);
  try {
    return await runUntil(deadline.signal, inputs, deps, resultsFile);
  } finally {
    deadline.dispose();
  }
}

/** One attempt at some platforms: every platform of `platforms` first, the failed ones on a retry. */
interface Round {
  platforms: PlatformResult[];
  /** Where each of `platforms` is in `inputs.platforms` (a platform may be listed twice). */
  places: number[];
  outcome: Outcome;
  stoppedJobs: string[];
  /** The status checks kept failing, or a retry could not start. */
  error?: unknown;
}

async function runUntil(
  signal: AbortSignal,
  inputs: JsTestsInputs,
  deps: JsTestsDeps,
  resultsFile: string,
): Promise<ActionResult<JsTestsOutputs>> {
  const started = deps.clock.now();
  const count = inputs.platforms.length;
  if (count === 0) return nothingToRun(inputs, deps, resultsFile);
  deps.logger.info(
    `Starting ${inputs.framework} tests of ${inputs.url} on ${count} platform${count === 1 ? '' : 's'}${inputs.shard ? ` (shard ${shardText(inputs.shard)} of ${inputs.shard.of})` : ''}: ${inputs.platforms.map(platformName).join('; ')}`,
  );
  let ids: unknown;
  try {
    ids = await start(inputs, deps, signal);
  } catch (error) {
    // The start succeeded, but its answer cannot be read: what it started cannot be followed.
    if (!(error instanceof ResponseShapeError)) throw error;
    return unmatchedStart(inputs, undefined, describeFailure(error, signal));
  }
  if (!Array.isArray(ids) || ids.length !== count) return unmatchedStart(inputs, ids);
  let last = await followRound(
    signal,
    inputs,
    deps,
    ids.map(String),
    started,
    inputs.platforms.map((_, n) => n),
  );
  const rounds = [last];
  let retryNotStarted: string | undefined;
  while (rounds.length <= inputs.retries && last.outcome === 'completed') {
    const round = last;
    const failed = round.platforms.flatMap((p, n) =>
      p.status === 'failed' || p.status === 'error' ? [{ p, place: round.places[n] as number }] : [],
    );
    if (failed.length === 0) break;
    const again = { ...inputs, platforms: failed.map(({ p }) => p.platform) };
    deps.logger.info(
      `Running ${failed.length} failed platform(s) again, attempt ${rounds.length + 1} of ${inputs.retries + 1} at most: ${failed.map(({ p }) => p.name).join('; ')}`,
    );
    const retry = await retryRound(
      signal,
      again,
      deps,
      started,
      failed.map(({ place }) => place),
    );
    if (retry.platforms.length === 0 && retry.error !== undefined && retry.outcome === 'completed') {
      // Nothing ran again: the platforms stand as the attempts before left them, and the step
      // fails or passes on them; why the retry did not run is a warning.
      retryNotStarted = `The failed platforms were not run again: ${describeFailure(retry.error, signal).message}`;
      deps.logger.warning(retryNotStarted);
      break;
    }
    last = retry;
    rounds.push(last);
  }
  const platforms = mergeAttempts(inputs.platforms, rounds);

  const report: JsTestsReport = {
    outcome: last.outcome,
    framework: inputs.framework,
    url: inputs.url,
    ...(inputs.shard !== undefined ? { shard: inputs.shard } : {}),
    ...(inputs.build !== undefined ? { build: inputs.build } : {}),
    ...(inputs.name !== undefined ? { name: inputs.name } : {}),
    ...(rounds.length > 1 ? { retries: inputs.retries } : {}),
    elapsedSeconds: Math.round((deps.clock.now() - started) / 1000),
    platforms,
    stoppedJobs: last.stoppedJobs,
  };
  // Writing the reports may fail: the outputs and the summary of the work done are returned all the same.
  const written = await writeReports(report, inputs, deps, resultsFile);
  const jobs = reportedJobs(report);
  const tally = tallyJobs(jobs);
  const outputs: JsTestsOutputs = {
    total: platforms.length,
    passed: tally.passed,
    failed: tally.failed,
    flaky: tally.flaky,
    'job-ids': JSON.stringify(
      platforms.flatMap((p) => [...(p.attempts ?? []), p].flatMap((run) => (run.jobId ? [run.jobId] : []))),
    ),
    'results-file': written.resultsFile,
  };
  deps.logger.info(
    `${outputs.passed} of ${outputs.total} platforms passed, ${outputs.failed} failed${outputs.flaky > 0 ? `, ${outputs.flaky} flaky` : ''} (${report.elapsedSeconds}s)`,
  );
  const failure =
    last.error !== undefined
      ? describeFailure(last.error, signal)
      : (failureOf(report, outputs, inputs.failOnFailure) ?? written.failure);
  if (failure !== written.failure && written.failure) deps.logger.warning(written.failure.message);
  return {
    outputs,
    summary: jsTestsSummary(report),
    annotations: [
      ...failedJobAnnotations(jobs, inputs.failOnFailure ? 'error' : 'warning'),
      ...flakyJobAnnotations(jobs),
      ...(retryNotStarted !== undefined ? [{ level: 'warning' as const, message: retryNotStarted }] : []),
    ],
    ...(failure !== undefined ? { failure } : {}),
  };
}

/** A retry: its start failing ends the retries, keeping what the rounds before found. */
async function retryRound(
  signal: AbortSignal,
  inputs: JsTestsInputs,
  deps: JsTestsDeps,
  started: number,
  places: number[],
): Promise<Round> {
  const unstarted = (error: unknown): Round => ({
    platforms: [],
    places: [],
    outcome: abortReasonOf(signal) ?? 'completed',
    stoppedJobs: [],
    error,
  });
  try {
    const ids = await start(inputs, deps, signal);
    if (!Array.isArray(ids) || ids.length !== inputs.platforms.length) {
      return unstarted(
        new ActionError(
          'service',
          `Sauce Labs answered the start of ${inputs.platforms.length} platform(s) again with ${Array.isArray(ids) ? ids.length : 'no'} test ids, so the retry could not be followed. Run the job again; report it if it repeats.`,
        ),
      );
    }
    return await followRound(signal, inputs, deps, ids.map(String), started, places);
  } catch (error) {
    return unstarted(error);
  }
}

/** Follows started tests to their end (or stops them when the wait ends first), and judges each platform. */
async function followRound(
  signal: AbortSignal,
  inputs: JsTestsInputs,
  deps: JsTestsDeps,
  ids: readonly string[],
  started: number,
  places: number[],
): Promise<Round> {
  const recorder = new JsTestsStateRecorder(deps.state, inputs.connection);
  recorder.record(ids);
  deps.logger.info(`Started the JS tests: ${ids.join(', ')}`);

  const progress = progressLogger(inputs, deps, started);
  let lastAnswer: JsTestStatusAnswer | undefined;
  let waited: WaitResult | undefined;
  let statusError: unknown;
  try {
    waited = await waitForResults(deps.client.automation.jsTests, {
      ids,
      intervalMs: inputs.pollIntervalMs,
      signal,
      clock: deps.clock,
      logger: deps.logger,
      onAnswer: (answer) => {
        lastAnswer = answer;
        recorder.record(ids, assignedJobs(answer));
        progress(platformsOf(inputs, ids, answer, deps));
      },
    });
  } catch (error) {
    statusError = error;
  }

  const early = waited === undefined ? 'status-failed' : (abortReasonOf(signal) ?? 'cancelled');
  const { answer, outcome, stopping } =
    waited?.ended === 'finished'
      ? { answer: waited.answer, outcome: 'completed' as const, stopping: undefined }
      : await stopEarly(ids, lastAnswer, early, deps);
  // Everything finished in the moment between the last poll and the end of the wait.
  if (outcome === 'completed') statusError = undefined;
  const platforms = platformsOf(inputs, ids, answer, deps);
  if (stopping) markStopped(platforms, stopping);
  const leftRunning = platforms.filter((p) => p.status === 'running' || p.status === 'queued');
  recorder.finish(
    leftRunning.map((p) => p.id),
    leftRunning.flatMap((p) => (p.jobId !== undefined ? [p.jobId] : [])),
  );
  return {
    platforms,
    places,
    outcome,
    stoppedJobs: stopping?.stopped ?? [],
    ...(statusError !== undefined ? { error: statusError } : {}),
  };
}

/**
 * Every platform by its last run, in the order of `platforms`, each with the runs before it as its
 * attempts: a platform that passed on a retry is flaky.
 */
function mergeAttempts(all: readonly JsTestPlatform[], rounds: readonly Round[]): PlatformResult[] {
  return all.flatMap((_, place) => {
    const runs = rounds.flatMap((round) => round.platforms.filter((_p, n) => round.places[n] === place));
    const final = runs.at(-1);
    if (final === undefined) return [];
    const attempts = runs.slice(0, -1).map(({ attempts: _earlier, ...run }) => run);
    return [attempts.length > 0 ? { ...final, attempts } : final];
  });
}

/** A shard whose share of the platforms is empty: nothing starts, the step passes and says so. */
async function nothingToRun(
  inputs: JsTestsInputs,
  deps: JsTestsDeps,
  resultsFile: string,
): Promise<ActionResult<JsTestsOutputs>> {
  const report: JsTestsReport = {
    outcome: 'completed',
    framework: inputs.framework,
    url: inputs.url,
    ...(inputs.shard !== undefined ? { shard: inputs.shard } : {}),
    ...(inputs.build !== undefined ? { build: inputs.build } : {}),
    ...(inputs.name !== undefined ? { name: inputs.name } : {}),
    elapsedSeconds: 0,
    platforms: [],
    stoppedJobs: [],
  };
  deps.logger.info('This shard has no platform to run.');
  const written = await writeReports(report, inputs, deps, resultsFile);
  return {
    outputs: {
      total: 0,
      passed: 0,
      failed: 0,
      flaky: 0,
      'job-ids': '[]',
      'results-file': written.resultsFile,
    },
    summary: jsTestsSummary(report),
    annotations: [],
    ...(written.failure !== undefined ? { failure: written.failure } : {}),
  };
}

/**
 * The test ids, one per platform in their order; a failed start fails before anything was done.
 * The request outlives a cancellation by a grace period: its answer names the tests to stop.
 */
async function start(inputs: JsTestsInputs, deps: JsTestsDeps, signal: AbortSignal): Promise<unknown> {
  signal.throwIfAborted();
  const grace = graceAfter(signal, START_GRACE_MS);
  try {
    const answer = await deps.client.automation.jsTests.start(
      {
        platforms: inputs.platforms,
        url: inputs.url,
        framework: inputs.framework,
        ...(inputs.tunnelName !== undefined ? { tunnelIdentifier: inputs.tunnelName } : {}),
        ...(inputs.build !== undefined ? { build: inputs.build } : {}),
        ...(inputs.name !== undefined ? { name: inputs.name } : {}),
        ...(inputs.tags.length > 0 ? { tags: inputs.tags } : {}),
        ...(inputs.maxDurationSeconds !== undefined ? { maxDuration: inputs.maxDurationSeconds } : {}),
        ...(Object.keys(inputs.capabilities).length > 0 ? { capabilities: inputs.capabilities } : {}),
      },
      { signal: grace.signal, sendUntil: signal },
    );
    return answer['js tests'];
  } catch (error) {
    throw cutOffStart(error, inputs, signal) ?? refusedStart(error, inputs);
  } finally {
    grace.dispose();
  }
}

/** The start request cut off with no answer: the tests may run, and cannot be identified. */
function cutOffStart(error: unknown, inputs: JsTestsInputs, signal: AbortSignal): ActionError | undefined {
  const aborted = abortReasonOf(signal);
  if (aborted === undefined) return undefined;
  // Refused, or never sent: nothing was started.
  if ((error instanceof ApiError || error instanceof TransportError) && !error.mayHaveBeenProcessed) {
    return undefined;
  }
  const how = aborted === 'timeout' ? 'Timed out' : 'Cancelled';
  const build = inputs.build !== undefined ? ` in build "${inputs.build}"` : '';
  return new ActionError(
    aborted,
    `${how} while the JS tests were being started: Sauce Labs did not answer within ${START_GRACE_MS / 1000}s, so the jobs it started, if any, could not be identified to be stopped. Look for jobs of ${inputs.url}${build} on the dashboard.${aborted === 'timeout' ? ' Raise `timeout` if the start needs longer.' : ''}`,
    { cause: error },
  );
}

/** Test ids that cannot be matched to the platforms (or none could be read): nothing can be followed. */
function unmatchedStart(
  inputs: JsTestsInputs,
  ids: unknown,
  unreadable?: Failure,
): ActionResult<JsTestsOutputs> {
  const testIds = Array.isArray(ids) ? ids.map(String) : [];
  const count = inputs.platforms.length;
  return {
    outputs: { total: count, passed: 0, failed: 0, flaky: 0, 'job-ids': '[]', 'results-file': '' },
    summary: unmatchedStartSummary(inputs.framework, inputs.url, inputs.platforms, testIds),
    annotations: [],
    failure: unreadable ?? {
      kind: 'service',
      message: `Sauce Labs answered the start of ${count} platforms with ${Array.isArray(ids) ? ids.length : 'no'} test ids. Run the job again; report it if it repeats.`,
    },
  };
}

/**
 * The results file, and the JUnit report when asked. A file that cannot be written becomes a
 * failure, never an exception: the outputs and the summary of the run still go out.
 */
async function writeReports(
  report: JsTestsReport,
  inputs: JsTestsInputs,
  deps: JsTestsDeps,
  resultsFile: string,
): Promise<{ resultsFile: string; failure?: Failure }> {
  try {
    await writeResults(resultsFile, report);
  } catch (error) {
    return { resultsFile: '', failure: describeFailure(error) };
  }
  if (inputs.junitFile === undefined) return { resultsFile };
  try {
    await writeJUnitFile(inputs.junitFile, junitSuites(report));
    deps.logger.info(`JUnit report written to ${inputs.junitFile}`);
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

/** Job ids an answer shows assigned. */
function assignedJobs(answer: JsTestStatusAnswer): string[] {
  return answer['js tests'].flatMap((entry) => jsTestJobId(entry) ?? []);
}

/** Every platform as the latest answer shows it, in the order the platforms were given. */
function platformsOf(
  inputs: JsTestsInputs,
  ids: readonly string[],
  answer: JsTestStatusAnswer | undefined,
  deps: JsTestsDeps,
): PlatformResult[] {
  const byId = new Map<string, JsTestStatus>();
  for (const entry of answer?.['js tests'] ?? []) byId.set(entry.id, entry);
  return ids.map((id, index) => {
    const entry = byId.get(id);
    const platform = (inputs.platforms[index] ?? entry?.platform ?? ['', '', '']) as JsTestPlatform;
    const jobId = entry && jsTestJobId(entry);
    const result = entry?.result ?? null;
    const base = {
      id,
      platform,
      name: platformName(platform),
      ...(jobId !== undefined ? { jobId, url: deps.client.jobUrl(jobId) } : {}),
      result,
    };
    const final = entry !== undefined && answer !== undefined && jsTestFinished(entry, answer.completed);
    // A result may show before the whole run completes; it is final for that platform.
    if (final || result !== null) return judged(inputs.framework, base, result);
    return { ...base, status: jobId !== undefined ? 'running' : 'queued' };
  });
}

function judged(
  framework: JsTestFramework,
  base: Omit<PlatformResult, 'status'>,
  result: JsTestStatus['result'],
): PlatformResult {
  if (result === null) {
    return {
      ...base,
      status: 'error',
      detail: 'the job ended without test results (it errored, timed out or was stopped)',
    };
  }
  // A text instead of the page's report: the service's reason the job ended, such as its maximum duration.
  if (typeof result === 'string') return { ...base, status: 'error', detail: result };
  const counts = testCounts(framework, result);
  const durationSeconds = resultDurationSeconds(framework, result);
  const passed = jsTestPassed(framework, result);
  const detail =
    countsText(counts) ?? (passed ? undefined : `the ${framework} result does not report a pass`);
  return {
    ...base,
    status: passed ? 'passed' : 'failed',
    ...(counts !== undefined ? { counts } : {}),
    ...(durationSeconds !== undefined ? { durationSeconds } : {}),
    ...(detail !== undefined ? { detail } : {}),
  };
}

/** A line when something changed, else one at most every `QUIET_PROGRESS_MS`. */
function progressLogger(
  inputs: JsTestsInputs,
  deps: JsTestsDeps,
  started: number,
): (platforms: PlatformResult[]) => void {
  let lastKey = '';
  let lastAt = 0;
  return (platforms) => {
    const counts = new Map<PlatformStatus, number>();
    for (const p of platforms) counts.set(p.status, (counts.get(p.status) ?? 0) + 1);
    const key = (['passed', 'failed', 'error', 'running', 'queued'] as const)
      .filter((status) => counts.has(status))
      .map((status) => `${counts.get(status)} ${status}`)
      .join(', ');
    const at = deps.clock.now();
    if (key === lastKey && at - lastAt < QUIET_PROGRESS_MS) return;
    lastKey = key;
    lastAt = at;
    const finished = platforms.filter((p) => p.status !== 'running' && p.status !== 'queued').length;
    deps.logger.info(
      `${finished} of ${inputs.platforms.length} platforms finished: ${key} (${Math.round((at - started) / 1000)}s)`,
    );
  };
}

/**
 * The wait ended before every platform did: the unfinished jobs are stopped, those still queued
 * as soon as they are assigned. The outcome is `completed` when the last answer shows everything
 * final and nothing had to be stopped.
 */
async function stopEarly(
  ids: readonly string[],
  last: JsTestStatusAnswer | undefined,
  why: 'timeout' | 'cancelled' | 'status-failed',
  deps: JsTestsDeps,
): Promise<{ answer: JsTestStatusAnswer | undefined; outcome: Outcome; stopping: StopJsTestsResult }> {
  deps.logger.warning(
    why === 'timeout'
      ? 'The timeout passed: stopping the unfinished jobs.'
      : why === 'cancelled'
        ? 'Cancelled: stopping the unfinished jobs.'
        : 'Checking the status failed: stopping the unfinished jobs.',
  );
  const stopping = await stopJsTestJobs({
    status: deps.client.automation.jsTests,
    jobs: deps.client.automation.jobs,
    ids,
    ...(last !== undefined ? { last } : {}),
    graceMs: STOP_GRACE_MS[why],
    intervalMs: 500,
  });
  logStopping(stopping, deps);
  const answer = stopping.answer ?? last;
  const nothingLeft = stopping.stopped.length === 0 && stopping.unassigned.length === 0;
  const outcome = nothingLeft && answer !== undefined && jsTestsFinished(answer) ? 'completed' : why;
  return { answer, outcome, stopping };
}

/** The platforms as the stopping left them: stopped, or why not. */
function markStopped(platforms: PlatformResult[], stopping: StopJsTestsResult): void {
  const stopped = new Set(stopping.stopped);
  const failed = new Map(stopping.failed.map((f) => [f.jobId, f.error]));
  const graceMs = stopping.graceMs;
  for (const p of platforms) {
    // A job stopped here ends without results, which the answer after the stop shows as an error.
    if (p.jobId !== undefined && stopped.has(p.jobId) && p.result === null) {
      p.status = 'stopped';
      p.detail = 'stopped before it finished';
    } else if (p.jobId !== undefined && failed.has(p.jobId)) {
      p.detail = `still running: it could not be stopped (${failed.get(p.jobId)})`;
    } else if (p.jobId === undefined && (p.status === 'running' || p.status === 'queued')) {
      p.detail = `no job was assigned within ${graceMs / 1000}s, so it could not be stopped; it may still run`;
    }
  }
}

function logStopping(stopping: StopJsTestsResult, deps: JsTestsDeps): void {
  const { graceMs } = stopping;
  if (stopping.stopped.length > 0) {
    deps.logger.info(`Stopped ${stopping.stopped.length} unfinished job(s): ${stopping.stopped.join(', ')}`);
  }
  for (const failed of stopping.failed) {
    deps.logger.warning(`Could not stop job ${failed.jobId}: ${failed.error}`);
  }
  if (stopping.unassigned.length > 0) {
    deps.logger.warning(
      `${stopping.unassigned.length} platform(s) had no job assigned within ${graceMs / 1000}s, so nothing could be stopped there: ${stopping.unassigned.join(', ')}`,
    );
  }
  if (stopping.error !== undefined) deps.logger.warning(`Checking the status failed: ${stopping.error}`);
}

/** Why the step fails once every platform was followed: the deadline, or failed platforms. */
function failureOf(
  report: JsTestsReport,
  outputs: JsTestsOutputs,
  failOnFailure: boolean,
): Failure | undefined {
  const failed = report.platforms.filter((p) => p.status === 'failed' || p.status === 'error');
  if (report.outcome === 'timeout' || report.outcome === 'cancelled') {
    const why =
      report.outcome === 'timeout'
        ? `The JS tests did not finish within the timeout (${report.elapsedSeconds}s)`
        : 'The run was cancelled before the JS tests finished';
    const finished = report.platforms.filter((p) => p.status === 'passed' || failed.includes(p));
    const unfinished = report.platforms.filter((p) => !finished.includes(p));
    const finishedText =
      finished.length > 0
        ? `Finished: ${finished.map((p) => `${p.name} ${p.status}`).join('; ')}.`
        : 'No platform finished.';
    const next =
      report.outcome === 'timeout'
        ? ' Raise `timeout`, or lower `max-duration` so that the tests end sooner.'
        : '';
    return {
      kind: report.outcome,
      message: `${why}. ${finishedText} Did not finish: ${unfinished.map((p) => `${p.name} (${p.detail ?? p.status})`).join('; ')}.${next}`,
    };
  }
  if (failed.length === 0 || !failOnFailure) return undefined;
  const failedText = failed.map((p) => `${p.name}${p.url ? ` (${p.url})` : ''}`).join('; ');
  return {
    kind: 'tests-failed',
    message: `${outputs.failed} of ${outputs.total} platforms failed the JS tests: ${failedText}. Open the job links to see the test page's results.`,
  };
}
