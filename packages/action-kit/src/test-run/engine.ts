/**
 * The test-run engine: what every test action does, around what its service does. It plans the
 * step's share of the items, starts them with a grace period for the start's answer, follows
 * them to the end or the cut-off, stops early on `fail-fast`, runs again what failed, stops what
 * is unfinished, keeps for the post step what is left running, and publishes one model of the
 * results (items, attempts, jobs, verdicts, flaky): the results file, the JUnit report, the
 * outputs, the summary, the comment and the annotations. The action's adapter says the rest.
 */
import path from 'node:path';
import type { StepDeps } from '../deps.ts';
import type { ActionResult, Outputs } from '../reporting/result.ts';
import { withDeadline } from '../step/cancellation.ts';
import { formatDuration } from '../values/duration.ts';
import { optionalProperty } from '../values/optional-property.ts';
import type {
  Batch,
  GatherAdapter,
  SkippedItem,
  Gathered,
  GatherOptions,
  ResultsReport,
  TestPlan,
  TestResults,
  TestRunAdapter,
  TestRunOptions,
} from './adapter.ts';
import { attemptsOfRuns, itemsNotRun, notRunJob, runInputsWarning } from './gather.ts';
import { historyOptions, type HistoryContext, type ReportStep } from './history/history-options.ts';
import { RunningRecord } from './post-step.ts';
import { checkReportFiles, publishResults } from './publish.ts';
import { testResults, testRun } from './results.ts';
import { reportWithHistory } from './history/report-with-history.ts';
import { stepHistory } from './history/step-history.ts';
import type { Comparison } from './history/comparison.ts';
import { notifyRun } from './notify/notify-run.ts';
import { planTurnMs } from './shard-turns.ts';
import { runRounds } from './rounds.ts';

type TestRunDeps = Pick<
  StepDeps,
  'logger' | 'signal' | 'clock' | 'tempDir' | 'workflow' | 'state' | 'ci' | 'pacer'
>;
type ReportDeps = Omit<TestRunDeps, 'state'>;

/** What a test step's inputs give the engine, a run's and a report's alike; `name` names its results file. */
export function stepOptions(
  name: string,
  inputs: { timeoutMs: number; failOnFailure: boolean; junitFile?: string | undefined },
): GatherOptions {
  return {
    name,
    timeoutMs: inputs.timeoutMs,
    failOnFailure: inputs.failOnFailure,
    ...optionalProperty('junitFile', inputs.junitFile),
  };
}

export async function runTests<
  P extends TestPlan,
  R,
  W extends object,
  B extends Batch<R, W>,
  O extends Outputs,
>(
  adapter: TestRunAdapter<P, R, B, O>,
  options: TestRunOptions<W>,
  deps: TestRunDeps,
): Promise<ActionResult<O>> {
  return publishedWithin(options, deps, async (signal, startedAtMs) => {
    // A matrix's shards take turns on the account they share, from their first request on.
    const turnMs = planTurnMs(options.shard);
    if (turnMs > 0 && options.shard) {
      deps.logger.info(
        `Shard ${options.shard.index}/${options.shard.total} sends its first request in ${formatDuration(turnMs)}, at its turn: a matrix's shards plan one after another on the account they share.`,
      );
      await deps.clock.sleep(turnMs, signal);
    }
    // What fails before anything was started is thrown: the host words it (an abort names its reason).
    const plan = await adapter.plan(signal, startedAtMs);
    const { postStep } = options;
    const { rounds, notRetried } = await runRounds(adapter, plan, {
      signal,
      retries: options.retries,
      ...(options.failFast !== undefined ? { failFast: options.failFast } : {}),
      record: postStep && new RunningRecord<W>(deps.state, postStep.format, postStep.place),
      clock: deps.clock,
      logger: deps.logger,
    });
    const run = testRun(rounds, startedAtMs, notRetried);
    const history = withSkipped(await stepHistory(run, adapter.historyItem, options.history, deps), plan);
    const report = reportWithHistory(adapter.report(plan, run, signal), history);
    return { report: await notifyRun(report, history, options.history, deps), results: run };
  });
}

