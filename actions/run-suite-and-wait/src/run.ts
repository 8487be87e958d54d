/**
 * Runs a suite (or chosen test cases), follows every job to its end and reports: the kit's
 * test-run engine, with the suite's test cases as its items.
 */
import path from 'node:path';
import { optionalProperty, type ActionResult, type Logger, type StepDeps } from '@sauce-actions/action-kit';
import { artifactName } from '@sauce-actions/action-kit/services/artifact-upload';
import { collectJobAssets } from '@sauce-actions/action-kit/services/assets-artifact';
import type { Round, TestRunAdapter } from '@sauce-actions/action-kit/test-run/adapter';
import { runTests, stepOptions } from '@sauce-actions/action-kit/test-run/engine';
import { isFailedJob, listSome, type ReportedJob } from '@sauce-actions/action-kit/test-run/job-report';
import { historyOptions } from '@sauce-actions/action-kit/test-run/history/history-options';
import { servicePlaceOf } from '@sauce-actions/action-kit/test-run/post-step';
import { commentAndCheck } from '@sauce-actions/action-kit/test-run/publish';
import { anySignal, type Job } from '@sauce-actions/api';
import { failedCases } from './attempts.ts';
import { SuiteBatch, type SuiteClient } from './batch.ts';
import { suiteComment } from './comment.ts';
import { suiteFailure } from './ending.ts';
import { reportShards } from './gather.ts';
import type { SuiteInputs } from './inputs.ts';
import { planSuite, selectedCases, type SuitePlan } from './plan.ts';
import { junitSuites, resultsData, suiteOutputs, suiteReport, type SuiteOutputs } from './report.ts';
import { suiteRunsWhat, suiteTitle, type CaseSelection } from './selection.ts';
import { RUN_RECORD } from './state.ts';
import { suiteSummary } from './summary.ts';

export interface SuiteDeps extends Pick<
  StepDeps,
  'logger' | 'signal' | 'clock' | 'pacer' | 'tempDir' | 'workflow' | 'ci' | 'artifacts' | 'state'
> {
  client: SuiteClient;
}

/** Assets are fetched after the wait, whatever `timeout` is left: bounded on their own. */
const ASSETS_TIMEOUT_MS = 5 * 60_000;

type SuiteRound = Round<Job | undefined, SuiteBatch>;

export async function run(inputs: SuiteInputs, deps: SuiteDeps): Promise<ActionResult<SuiteOutputs>> {
  if (inputs.operation === 'report') return reportShards(inputs, deps);
  const options = {
    ...stepOptions('run-suite-and-wait', inputs),
    retries: inputs.retries,
    failFast: inputs.failFast,
    shard: inputs.shard,
    history: await historyOptions(inputs.history, {
      runsWhat: suiteRunsWhat(inputs),
      title: suiteTitle(inputs),
      client: deps.client,
      shard: inputs.shard,
      logger: deps.logger,
    }),
    // Without `stop-on-cancel` nothing is to be stopped, so nothing is left for the post step.
    ...(inputs.stopOnCancel
      ? { postStep: { format: RUN_RECORD, place: servicePlaceOf(inputs.connection) } }
      : {}),
  };
  return runTests(suiteAdapter(inputs, deps), options, deps);
}

