/**
 * What this step runs: the whole suite in one suite run, or cases one by one (chosen test cases,
 * a suite's cases on `targets` of their own, or this shard's share of them), less what passed in
 * an earlier attempt of the workflow run, in the build it names.
 */
import type { RequestPacer } from '@sauce-actions/action-kit/step/request-pacer';
import { shareOf, type Logger, type Shard, type WorkflowRun } from '@sauce-actions/action-kit';
import type { SkippedItem, TestPlan } from '@sauce-actions/action-kit/test-run/adapter';
import { quarantinePlan } from '@sauce-actions/action-kit/test-run/history/history-options';
import { listSome } from '@sauce-actions/action-kit/test-run/job-report';
import { defaultBuildName, searchedBuilds } from '@sauce-actions/action-kit/test-run/build-names';
import type { JobLister } from '@sauce-actions/action-kit/test-run/job-follower';
import type { ServiceClock } from '@sauce-actions/api';
import type { KnownCase } from './attempts.ts';
import type { SuiteInputs } from './inputs.ts';
import { earlierBuildNames, findEarlierResults, type EarlierResults } from './rerun.ts';
import type { CaseSelection } from './selection.ts';
import {
  emptySuite,
  findSuite,
  listSuiteCases,
  type FoundSuite,
  type StartClient,
  type SuiteCase,
} from './start.ts';

export interface Plan {
  /** The suite's cases as listed, when a suite runs. */
  suiteCases?: SuiteCase[];
  /** Cases to run one by one; absent: the whole suite in one suite run. */
  testCases?: CaseSelection[];
  /** Cases of the suite or of `test-cases`, before sharding. */
  selected: number;
  shard?: Shard;
}

/** What the step runs, as the engine starts it: the cases to run, and how and where. */
export interface SuitePlan extends TestPlan<CaseSelection> {
  suite: FoundSuite | undefined;
  /** The runs, less what passed in an earlier attempt. */
  runs: Plan;
  /** The runs before `rerun-failed` left out what passed in an earlier attempt. */
  planned: Plan;
  /** With `rerun-failed`, on a later attempt of the workflow run: what the earlier ones left. */
  earlier?: EarlierResults;
  /** The build asked for: `build-name`, or one unique to the workflow run and its attempt. */
  buildName: string;
  startedAtMs: number;
}

interface PlanContext {
  inputs: Pick<
    SuiteInputs,
    'suite' | 'testCases' | 'targets' | 'shard' | 'buildName' | 'rerunFailed' | 'history'
  >;
  client: {
    authoring: StartClient;
    automation: { jobs: JobLister };
    serviceClock: Pick<ServiceClock, 'now'>;
  };
  workflow: WorkflowRun;
  pacer: RequestPacer;
  logger: Logger;
}

export async function planSuite(
  context: PlanContext,
  signal: AbortSignal,
  startedAtMs: number,
): Promise<SuitePlan> {
  const { inputs, client } = context;
  const suite =
    inputs.suite !== undefined ? await findSuite(client.authoring, inputs.suite, signal) : undefined;
  const label = suite?.name ?? 'Test cases';
  const buildName = inputs.buildName ?? defaultBuildName(label, context.workflow, new Date(startedAtMs));
  const planned = await planRuns(client.authoring, inputs, suite, signal);
  const earlier = await earlierAttempts(context, signal, { label, plan: planned });
  const passed = withoutCases(planned, new Set(earlier?.passed.map(({ testCase }) => testCase.id)));
  const quarantined = await quarantinedToSkip(context, planned);
  const runs = withoutCases(passed, quarantined.ids);
  // A shard with no case to run has no round: nothing to wait for, and it passes.
  return {
    items: selectedCases(runs),
    suite,
    runs,
    planned,
    ...(earlier ? { earlier } : {}),
    buildName,
    startedAtMs,
    skipped: quarantined.reported,
  };
}

/**
 * With `rerun-failed`, on an attempt after the first: the earlier attempts' results of the planned
 * cases. None when there is nothing to look for; a search that fails is told and everything runs.
 */
