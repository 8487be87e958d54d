/**
 * A step's history, as the engine asks it once the results are in: compared with the earlier
 * runs, and this run's record kept for the runs after it. Neither may cost the step its results:
 * both run on a deadline of their own (the step's may have passed: its results are published
 * all the same), and what fails is a warning and a line of the summary.
 */
import { anySignal } from '@sauce-actions/api';
import type { StepDeps } from '../../deps.ts';
import { abortReasonOf } from '../../step/failure.ts';
import type { HistoryItemOf, HistoryOptions, TestResults } from '../adapter.ts';
import { compareWithHistory, keepRecord, offComparison, type Comparison } from './comparison.ts';

/** Time the history may take after the results are in: a search and a request per earlier run. */
const HISTORY_DEADLINE_MS = 60_000;

type HistoryDeps = Pick<StepDeps, 'logger' | 'signal' | 'workflow' | 'ci' | 'pacer'>;

/** An item by what the step ran and on which platform, unless the adapter names it. */
function defaultItem<R>(result: Parameters<HistoryItemOf<R>>[0]): { item: string; name: string } {
  return {
    item: `${result.last.item ?? result.job.name}\u0000${result.job.platform}`,
    name: result.job.name,
  };
}

export async function stepHistory<R>(
  results: TestResults<R>,
  itemOf: HistoryItemOf<R> | undefined,
  options: HistoryOptions | undefined,
  deps: HistoryDeps,
): Promise<Comparison | undefined> {
  if (options === undefined) return undefined;
  const item = itemOf ?? defaultItem;
  // Cancelled: the runner kills the step within seconds, and its results go first.
  if (abortReasonOf(deps.signal) === 'cancelled')
    return offComparison(results, item, options, 'the step was cancelled');
  const deadline = AbortSignal.timeout(HISTORY_DEADLINE_MS);
  const context = {
    workflow: deps.workflow,
    ci: deps.ci,
    pacer: deps.pacer,
    signal: anySignal(deps.signal, deadline),
  };
  let comparison: Comparison;
  try {
    comparison = await compareWithHistory(results, item, options, context);
  } catch (error) {
    const why = `the earlier runs could not be read: ${(error as Error).message}`;
    deps.logger.warning(`No comparison with earlier runs: ${why}.`);
    return offComparison(results, item, options, why);
  }
  deps.logger.info(
    comparison.off ??
      `Compared with ${comparison.compared.length} earlier run(s) in ${comparison.requests} request(s).`,
  );
  try {
    await keepRecord(results, comparison, { ...options, get: (id) => options.jobs.get(id) }, context);
  } catch (error) {
    deps.logger.warning(`This run's record for later runs could not be kept: ${(error as Error).message}`);
  }
  return comparison;
}
