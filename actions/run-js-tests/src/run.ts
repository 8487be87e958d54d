/** Starts the JS unit tests on every platform, waits for them, judges and reports each platform. */
import { ActionError } from '@sauce-actions/action-kit';
import { tallyJobs } from '@sauce-actions/action-kit/job-report';
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
} from '@sauce-actions/api';
import { platformName } from './platforms.ts';
import { junitSuites, reportedJobs, writeResults } from './report.ts';
import { countsText, resultDurationSeconds, testCounts, type TestCounts } from './results.ts';
import { waitForResults } from './wait.ts';

export const FRAMEWORKS = [
  'qunit',
  'jasmine',
  'YUI Test',
  'mocha',
  'custom',
] as const satisfies readonly JsTestFramework[];

export interface JsTestsInputs {
  url: string;
  framework: JsTestFramework;
  platforms: JsTestPlatform[];
  tunnelName?: string;
  build?: string;
  name?: string;
  tags: string[];
  maxDurationSeconds?: number;
  capabilities: Record<string, unknown>;
  failOnFailure: boolean;
  /** Absolute path of the JUnit report, when one is wanted. */
  junitFile?: string;
  pollIntervalMs: number;
}

export interface JsTestsDeps {
  client: {
    jsTests: Pick<AutomationJsTests, 'start' | 'getStatus'>;
    jobs: Pick<AutomationJobs, 'stop'>;
  };
  jobUrl: (jobId: string) => string;
  /** Where every platform's full result is written. */
  resultsFile: string;
  log: (line: string) => void;
  warn: (line: string) => void;
  /** Aborts at the deadline and on cancellation. */
  signal?: AbortSignal;
  /** Why the signal aborted; a signal without a reason counts as a cancellation. */
  abortReason?: () => 'timeout' | 'cancelled' | undefined;
  /** Time allowed to stop the unfinished jobs after a timeout or cancellation (default 10 s). */
  stopTimeoutMs?: number;
  /** Least time between two progress lines that say nothing new (default 60 s). */
  quietProgressMs?: number;
  now?: () => number;
}

export type PlatformStatus = 'passed' | 'failed' | 'error' | 'queued' | 'running' | 'stopped';

export interface PlatformResult {
  /** Id of the JS test of this platform. */
  id: string;
  platform: JsTestPlatform;
  name: string;
  jobId?: string;
  url?: string;
  status: PlatformStatus;
  counts?: TestCounts;
  durationSeconds?: number;
  result: JsTestResult | null;
  detail?: string;
}

export type Outcome = 'completed' | 'timeout' | 'cancelled';

export interface JsTestsReport {
  outcome: Outcome;
  framework: JsTestFramework;
  url: string;
  build?: string;
  name?: string;
  elapsedSeconds: number;
  platforms: PlatformResult[];
  /** Job ids stopped after a timeout or cancellation. */
  stoppedJobs: string[];
}

export type JsTestsOutputs = {
  total: number;
  passed: number;
  failed: number;
  'job-ids': string;
  'results-file': string;
};

export interface JsTestsResult {
  outputs: JsTestsOutputs;
  report: JsTestsReport;
  /** Why the step fails, when it does. */
  failure?: string;
}

const JOB_ID = /^[0-9a-z]{32}$/i;

export async function run(inputs: JsTestsInputs, deps: JsTestsDeps): Promise<JsTestsResult> {
  const now = deps.now ?? Date.now;
  const started = now();
  const count = inputs.platforms.length;
  deps.log(
    `Starting ${inputs.framework} tests of ${inputs.url} on ${count} platform${count === 1 ? '' : 's'}: ${inputs.platforms.map(platformName).join('; ')}`,
  );
  const { 'js tests': ids } = await deps.client.jsTests.start(
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
    deps.signal ? { signal: deps.signal } : {},
  );
  if (!Array.isArray(ids) || ids.length !== count) {
    throw new ActionError(
      `Sauce Labs answered the start of ${count} platforms with ${Array.isArray(ids) ? ids.length : 'no'} test ids. Run the job again; report it if it repeats.`,
      'service',
    );
  }
  deps.log(`Started the JS tests: ${ids.join(', ')}`);

  const progress = progressLogger(inputs, deps, started);
  const waited = await waitForResults(deps.client.jsTests, {
    ids,
    intervalMs: inputs.pollIntervalMs,
    ...(deps.signal ? { signal: deps.signal } : {}),
    onAnswer: (answer) => progress(platformsOf(inputs, ids, answer, deps)),
    warn: deps.warn,
  });
  const answer = waited.ended === 'finished' ? waited.answer : await lastLook(ids, waited.answer, deps);
  // Everything may have finished in the moment between the last poll and the deadline.
  const outcome: Outcome =
    waited.ended === 'finished' || (answer !== undefined && jsTestsFinished(answer))
      ? 'completed'
      : (deps.abortReason?.() ?? 'cancelled');
  const platforms = platformsOf(inputs, ids, answer, deps);
  const stoppedJobs = outcome === 'completed' ? [] : await stopUnfinished(platforms, deps);

  const report: JsTestsReport = {
    outcome,
    framework: inputs.framework,
    url: inputs.url,
    ...(inputs.build !== undefined ? { build: inputs.build } : {}),
    ...(inputs.name !== undefined ? { name: inputs.name } : {}),
    elapsedSeconds: Math.round((now() - started) / 1000),
    platforms,
    stoppedJobs,
  };
  await writeResults(deps.resultsFile, report);
  if (inputs.junitFile !== undefined) {
    await writeJUnitFile(inputs.junitFile, junitSuites(report));
    deps.log(`JUnit report written to ${inputs.junitFile}`);
  }
  const tally = tallyJobs(reportedJobs(report));
  const outputs: JsTestsOutputs = {
    total: platforms.length,
    passed: tally.passed,
    failed: tally.failed,
    'job-ids': JSON.stringify(platforms.flatMap((p) => (p.jobId ? [p.jobId] : []))),
    'results-file': deps.resultsFile,
  };
  deps.log(finalLine(report, outputs));
  const failure = failureMessage(report, outputs, inputs.failOnFailure);
  return { outputs, report, ...(failure !== undefined ? { failure } : {}) };
}

