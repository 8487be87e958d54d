/**
 * `operation: report`: runs nothing. Finds the jobs of every shard and attempt of the workflow run
 * in the service by their `build`, each platform's runs oldest first as its attempts, and
 * publishes them as one run's results. A platform's verdict is its job's status: the page's own
 * report (test counts) is in each shard's results file.
 */
import { InputError, optionalProperty, type ActionResult, type StepDeps } from '@sauce-actions/action-kit';
import type {
  ExpectedItem,
  GatherAdapter,
  Gathered,
  GatheredRun,
} from '@sauce-actions/action-kit/test-run/adapter';
import { reportedRun, searchedBuilds } from '@sauce-actions/action-kit/test-run/build-names';
import { reportTests } from '@sauce-actions/action-kit/test-run/engine';
import { notSkipped } from '@sauce-actions/action-kit/test-run/history/history-options';
import { findBuildJobs } from '@sauce-actions/action-kit/test-run/build-search';
import { gatheredFailure, NOT_RUN_DETAIL } from '@sauce-actions/action-kit/test-run/gather';
import { isFailedJob } from '@sauce-actions/action-kit/test-run/job-report';
import { reportedStatus } from '@sauce-actions/action-kit/test-run/job-status';
import { commentAndCheck } from '@sauce-actions/action-kit/test-run/publish';
import { testRunOutputs, type TestRunOutputs } from '@sauce-actions/action-kit/test-run/results';
import type { Job, JsTestPlatform } from '@sauce-actions/api';
import type { JsTestsClient } from './batch.ts';
import { jsTestsComment } from './comment.ts';
import type { JsTestsInputs } from './inputs.ts';
import { reportedJob, type PlatformResult } from './judge.ts';
import { platformName } from './platforms.ts';
import { junitSuites, resultsData, type JsTestsReport } from './report.ts';
import { reportBuilds } from './requests.ts';
import { jsTestsSummary } from './summary.ts';

type Result = PlatformResult | undefined;

/** What a report uses of the step: it starts nothing, so it keeps nothing for a post step. */
type ReportDeps = Pick<StepDeps, 'logger' | 'signal' | 'clock' | 'pacer' | 'tempDir' | 'workflow' | 'ci'> & {
  client: JsTestsClient;
};

export async function reportPlatforms(
  inputs: JsTestsInputs,
  deps: ReportDeps,
): Promise<ActionResult<TestRunOutputs>> {
  const builds = reportBuilds(inputs.build, deps.workflow);
  if (builds === undefined) {
    throw new InputError(
      'build',
      "is empty, and without the run's identity (a CI system's run or pipeline id) the builds of the shards cannot be known",
      'the `build` every shard was given, unique to the workflow run, such as `js-${{ github.run_id }}`',
    );
  }
  const step = {
    name: 'run-js-tests',
    inputs,
    runsWhat: jsRunsWhat(inputs),
    title: jsTitle(inputs),
    runInputsGiven: runInputsGiven(inputs),
  };
  return reportTests(reportAdapter(inputs, builds, deps), step, deps);
}

/** The inputs that only a run uses, and whether the step set them. */
export function runInputsGiven(inputs: JsTestsInputs): Record<string, boolean> {
  return {
    'tunnel-name': inputs.tunnelName !== undefined,
    tags: inputs.tags.length > 0,
    'max-duration': inputs.maxDurationSeconds !== undefined,
    capabilities: Object.keys(inputs.capabilities).length > 0,
    retries: inputs.retries > 0,
  };
}

