/**
 * Starts the JS unit tests on every platform, waits for them, judges and reports each platform:
 * the kit's test-run engine, with the platforms as its items.
 */
import { optionalProperty, type ActionResult, type StepDeps } from '@sauce-actions/action-kit';
import type { Round, TestPlan, TestRunAdapter } from '@sauce-actions/action-kit/test-run/adapter';
import { runTests, stepOptions } from '@sauce-actions/action-kit/test-run/engine';
import { isFailedJob } from '@sauce-actions/action-kit/test-run/job-report';
import { historyOptions, quarantinePlan } from '@sauce-actions/action-kit/test-run/history/history-options';
import { servicePlaceOf } from '@sauce-actions/action-kit/test-run/post-step';
import { commentAndCheck } from '@sauce-actions/action-kit/test-run/publish';
import { testRunOutputs, type TestRunOutputs } from '@sauce-actions/action-kit/test-run/results';
import { platformName } from './platforms.ts';
import { JsTestsBatch, UnmatchedStart, type JsTestsClient, type PlacedPlatform } from './batch.ts';
import { jsTestsComment } from './comment.ts';
import { jsRunsWhat, jsTitle, PLATFORM_HISTORY_ITEM, reportPlatforms } from './gather.ts';
import type { JsTestsInputs } from './inputs.ts';
import type { PlatformResult } from './judge.ts';
import { jsTestsFailure, jsTestsReport, junitSuites, resultsData } from './report.ts';
import { runBuild } from './requests.ts';
import { JS_TESTS_RECORD } from './state.ts';
import { jsTestsSummary, unmatchedStartResult } from './summary.ts';

export interface JsTestsDeps extends Pick<
  StepDeps,
  'logger' | 'signal' | 'clock' | 'pacer' | 'tempDir' | 'workflow' | 'ci' | 'state'
> {
  client: JsTestsClient;
}

/** The platforms of this shard, each by its place in `platforms`, and when the run started. */
interface JsTestsPlan extends TestPlan<PlacedPlatform> {
  startedAtMs: number;
}

export async function run(inputs: JsTestsInputs, deps: JsTestsDeps): Promise<ActionResult<TestRunOutputs>> {
  if (inputs.operation === 'report') return reportPlatforms(inputs, deps);
  const build = runBuild(inputs.build, deps.workflow);
  return runPlatforms(build !== undefined ? { ...inputs, build } : inputs, deps);
}

async function runPlatforms(inputs: JsTestsInputs, deps: JsTestsDeps): Promise<ActionResult<TestRunOutputs>> {
  const options = {
    ...stepOptions('run-js-tests', inputs),
    retries: inputs.retries,
    shard: inputs.shard,
    postStep: { format: JS_TESTS_RECORD, place: servicePlaceOf(inputs.connection) },
    history: await historyOptions(inputs.history, {
      runsWhat: jsRunsWhat(inputs),
      title: jsTitle(inputs),
      client: deps.client,
      shard: inputs.shard,
      logger: deps.logger,
    }),
  };
  try {
    return await runTests(jsTestsAdapter(inputs, deps), options, deps);
  } catch (error) {
    // Test ids that cannot be matched to the platforms: nothing could be followed.
    if (error instanceof UnmatchedStart) return unmatchedStartResult(inputs, error.ids, error.unreadable);
    throw error;
  }
}

function jsTestsAdapter(
  inputs: JsTestsInputs,
  deps: JsTestsDeps,
): TestRunAdapter<JsTestsPlan, PlatformResult, JsTestsBatch, TestRunOutputs> {
  return {
    itemsName: 'platforms',
    plan: async (_signal, startedAtMs) => {
      if (inputs.platforms.length === 0) deps.logger.info('This shard has no platform to run.');
      const placed = inputs.platforms.map((platform, place) => ({ platform, place }));
      // A shard knows only its share: an entry of another shard's platform is no mistake there.
      const { run, skipped, reported } = await quarantinePlan(
        inputs.history,
        placed,
        ({ platform }) => ({ id: platformName(platform), name: platformName(platform) }),
        inputs.shard === undefined,
      );
      if (skipped.length > 0) {
        deps.logger.info(
          `Quarantined with mode skip, not started: ${skipped.map(({ platform }) => platformName(platform)).join('; ')}.`,
        );
      }
      return { items: run, startedAtMs, skipped: reported };
    },
    historyItem: PLATFORM_HISTORY_ITEM,
    batch: (plan, items, attempt) =>
      new JsTestsBatch({
        inputs,
        client: deps.client,
        clock: deps.clock,
        logger: deps.logger,
        items,
        attempt,
        startedAtMs: plan.startedAtMs,
      }),
    retryItems: (plan, round) => failedPlatforms(plan, round, inputs.retries, deps),
    report: (_plan, testRun, signal) => {
      const report = jsTestsReport(inputs, testRun, deps.clock.now());
      const { tally } = testRun;
      return {
        outputs: (resultsFile) => testRunOutputs(testRun, resultsFile),
        summary: jsTestsSummary(report),
        resultsData: resultsData(report),
        junitSuites: () => junitSuites(report),
        ...optionalProperty(
          'failure',
          jsTestsFailure(report, testRun, { signal, failOnFailure: inputs.failOnFailure }),
        ),
        ...commentAndCheck(inputs, () => jsTestsComment(inputs, report)),
        ...(report.platforms.length > 0
          ? {
              tallyLine: `${tally.passed} of ${tally.total} platforms passed, ${tally.failed} failed${tally.flaky > 0 ? `, ${tally.flaky} flaky` : ''} (${report.elapsedSeconds}s)`,
            }
          : {}),
      };
    },
  };
}

/** The platforms of a round that failed, run again while `retries` lasts. */
function failedPlatforms(
  plan: JsTestsPlan,
  round: Round<PlatformResult, JsTestsBatch>,
  retries: number,
  deps: Pick<JsTestsDeps, 'logger'>,
): PlacedPlatform[] {
  const failed = round.runs.filter(({ job }) => isFailedJob(job));
  if (failed.length === 0) return [];
  deps.logger.info(
    `Running ${failed.length} failed platform(s) again, attempt ${round.attempt + 1} of ${retries + 1} at most: ${failed.map(({ job }) => job.name).join('; ')}`,
  );
  return failed.flatMap(({ item }) => plan.items[Number(item)] ?? []);
}