/** Every platform as the latest answer shows it, in the order the platforms were given. */
function platformsOf(
  inputs: JsTestsInputs,
  ids: readonly string[],
  answer: JsTestStatusAnswer | undefined,
  deps: Pick<JsTestsDeps, 'jobUrl'>,
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
      ...(jobId !== undefined ? { jobId, url: deps.jobUrl(jobId) } : {}),
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

/** A line when something changed, else one at most every `quietProgressMs`. */
function progressLogger(
  inputs: JsTestsInputs,
  deps: JsTestsDeps,
  started: number,
): (platforms: PlatformResult[]) => void {
  const now = deps.now ?? Date.now;
  const quietMs = deps.quietProgressMs ?? 60_000;
  let lastKey = '';
  let lastAt = 0;
  return (platforms) => {
    const counts = new Map<PlatformStatus, number>();
    for (const p of platforms) counts.set(p.status, (counts.get(p.status) ?? 0) + 1);
    const key = (['passed', 'failed', 'error', 'running', 'queued'] as const)
      .filter((status) => counts.has(status))
      .map((status) => `${counts.get(status)} ${status}`)
      .join(', ');
    const at = now();
    if (key === lastKey && at - lastAt < quietMs) return;
    lastKey = key;
    lastAt = at;
    const finished = platforms.filter((p) => p.status !== 'running' && p.status !== 'queued').length;
    deps.log(
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
  const timeoutMs = Math.min(deps.stopTimeoutMs ?? 10_000, 5000);
  try {
    return await deps.client.jsTests.getStatus(
      ids,
      {},
      { signal: AbortSignal.timeout(timeoutMs), timeouts: { headersMs: timeoutMs } },
    );
  } catch {
    return last;
  }
}

/** Stops the jobs still running, quickly: the runner kills a cancelled step within seconds. */
async function stopUnfinished(platforms: PlatformResult[], deps: JsTestsDeps): Promise<string[]> {
  const unfinished = platforms.filter((p) => p.status === 'running' || p.status === 'queued');
  const stoppable = unfinished.filter((p) => p.jobId !== undefined);
  const timeoutMs = deps.stopTimeoutMs ?? 10_000;
  const settled = await Promise.allSettled(
    stoppable.map((p) =>
      deps.client.jobs.stop(
        p.jobId as string,
        {},
        { signal: AbortSignal.timeout(timeoutMs), timeouts: { headersMs: timeoutMs } },
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
      deps.warn(`Could not stop job ${p.jobId} (${p.name}): ${(outcome.reason as Error).message}`);
      p.detail = 'still running: it could not be stopped';
    }
  });
  for (const p of unfinished) {
    if (p.jobId === undefined) p.detail = 'no job was assigned yet, so there was nothing to stop';
  }
  if (stopped.length > 0) deps.log(`Stopped ${stopped.length} unfinished job(s): ${stopped.join(', ')}`);
  return stopped;
}

function finalLine(report: JsTestsReport, outputs: JsTestsOutputs): string {
  return `${outputs.passed} of ${outputs.total} platforms passed, ${outputs.failed} failed (${report.elapsedSeconds}s)`;
}

function failureMessage(
  report: JsTestsReport,
  outputs: JsTestsOutputs,
  failOnFailure: boolean,
): string | undefined {
  const failed = report.platforms.filter((p) => p.status === 'failed' || p.status === 'error');
  const failedText = failed.map((p) => `${p.name}${p.url ? ` (${p.url})` : ''}`).join('; ');
  if (report.outcome !== 'completed') {
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
    return `${why}. ${finishedText} Did not finish: ${unfinished.map((p) => `${p.name} (${p.detail ?? p.status})`).join('; ')}.${next}`;
  }
  if (failed.length === 0 || !failOnFailure) return undefined;
  return `${outputs.failed} of ${outputs.total} platforms failed the JS tests: ${failedText}. Open the job links to see the test page's results.`;
}