function reportAdapter(
  inputs: JsTestsInputs,
  builds: readonly string[],
  deps: ReportDeps,
): GatherAdapter<Gathered<Result>, Result, TestRunOutputs> {
  // The summary and the comment name the first build: the one of every attempt, or the first attempt's.
  const build = builds[0] ?? '';
  const searched = `build(s) ${searchedBuilds(builds)}`;
  const allExpected = inputs.platforms.map((platform, place): ExpectedItem => ({
    item: String(place),
    name: platformName(platform),
  }));
  return {
    historyItem: PLATFORM_HISTORY_ITEM,
    gather: async (signal) => {
      // The search ends a page after every platform and every attempt's build showed.
      const found = await findBuildJobs(deps.client.automation.jobs, {
        builds,
        itemOf: (job) => {
          const placed = placeOf(job, inputs.platforms);
          return placed !== undefined ? String(placed.place) : undefined;
        },
        items: inputs.platforms.length,
        nowMs: deps.client.serviceClock.now(),
        runCreatedAtMs: reportedRun(deps.workflow).createdAtMs,
        signal,
        pacer: deps.pacer,
      });
      const jobs = found.jobs;
      const runs = jobs.flatMap((job): GatheredRun<Result>[] => {
        const placed = placeOf(job, inputs.platforms);
        if (placed === undefined) return [];
        const { platform, place } = placed;
        const record = platformResult(job, platform, deps.client.jobUrl(job.id));
        return [
          {
            item: String(place),
            job: reportedJob(record),
            jobId: job.id,
            record,
            createdAt: job.creation_time,
          },
        ];
      });
      deps.logger.info(
        `Found ${runs.length} job(s) of ${inputs.platforms.length} platform(s) in ${searched} (${jobs.length - runs.length} on other platforms) in ${found.requests} request(s).`,
      );
      // A platform quarantined with mode skip was started by no shard: it is not missed.
      const { expected, skipped } = await notSkipped(inputs, allExpected);
      return { runs, expected, skipped, incomplete: found.incomplete };
    },
    report: (gathered, results, notRun) => {
      const report: JsTestsReport = {
        outcome: 'completed',
        framework: inputs.framework,
        url: inputs.url,
        build,
        ...optionalProperty('name', inputs.name),
        elapsedSeconds: 0,
        platforms: results.items.map(({ last, earlier, job }) => {
          const record = last.record ?? notRunResult(job.name, inputs.platforms[Number(last.item)]);
          const attempts = earlier.flatMap(({ record: run }) => (run ? [run] : []));
          return attempts.length > 0 ? { ...record, attempts } : record;
        }),
        stoppedJobs: [],
      };
      const { tally } = results;
      const failed = results.jobs.filter(isFailedJob);
      const failure =
        gatheredFailure(notRun, tally, {
          itemsName: 'platforms',
          where: '`platforms`',
          searched,
          buildInput: 'build',
          incomplete: gathered.incomplete,
        }) ??
        (failed.length > 0 && inputs.failOnFailure
          ? {
              kind: 'tests-failed' as const,
              message: `${tally.failed} of ${tally.total} platforms failed the JS tests in ${searched}: ${failed.map((job) => `${job.name}${job.url ? ` (${job.url})` : ''}`).join('; ')}. Open the job links to see the test page's results.`,
            }
          : undefined);
      return {
        outputs: (resultsFile) => testRunOutputs(results, resultsFile),
        summary: jsTestsSummary(report),
        resultsData: { ...(resultsData(report) as object), notRun },
        junitSuites: () => junitSuites(report),
        ...optionalProperty('failure', failure),
        ...commentAndCheck(inputs, () => jsTestsComment(inputs, report)),
        tallyLine: `${tally.passed} of ${tally.total} platforms passed, ${tally.failed} failed${tally.flaky > 0 ? `, ${tally.flaky} flaky` : ''}${notRun.length > 0 ? `, ${notRun.length} not run` : ''}`,
      };
    },
  };
}

/**
 * The place in `platforms` of the platform a job ran on: the same OS and browser, and the same
 * version, or else a version the service resolves (`latest`, `beta`); the first such place.
 */
function placeOf(
  job: Job,
  platforms: readonly JsTestPlatform[],
): { platform: JsTestPlatform; place: number } | undefined {
  const same = (a: unknown, b: unknown) => String(a ?? '').toLowerCase() === String(b ?? '').toLowerCase();
  const candidates = platforms.flatMap((platform, place) =>
    same(platform[0], job.os) && same(platform[1], job.browser) ? [{ platform, place }] : [],
  );
  const versions = [job.browser_version, job.browser_short_version];
  const exact = candidates.find(({ platform }) => versions.some((version) => same(platform[2], version)));
  return exact ?? candidates.find(({ platform }) => !/^\d/.test(String(platform[2] ?? '')));
}

/** A job as the report shows a platform's run: its status is the verdict, with no page report. */
function platformResult(job: Job, platform: JsTestPlatform, url: string): PlatformResult {
  const status = reportedStatus(job);
  const start = job.start_time ?? job.creation_time;
  const duration =
    job.end_time !== null && job.end_time !== undefined && start ? job.end_time - start : undefined;
  const detail =
    status === 'failed' || status === 'error'
      ? (job.error ?? (status === 'error' ? 'ended in error' : 'the test page reported failures'))
      : undefined;
  return {
    id: job.id,
    platform,
    name: platformName(platform),
    jobId: job.id,
    url,
    status,
    ...(duration !== undefined && duration >= 0 ? { durationSeconds: duration } : {}),
    result: null,
    ...(detail !== undefined ? { detail } : {}),
  };
}

/** The record of a platform no step ran. */
function notRunResult(name: string, platform: JsTestPlatform | undefined): PlatformResult {
  return {
    id: name,
    platform: platform ?? ['', '', ''],
    name,
    status: 'error',
    result: null,
    detail: NOT_RUN_DETAIL,
  };
}

/** What the step runs, for its series of runs: the page and its framework, on whatever platforms. */
/** The run's name in its message and issues: `JS tests (qunit)`. */
export function jsTitle(inputs: Pick<JsTestsInputs, 'framework'>): string {
  return `JS tests (${inputs.framework})`;
}

export function jsRunsWhat(inputs: Pick<JsTestsInputs, 'url' | 'framework'>): string {
  return `page ${inputs.framework} ${inputs.url}`;
}

/** A platform's item in the history: its name (`Windows 11 / chrome / latest`), wherever it is listed. */
export const PLATFORM_HISTORY_ITEM = (result: { job: { name: string } }): { item: string; name: string } => ({
  item: result.job.name,
  name: result.job.name,
});