async function earlierAttempts(
  { inputs, client, workflow, pacer, logger }: PlanContext,
  signal: AbortSignal,
  context: { label: string; plan: Plan },
): Promise<EarlierResults | undefined> {
  if (!inputs.rerunFailed || plannedCases(context.plan) === 0) return undefined;
  const earlier = earlierBuildNames(context.label, inputs.buildName, workflow);
  if (earlier === undefined) {
    if (Number(workflow.runAttempt ?? '1') > 1) {
      logger.warning(
        "This is a re-run, but without the run's identity (the CI system's run id) the build names of the earlier attempts cannot be known: every case runs.",
      );
    }
    return undefined;
  }
  try {
    const results = await findEarlierResults(client.automation.jobs, {
      cases: selectedCases(context.plan),
      known: knownCases(context.plan),
      ...earlier,
      nowMs: client.serviceClock.now(),
      runCreatedAtMs: workflow.createdAtMs,
      signal,
      pacer,
    });
    logger.info(
      `Attempt ${earlier.attempt}: ${results.found} job(s) of earlier attempts found in build(s) ${searchedBuilds(earlier.builds)}; ${results.passed.length} of ${plannedCases(context.plan)} case(s) passed there and are not run again.`,
    );
    return results;
  } catch (error) {
    if (signal.aborted) throw error;
    logger.warning(
      `Could not read the results of the earlier attempts (${(error as Error).message}): every case runs.`,
    );
    return undefined;
  }
}

async function planRuns(
  client: StartClient,
  inputs: Pick<SuiteInputs, 'testCases' | 'targets' | 'shard'>,
  suite: FoundSuite | undefined,
  signal: AbortSignal,
): Promise<Plan> {
  const shard = inputs.shard !== undefined && inputs.shard.total > 1 ? inputs.shard : undefined;
  const shardOf = shard !== undefined ? { shard } : {};
  if (suite === undefined) {
    const chosen = inputs.testCases ?? [];
    return {
      testCases: shareOf(chosen, shard, (testCase) => testCase.id),
      selected: chosen.length,
      ...shardOf,
    };
  }
  const suiteCases = await listSuiteCases(client, suite, signal);
  // One suite run, one build: unless only a share of the cases runs, or on targets of the step's own.
  if (shard === undefined && inputs.targets === undefined) return { suiteCases, selected: suiteCases.length };
  if (suiteCases.length === 0) throw emptySuite(suite);
  const share = shareOf(suiteCases, shard, (testCase) => testCase.id);
  return {
    suiteCases,
    testCases: share.map((testCase) => ({ id: testCase.id, name: testCase.name })),
    selected: suiteCases.length,
    ...shardOf,
  };
}

/**
 * The cases quarantined with `mode: skip`, which are not started (the rest then run one by one),
 * said in the log; an entry that matches no case of the step, even of another shard, is refused.
 */
async function quarantinedToSkip(
  { inputs, logger }: PlanContext,
  planned: Plan,
): Promise<{ ids: Set<string>; reported: SkippedItem[] }> {
  const cases = planned.suiteCases ?? inputs.testCases ?? [];
  const { skipped, reported } = await quarantinePlan(inputs.history, cases, (testCase) => ({
    id: testCase.id,
    name: testCase.name ?? testCase.id,
  }));
  if (skipped.length > 0) {
    logger.info(
      `Quarantined with mode skip, not started: ${listSome(skipped.map((testCase) => testCase.name ?? testCase.id))}.`,
    );
  }
  return { ids: new Set(skipped.map((testCase) => testCase.id)), reported };
}

/** The cases of the plan by id and name, to tell which case each job ran. */
export function knownCases(plan: Plan): KnownCase[] {
  return plan.suiteCases ?? plan.testCases ?? [];
}

/** The cases the plan runs, as selections to run one by one. */
export function selectedCases(plan: Plan): CaseSelection[] {
  return plan.testCases ?? plan.suiteCases?.map(({ id, name }) => ({ id, name })) ?? [];
}

/** The plan without the cases that passed in an earlier attempt: the rest run one by one. */
function withoutCases(plan: Plan, passed: ReadonlySet<string>): Plan {
  if (passed.size === 0) return plan;
  return { ...plan, testCases: selectedCases(plan).filter((testCase) => !passed.has(testCase.id)) };
}

/** The number of cases the plan runs. */
export function plannedCases(plan: Plan): number {
  return plan.testCases?.length ?? plan.selected;
}
