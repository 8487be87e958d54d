/**
 * What this step runs: the whole suite in one suite run, or cases one by one (chosen test cases,
 * a suite's cases on `targets` of their own, or this shard's share of them).
 */
import { shareOf, type Shard } from '@sauce-actions/action-kit';
import type { SuiteInputs } from './inputs.ts';
import type { CaseSelection } from './selection.ts';
import { emptySuite, listSuiteCases, type FoundSuite, type StartClient, type SuiteCase } from './start.ts';

export interface Plan {
  /** The suite's cases as listed, when a suite runs. */
  suiteCases?: SuiteCase[];
  /** Cases to run one by one; absent: the whole suite in one suite run. */
  testCases?: CaseSelection[];
  /** Cases of the suite or of `test-cases`, before sharding. */
  selected: number;
  shard?: Shard;
}

export async function planRuns(
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

/** The cases the plan runs, as selections to run one by one. */
export function selectedCases(plan: Plan): CaseSelection[] {
  return plan.testCases ?? plan.suiteCases?.map(({ id, name }) => ({ id, name })) ?? [];
}

/** The plan without the cases that passed in an earlier attempt: the rest run one by one. */
export function withoutCases(plan: Plan, passed: ReadonlySet<string>): Plan {
  if (passed.size === 0) return plan;
  return { ...plan, testCases: selectedCases(plan).filter((testCase) => !passed.has(testCase.id)) };
}

/** The number of cases the plan runs. */
export function plannedCases(plan: Plan): number {
  return plan.testCases?.length ?? plan.selected;
}
