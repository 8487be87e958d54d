/**
 * The report of a run of JS tests: every platform by its last run, with the runs before it, judged;
 * its results file, its JUnit suites, and why the step fails.
 */
import { describeFailure, optionalProperty, type Failure, type Shard } from '@sauce-actions/action-kit';
import type { TestRun } from '@sauce-actions/action-kit/test-run/adapter';
import type { ReportedJob } from '@sauce-actions/action-kit/test-run/job-report';
import type { JUnitRerun, JUnitTestCase, JUnitTestSuite } from '@sauce-actions/action-kit/test-run/junit';
import { jsReportedTests, type JsTestFramework } from '@sauce-actions/api';
import { earlyOutcome, type JsTestsBatch } from './batch.ts';
import type { JsTestsInputs } from './inputs.ts';
import { reportedJob, type PlatformResult } from './judge.ts';

/**
 * How the wait ended: every platform final, the `timeout` or a cancellation (unfinished jobs were
 * then stopped), or the status checks kept failing (platforms as last seen).
 */
type Outcome = 'completed' | 'timeout' | 'cancelled' | 'status-failed';

export interface JsTestsReport {
  outcome: Outcome;
  framework: JsTestFramework;
  url: string;
  /** This job's share of the platforms, and how many `platforms` lists in all. */
  shard?: Shard & { of: number };
  /** `retries`, when a failed platform was run again. */
  retries?: number;
  build?: string;
  name?: string;
  elapsedSeconds: number;
  platforms: PlatformResult[];
  /** Job ids stopped after a timeout or cancellation. */
  stoppedJobs: string[];
}

type ReportInputs = Pick<JsTestsInputs, 'framework' | 'url' | 'shard' | 'build' | 'name' | 'retries'>;

/** Every platform by its last run, with the runs before it as its attempts, and how the run ended. */
export function jsTestsReport(
  inputs: ReportInputs,
  run: TestRun<PlatformResult, JsTestsBatch>,
  nowMs: number,
): JsTestsReport {
  const lastRound = run.rounds.at(-1);
  return {
    outcome: lastRound?.end !== undefined ? earlyOutcome(lastRound.end) : 'completed',
    framework: inputs.framework,
    url: inputs.url,
    ...optionalProperty('shard', inputs.shard),
    ...optionalProperty('build', inputs.build),
    ...optionalProperty('name', inputs.name),
    ...(run.rounds.length > 1 ? { retries: inputs.retries } : {}),
    elapsedSeconds: Math.round((nowMs - run.startedAtMs) / 1000),
    platforms: run.items.map(({ last, earlier }) => {
      const attempts = earlier.map(({ record: { attempts: _earlier, ...attempt } }) => attempt);
      return attempts.length > 0 ? { ...last.record, attempts } : last.record;
    }),
    stoppedJobs: lastRound?.batch.stoppedJobs ?? [],
  };
}

/** One job per platform; a platform whose job was never assigned is listed under its test id. */
export function reportedJobs(report: JsTestsReport): ReportedJob[] {
  return report.platforms.map((p) => ({
    ...reportedJob(p),
    ...(p.attempts?.length
      ? {
          attempts: p.attempts.map((run) => {
            const { id, url, status, detail } = reportedJob(run);
            return { id, url, status, ...(detail !== undefined ? { detail } : {}) };
          }),
        }
      : {}),
  }));
}

/** A suite per platform: a case per test where the framework lists them, else one for the platform. */
export function junitSuites(report: JsTestsReport): JUnitTestSuite[] {
  return report.platforms.map((p) => ({
    name: p.name,
    cases: platformCases(report, p),
    properties: {
      framework: report.framework,
      url: report.url,
      ...(p.jobId !== undefined ? { 'job-id': p.jobId } : {}),
      ...(p.url !== undefined ? { 'job-url': p.url } : {}),
    },
  }));
}

