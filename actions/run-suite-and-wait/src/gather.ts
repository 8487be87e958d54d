/**
 * `operation: report`: runs nothing. Finds the jobs of every shard and attempt of the workflow run
 * in the service, by the build names its steps used (as `rerun-failed` finds an earlier attempt's),
 * and publishes them as one run's results: one summary, one JUnit file, one comment, one check run.
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
import { gatheredFailure } from '@sauce-actions/action-kit/test-run/gather';
import { commentAndCheck } from '@sauce-actions/action-kit/test-run/publish';
import { testRunOutputs } from '@sauce-actions/action-kit/test-run/results';
import type { Job } from '@sauce-actions/api';
import { CaseFinder, type KnownCase } from './attempts.ts';
import type { SuiteClient } from './batch.ts';
import { suiteComment } from './comment.ts';
import { suiteFailure } from './ending.ts';
import type { SuiteInputs } from './inputs.ts';
import { reportJob } from './jobs.ts';
import { junitSuites, resultsData, type SuiteOutputs, type SuiteReport } from './report.ts';
import { findCaseJobs, reportBuildNames } from './rerun.ts';
import { findSuite, listSuiteCases, type FoundSuite } from './start.ts';
import { suiteRunsWhat, suiteTitle } from './selection.ts';
import { suiteSummary } from './summary.ts';

/** What a report uses of the step: it starts nothing, so it keeps nothing for a post step. */
type ReportDeps = Pick<StepDeps, 'logger' | 'signal' | 'clock' | 'pacer' | 'tempDir' | 'workflow' | 'ci'> & {
  client: SuiteClient;
};

interface SuiteGathered extends Gathered<Job | undefined> {
  suite: FoundSuite | undefined;
  builds: string[];
}

export async function reportShards(
  inputs: SuiteInputs,
  deps: ReportDeps,
): Promise<ActionResult<SuiteOutputs>> {
  // Without the run's identity (a terminal) the shards' default build names hold the time each started.
  if (inputs.buildName === undefined && reportedRun(deps.workflow).key === undefined) {
    throw new InputError(
      'build-name',
      "is empty, and without the run's identity (a CI system's run or pipeline id) the build names of the shards cannot be known",
      'the `build-name` every shard was given, unique to the pipeline, such as `nightly $CI_PIPELINE_ID`',
    );
  }
  const step = {
    name: 'run-suite-and-wait',
    inputs,
    runsWhat: suiteRunsWhat(inputs),
    title: suiteTitle(inputs),
    runInputsGiven: runInputsGiven(inputs),
  };
  return reportTests(reportAdapter(inputs, deps), step, deps);
}

/** The inputs that only a run uses, and whether the step set them (to other than their default). */
export function runInputsGiven(inputs: SuiteInputs): Record<string, boolean> {
  return {
    targets: inputs.targets !== undefined,
    'tunnel-name': inputs.tunnelName !== undefined,
    retries: inputs.retries > 0,
    'fail-fast': inputs.failFast,
    'rerun-failed': !inputs.rerunFailed,
    'stop-on-cancel': !inputs.stopOnCancel,
    'download-assets': inputs.downloadAssets !== 'none',
    'retention-days': inputs.retentionDays !== undefined,
  };
}

function reportAdapter(
  inputs: SuiteInputs,
  deps: ReportDeps,
): GatherAdapter<SuiteGathered, Job | undefined, SuiteOutputs> {
  const { client, logger } = deps;
  return {
    gather: async (signal) => {
      const suite =
        inputs.suite !== undefined ? await findSuite(client.authoring, inputs.suite, signal) : undefined;
      const cases: KnownCase[] =
        suite !== undefined
          ? await listSuiteCases(client.authoring, suite, signal)
          : (inputs.testCases ?? []);
      const label = suite?.name ?? 'Test cases';
      // Never none: `reportShards` checked that there is an identity of the run or a `build-name`.
      const builds = reportBuildNames(label, inputs.buildName, reportedRun(deps.workflow)) ?? [];
      const finder = new CaseFinder(cases);
      const found = await findCaseJobs(client.automation.jobs, {
        finder,
        judged: cases,
        builds,
        nowMs: client.serviceClock.now(),
        runCreatedAtMs: reportedRun(deps.workflow).createdAtMs,
        signal,
        pacer: deps.pacer,
      });
      const runs = found.jobs.map((job): GatheredRun<Job | undefined> => ({
        // A job of no known case stands on its own.
        item: finder.caseOf(job) ?? `job:${job.id}`,
        job: reportJob(job, (id) => client.jobUrl(id), new Set()),
        jobId: job.id,
        record: job,
        createdAt: job.creation_time,
      }));
      logger.info(
        `Found ${runs.length} job(s) of ${cases.length} case(s) in build(s) ${searchedBuilds(builds)} in ${found.requests} request(s).`,
      );
      const { expected, skipped } = await notSkipped(
        inputs,
        cases.map((testCase): ExpectedItem => ({ item: testCase.id, name: testCase.name ?? testCase.id })),
      );
      return { runs, expected, skipped, suite, builds, incomplete: found.incomplete };
    },
    report: (gathered, results, notRun, signal) => {
      const { tally } = results;
      const seen = gathered.runs.flatMap(({ record }) => record ?? []);
      const suiteReport: SuiteReport = {
        suite: gathered.suite,
        planned: gathered.expected.length,
        buildName: gathered.builds[0] ?? '',
        builds: [...new Set(seen.map((job) => job.build ?? '').filter(Boolean))],
        jobs: results.jobs,
        seen,
        complete: tally.finished === tally.total,
        note: `Every shard and attempt of this run, gathered from the service (${seen.length} job(s) of build(s) ${searchedBuilds(gathered.builds)}).`,
      };
      const label = gathered.suite?.name ?? 'Test cases';
      const where = gathered.suite !== undefined ? `suite "${gathered.suite.name}"` : '`test-cases`';
      const failure =
        gatheredFailure(notRun, tally, {
          itemsName: 'cases',
          where,
          searched: `build(s) ${searchedBuilds(gathered.builds)}`,
          buildInput: 'build-name',
          incomplete: gathered.incomplete,
        }) ??
        suiteFailure(suiteReport, undefined, tally, {
          failOnFailure: inputs.failOnFailure,
          timeoutMs: inputs.timeoutMs,
          signal,
        });
      return {
        outputs: (resultsFile) => ({
          'build-name': suiteReport.buildName,
          ...testRunOutputs(results, resultsFile),
        }),
        summary: suiteSummary(suiteReport, tally),
        resultsData: { ...(resultsData(suiteReport, tally) as object), notRun },
        junitSuites: () =>
          junitSuites(label, suiteReport.buildName, suiteReport.jobs, new Date(results.startedAtMs)),
        ...optionalProperty('failure', failure),
        ...commentAndCheck(inputs, () => suiteComment({ ...inputs, report: true }, suiteReport, tally)),
        tallyLine: `Jobs: ${tally.total}, passed ${tally.passed}, failed ${tally.failed}${tally.flaky > 0 ? `, flaky ${tally.flaky}` : ''}${notRun.length > 0 ? `, not run ${notRun.length}` : ''}.`,
      };
    },
  };
}
