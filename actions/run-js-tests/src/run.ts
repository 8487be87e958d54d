/** Starts the JS unit tests on every platform, waits for them, judges and reports each platform. */
import path from 'node:path';
import {
  abortReasonOf,
  describeFailure,
  type ActionResult,
  type Failure,
  type StepDeps,
} from '@sauce-actions/action-kit';
import { withDeadline } from '@sauce-actions/action-kit/cancellation';
import { failedJobAnnotations, tallyJobs } from '@sauce-actions/action-kit/job-report';
import { writeJUnitFile } from '@sauce-actions/action-kit/junit';
import {
  jsTestFinished,
  jsTestPassed,
  jsTestsFinished,
  type AutomationJobs,
  type AutomationJsTests,
  type JsTestFramework,
  type JsTestPlatform,
  type JsTestResult,
  type JsTestStatus,
  type JsTestStatusAnswer,
  type SauceClient,
} from '@sauce-actions/api';
import type { JsTestsInputs } from './inputs.ts';
import { platformName } from './platforms.ts';
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
import { waitForResults, type WaitResult } from './wait.ts';

export interface JsTestsDeps extends Pick<StepDeps, 'logger' | 'signal' | 'clock' | 'tempDir' | 'workflow'> {
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
  /** A JSON array, as action.yml documents it. */
  'job-ids': string;
  'results-file': string;
};

/** Time allowed to stop the unfinished jobs after a timeout or cancellation. */
const STOP_TIMEOUT_MS = 10_000;
/** The one status check after a timeout or cancellation is quicker still. */
const LAST_LOOK_TIMEOUT_MS = 5000;
/** Least time between two progress lines that say nothing new. */
const QUIET_PROGRESS_MS = 60_000;

const JOB_ID = /^[0-9a-z]{32}$/i;

export async function run(inputs: JsTestsInputs, deps: JsTestsDeps): Promise<ActionResult<JsTestsOutputs>> {
  const deadline = withDeadline(deps.signal, inputs.timeoutMs);
  try {
    return await runUntil(deadline.signal, inputs, deps);
  } finally {
    deadline.dispose();
  }
}

async function runUntil(
  signal: AbortSignal,
  inputs: JsTestsInputs,
  deps: JsTestsDeps,
): Promise<ActionResult<JsTestsOutputs>> {
  const started = deps.clock.now();
  const count = inputs.platforms.length;
  deps.logger.info(
    `Starting ${inputs.framework} tests of ${inputs.url} on ${count} platform${count === 1 ? '' : 's'}: ${inputs.platforms.map(platformName).join('; ')}`,
  );
  const ids = await start(inputs, deps, signal);
  if (!Array.isArray(ids) || ids.length !== count) return unmatchedStart(inputs, ids);
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
        progress(platformsOf(inputs, ids, answer, deps));
      },
    });
  } catch (error) {
    statusError = error;
  }

  let answer = lastAnswer;
  let outcome: Outcome = 'status-failed';
  if (waited?.ended === 'finished') {
    answer = waited.answer;
    outcome = 'completed';
  } else if (waited?.ended === 'aborted') {
    answer = await lastLook(ids, waited.answer, deps);
    // Everything may have finished in the moment between the last poll and the deadline.
    outcome =
      answer !== undefined && jsTestsFinished(answer) ? 'completed' : (abortReasonOf(signal) ?? 'cancelled');
  }
  const platforms = platformsOf(inputs, ids, answer, deps);
  let stoppedJobs: string[] = [];
  if (outcome === 'timeout' || outcome === 'cancelled') {
    deps.logger.warning(
      outcome === 'timeout'
        ? 'The timeout passed: stopping the unfinished jobs.'
        : 'Cancelled: stopping the unfinished jobs.',
    );
    stoppedJobs = await stopUnfinished(platforms, deps);
  }

  const report: JsTestsReport = {
    outcome,
    framework: inputs.framework,
    url: inputs.url,
    ...(inputs.build !== undefined ? { build: inputs.build } : {}),
    ...(inputs.name !== undefined ? { name: inputs.name } : {}),
    elapsedSeconds: Math.round((deps.clock.now() - started) / 1000),
    platforms,
    stoppedJobs,
  };
  const written = await writeReports(report, inputs, deps, signal);
  const jobs = reportedJobs(report);
  const tally = tallyJobs(jobs);
  const outputs: JsTestsOutputs = {
    total: platforms.length,
    passed: tally.passed,
    failed: tally.failed,
    'job-ids': JSON.stringify(platforms.flatMap((p) => (p.jobId ? [p.jobId] : []))),
    'results-file': written.resultsFile,
  };
  deps.logger.info(
    `${outputs.passed} of ${outputs.total} platforms passed, ${outputs.failed} failed (${report.elapsedSeconds}s)`,
  );
  const failure =
    statusError !== undefined
      ? describeFailure(statusError, signal)
      : (failureOf(report, outputs, inputs.failOnFailure) ?? written.failure);
  return {
    outputs,
    summary: jsTestsSummary(report),
    annotations: failedJobAnnotations(jobs),
    ...(failure !== undefined ? { failure } : {}),
  };
}