function platformCases(report: JsTestsReport, p: PlatformResult): JUnitTestCase[] {
  const link = p.url !== undefined ? { url: p.url } : {};
  const tests = p.result !== null ? jsReportedTests(report.framework, p.result) : undefined;
  const earlier = p.attempts ?? [];
  if (tests && tests.length > 0) {
    return tests.map((test) => {
      const reruns = testReruns(report.framework, earlier, test.name);
      return {
        name: test.name,
        classname: p.name,
        ...(test.durationSeconds !== undefined ? { timeSeconds: test.durationSeconds } : {}),
        ...(test.passed ? {} : { failure: { message: test.message ?? 'failed' } }),
        ...link,
        ...(reruns.length > 0 ? { reruns } : {}),
      };
    });
  }
  const name = report.name ?? `${report.framework} tests`;
  const reruns = earlier.flatMap((run, index): JUnitRerun[] =>
    run.status === 'failed' || run.status === 'error'
      ? [
          {
            kind: run.status === 'error' ? 'error' : 'failure',
            message: `attempt ${index + 1}: ${run.detail ?? run.status}`,
            ...(run.result !== null ? { details: JSON.stringify(run.result, null, 2) } : {}),
            ...(run.url !== undefined ? { url: run.url } : {}),
          },
        ]
      : [],
  );
  const base: JUnitTestCase = {
    name,
    classname: p.name,
    ...(p.durationSeconds !== undefined ? { timeSeconds: p.durationSeconds } : {}),
    ...link,
    ...(reruns.length > 0 ? { reruns } : {}),
  };
  const message = p.detail ?? p.status;
  switch (p.status) {
    case 'passed':
      return [base];
    case 'failed':
      return [{ ...base, failure: { message, details: JSON.stringify(p.result, null, 2) } }];
    case 'error':
      return [{ ...base, error: { message } }];
    default:
      return [{ ...base, error: { message: `did not finish: ${message}` } }];
  }
}

/** The earlier failures of one test of the page, by its name, in the runs before the last. */
function testReruns(
  framework: JsTestFramework,
  earlier: readonly Omit<PlatformResult, 'attempts'>[],
  testName: string,
): JUnitRerun[] {
  return earlier.flatMap((run, index): JUnitRerun[] => {
    const test =
      run.result !== null
        ? jsReportedTests(framework, run.result)?.find((t) => t.name === testName)
        : undefined;
    if (test === undefined || test.passed) return [];
    return [
      {
        kind: 'failure',
        message: `attempt ${index + 1}: ${test.message ?? 'failed'}`,
        ...(run.url !== undefined ? { url: run.url } : {}),
      },
    ];
  });
}

/** Every platform's full result, as the service gave it, with the verdict and the counts. */
export function resultsData(report: JsTestsReport): unknown {
  return {
    outcome: report.outcome,
    framework: report.framework,
    url: report.url,
    ...(report.shard !== undefined ? { shard: report.shard } : {}),
    ...(report.build !== undefined ? { build: report.build } : {}),
    ...(report.name !== undefined ? { name: report.name } : {}),
    elapsedSeconds: report.elapsedSeconds,
    platforms: report.platforms.map((p) => ({
      platform: p.platform,
      name: p.name,
      ...runRecord(p),
      flaky:
        p.status === 'passed' &&
        (p.attempts ?? []).some((run) => run.status === 'failed' || run.status === 'error'),
      attempts: (p.attempts ?? []).map(runRecord),
    })),
    stoppedJobs: report.stoppedJobs,
  };
}

/** One run of a platform in the results file. */
function runRecord(run: Omit<PlatformResult, 'attempts'>) {
  return {
    jsTestId: run.id,
    jobId: run.jobId ?? null,
    jobUrl: run.url ?? null,
    status: run.status,
    counts: run.counts ?? null,
    durationSeconds: run.durationSeconds ?? null,
    detail: run.detail ?? null,
    result: run.result,
  };
}

/**
 * Why the step fails: the status checks kept failing or a retry was cut off (the error says it),
 * the deadline passed, or platforms failed.
 */
export function jsTestsFailure(
  report: JsTestsReport,
  run: Pick<TestRun<PlatformResult, JsTestsBatch>, 'rounds' | 'tally'>,
  context: { signal: AbortSignal; failOnFailure: boolean },
): Failure | undefined {
  const error = run.rounds.at(-1)?.end?.error;
  if (error !== undefined) return describeFailure(error, context.signal);
  const { tally } = run;
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
  if (failed.length === 0 || !context.failOnFailure) return undefined;
  const failedText = failed.map((p) => `${p.name}${p.url ? ` (${p.url})` : ''}`).join('; ');
  return {
    kind: 'tests-failed',
    message: `${tally.failed} of ${tally.total} platforms failed the JS tests: ${failedText}. Open the job links to see the test page's results.`,
  };
}