function suiteAdapter(
  inputs: SuiteInputs,
  deps: SuiteDeps,
): TestRunAdapter<SuitePlan, Job | undefined, SuiteBatch, SuiteOutputs> {
  const { client, clock, logger } = deps;
  const stepBegunAt = clock.monotonic();
  return {
    itemsName: 'cases',
    plan: (signal, startedAtMs) =>
      planSuite({ inputs, client, workflow: deps.workflow, pacer: deps.pacer, logger }, signal, startedAtMs),
    batch: (plan, items, attempt) =>
      new SuiteBatch({
        plan,
        // The plan's runs first (one suite run, or case runs), then the failed cases one by one.
        selection: attempt === 1 ? plan.runs : { testCases: [...items], selected: plan.runs.selected },
        attempt,
        inputs,
        client,
        clock,
        pacer: deps.pacer,
        logger,
        stepBegunAt,
      }),
    retryItems: (plan, round) => casesToRunAgain(plan, round, inputs.retries, logger),
    report: (plan, testRun, signal) => {
      const report = suiteReport(plan, testRun, {
        retries: inputs.retries,
        jobUrl: (id) => client.jobUrl(id),
      });
      const { tally } = testRun;
      const label = report.suite?.name ?? 'Test cases';
      const { failOnFailure, timeoutMs } = inputs;
      // Set by the upload, which the engine runs before it reads the outputs.
      let assetsDir = '';
      const failure = suiteFailure(report, testRun.rounds.at(-1), tally, {
        failOnFailure,
        timeoutMs,
        signal,
      });
      return {
        outputs: (resultsFile) => ({
          ...suiteOutputs(report, testRun, resultsFile),
          'assets-dir': assetsDir,
        }),
        summary: suiteSummary(report, tally),
        resultsData: resultsData(report, tally),
        junitSuites: () => junitSuites(label, report.buildName, report.jobs, new Date(testRun.startedAtMs)),
        ...optionalProperty('failure', failure),
        ...commentAndCheck(inputs, () => suiteComment(inputs, report, tally)),
        tallyLine: `Jobs: ${tally.total}, passed ${tally.passed}, failed ${tally.failed}${tally.flaky > 0 ? `, flaky ${tally.flaky}` : ''}.`,
        artifacts: async () => {
          assetsDir = await uploadAssets(inputs, deps, report.jobs);
        },
      };
    },
  };
}

/** The cases whose jobs failed, each in the build of the run it repeats; none when nothing failed. */
function casesToRunAgain(
  plan: SuitePlan,
  round: SuiteRound,
  retries: number,
  logger: Logger,
): CaseSelection[] {
  const untraced = round.runs.filter(({ item, job }) => item === undefined && isFailedJob(job));
  if (untraced.length > 0) {
    logger.warning(
      `${untraced.length} failed job(s) could not be traced to their test case, so they are not run again: ${listSome(untraced.map(({ job }) => `"${job.name}" (${job.id})`))}.`,
    );
  }
  const failed = failedCases(round.runs);
  if (failed.length === 0) return [];
  const chosen = new Map(selectedCases(plan.runs).map((testCase) => [testCase.id, testCase]));
  const testCases = failed.map(({ caseId, build }): CaseSelection => ({
    ...(chosen.get(caseId) ?? { id: caseId }),
    ...(build !== undefined ? { buildName: build } : {}),
  }));
  logger.info(
    `Running ${testCases.length} failed test case(s) again, attempt ${round.attempt + 1} of ${retries + 1} at most: ${listSome(testCases.map((testCase) => testCase.name ?? testCase.id))}.`,
  );
  return testCases;
}

/**
 * The assets of the chosen jobs as one artifact, named for the job, shard and attempt; a missing
 * artifact never fails the run. Answers the folder that holds the files, '' when none were kept.
 */
async function uploadAssets(
  inputs: Pick<SuiteInputs, 'downloadAssets' | 'maxAssetsBytes' | 'shard' | 'retentionDays'>,
  deps: SuiteDeps,
  jobs: readonly ReportedJob[],
): Promise<string> {
  // A cancelled step is killed within seconds: no time for downloads.
  if (inputs.downloadAssets === 'none' || deps.signal.aborted) return '';
  const chosen = inputs.downloadAssets === 'all' ? jobs : jobs.filter(isFailedJob);
  if (chosen.length === 0) return '';
  const dir = path.join(deps.tempDir, 'sauce-job-assets');
  try {
    const collected = await collectJobAssets({
      assets: deps.client.automation.assets,
      jobs: chosen,
      dir,
      dirOutput: 'assets-dir',
      artifactName: artifactName('sauce-job-assets', deps.workflow, optionalProperty('shard', inputs.shard)),
      ...optionalProperty('retentionDays', inputs.retentionDays),
      logger: deps.logger,
      artifacts: deps.artifacts,
      signal: anySignal(deps.signal, AbortSignal.timeout(ASSETS_TIMEOUT_MS)),
      pacer: deps.pacer,
      limit: { bytes: inputs.maxAssetsBytes, input: 'max-assets-size' },
    });
    return collected.files > 0 ? dir : '';
  } catch (error) {
    deps.logger.warning(`Could not download the job assets: ${(error as Error).message}`);
    return '';
  }
}