/**
 * A report of a workflow run (`operation: report`): nothing is started. The runs of every shard
 * and attempt are gathered from the service in place of plan, start and follow, ordered into
 * attempts, the items no step ran added as failures, and published as a run's results are.
 */
export async function gatherTests<G extends Gathered<R>, R, O extends Outputs>(
  adapter: GatherAdapter<G, R, O>,
  options: GatherOptions,
  deps: ReportDeps,
): Promise<ActionResult<O>> {
  return publishedWithin(options, deps, async (signal, startedAtMs) => {
    const gathered = await adapter.gather(signal, startedAtMs);
    const notRun = itemsNotRun(gathered.runs, gathered.expected);
    const standIns = notRun.map((item) => ({
      item: item.item,
      job: notRunJob(item, '', gathered.incomplete),
      record: undefined,
    }));
    const results = {
      ...testResults(attemptsOfRuns<R | undefined>(gathered.runs, gathered.expected, standIns), startedAtMs),
      ...optionalProperty('incomplete', gathered.incomplete),
    };
    const history = withSkipped(
      await stepHistory(results, adapter.historyItem, options.history, deps),
      gathered,
    );
    const report = reportWithHistory(adapter.report(gathered, results, notRun, signal), history);
    return { report: await notifyRun(report, history, options.history, deps), results };
  });
}

/**
 * A report step of a test action: the run inputs it ignores warned about, its history read from
 * its inputs, and the runs of the workflow run gathered and published (`gatherTests`).
 */
export async function reportTests<G extends Gathered<R>, R, O extends Outputs>(
  adapter: GatherAdapter<G, R, O>,
  step: ReportStep,
  deps: ReportDeps & { client: HistoryContext['client'] },
): Promise<ActionResult<O>> {
  const warning = runInputsWarning(step.runInputsGiven);
  if (warning !== undefined) deps.logger.warning(warning);
  const history = await historyOptions(step.inputs.history, {
    runsWhat: step.runsWhat,
    title: step.title,
    client: deps.client,
    logger: deps.logger,
  });
  return gatherTests(adapter, { ...stepOptions(step.name, step.inputs), history }, deps);
}

/** The comparison with the items the step did not start, quarantined with `mode: skip`. */
function withSkipped(
  comparison: Comparison | undefined,
  planned: { skipped?: readonly SkippedItem[] | undefined },
): Comparison | undefined {
  if (comparison === undefined || !planned.skipped?.length) return comparison;
  return { ...comparison, skipped: planned.skipped };
}

/**
 * What a run and a report share: the report files checked before any work, the work bounded by
 * `timeout`, and its results published (one results file per step, named by the step's id: a
 * job that runs two test steps keeps both; a host that knows no step id gives the step a
 * temporary folder of its own).
 */
async function publishedWithin<O extends Outputs>(
  options: GatherOptions,
  deps: ReportDeps,
  runOrGather: (
    signal: AbortSignal,
    startedAtMs: number,
  ) => Promise<{ report: ResultsReport<O>; results: TestResults }>,
): Promise<ActionResult<O>> {
  const resultsFile = path.join(deps.tempDir, `${options.name}-${deps.workflow.step ?? 'results'}.json`);
  const files = { resultsFile, ...(options.junitFile !== undefined ? { junitFile: options.junitFile } : {}) };
  await checkReportFiles(files);
  const deadline = withDeadline(deps.signal, options.timeoutMs);
  try {
    const { report, results } = await runOrGather(deadline.signal, deps.clock.now());
    return await publishResults(report, results, {
      ...files,
      failOnFailure: options.failOnFailure,
      logger: deps.logger,
    });
  } finally {
    deadline.dispose();
  }
}