/** The test ids, one per platform in their order; a failed start fails before anything was done. */
async function start(inputs: JsTestsInputs, deps: JsTestsDeps, signal: AbortSignal): Promise<unknown> {
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
    { signal },
  );
  return answer['js tests'];
}

/** Test ids that cannot be matched to the platforms: nothing can be followed. */
function unmatchedStart(inputs: JsTestsInputs, ids: unknown): ActionResult<JsTestsOutputs> {
  const testIds = Array.isArray(ids) ? ids.map(String) : [];
  const count = inputs.platforms.length;
  return {
    outputs: { total: count, passed: 0, failed: 0, 'job-ids': '[]', 'results-file': '' },
    summary: unmatchedStartSummary(inputs.framework, inputs.url, inputs.platforms, testIds),
    annotations: [],
    failure: {
      kind: 'service',
      message: `Sauce Labs answered the start of ${count} platforms with ${Array.isArray(ids) ? ids.length : 'no'} test ids. Run the job again; report it if it repeats.`,
    },
  };
}

/** The results file, and the JUnit report when asked; a file that cannot be written fails the step. */
async function writeReports(
  report: JsTestsReport,
  inputs: JsTestsInputs,
  deps: JsTestsDeps,
  signal: AbortSignal,
): Promise<{ resultsFile: string; failure?: Failure }> {
  const resultsFile = path.join(deps.tempDir, `run-js-tests-${deps.workflow.step ?? 'results'}.json`);
  try {
    await writeResults(resultsFile, report);
  } catch (error) {
    return { resultsFile: '', failure: describeFailure(error, signal) };
  }
  if (inputs.junitFile === undefined) return { resultsFile };
  try {
    await writeJUnitFile(inputs.junitFile, junitSuites(report));
    deps.logger.info(`JUnit report written to ${inputs.junitFile}`);
    return { resultsFile };
  } catch (error) {
    return { resultsFile, failure: describeFailure(error, signal) };
  }
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
    const jobId = entry && JOB_ID.test(entry.job_id) ? entry.job_id : undefined;
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
  result: JsTestResult | null,
): PlatformResult {
  if (result === null) {
    return {
      ...base,
      status: 'error',
      detail: 'the job ended without test results (it errored, timed out or was stopped)',
    };
  }
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
 * One more status check after a timeout or cancellation: jobs assigned since the last poll can
 * then be stopped too. Quick, and without it the last answer stands.
 */
async function lastLook(
  ids: readonly string[],
  last: JsTestStatusAnswer | undefined,
  deps: JsTestsDeps,
): Promise<JsTestStatusAnswer | undefined> {
  try {
    return await deps.client.automation.jsTests.getStatus(
      ids,
      {},
      { signal: AbortSignal.timeout(LAST_LOOK_TIMEOUT_MS), timeouts: { headersMs: LAST_LOOK_TIMEOUT_MS } },
    );
  } catch {
    return last;
  }
}

/** Stops the jobs still running, quickly: the runner kills a cancelled step within seconds. */
async function stopUnfinished(platforms: PlatformResult[], deps: JsTestsDeps): Promise<string[]> {
  const unfinished = platforms.filter((p) => p.status === 'running' || p.status === 'queued');
  const stoppable = unfinished.filter((p) => p.jobId !== undefined);
  const settled = await Promise.allSettled(
    stoppable.map((p) =>
      deps.client.automation.jobs.stop(
        p.jobId as string,
        {},
        { signal: AbortSignal.timeout(STOP_TIMEOUT_MS), timeouts: { headersMs: STOP_TIMEOUT_MS } },
      ),
    ),
  );
  const stopped: string[] = [];
  settled.forEach((outcome, index) => {
    const p = stoppable[index] as PlatformResult;
    if (outcome.status === 'fulfilled') {
      stopped.push(p.jobId as string);
      p.status = 'stopped';
      p.detail = 'stopped before it finished';
    } else {
      deps.logger.warning(`Could not stop job ${p.jobId} (${p.name}): ${(outcome.reason as Error).message}`);
      p.detail = 'still running: it could not be stopped';
    }
  });
  for (const p of unfinished) {
    if (p.jobId === undefined) p.detail = 'no job was assigned yet, so there was nothing to stop';
  }
  if (stopped.length > 0)
    deps.logger.info(`Stopped ${stopped.length} unfinished job(s): ${stopped.join(', ')}`);
  return stopped;
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
