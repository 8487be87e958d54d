/**
 * The rounds of a test run: the planned items, then those that failed while `retries` lasts. A
 * round starts its batch (the start requests outliving the deadline by a grace period), follows
 * it (stopping early on `fail-fast`), stops what is unfinished when it ended early, and keeps
 * for the post step what it may have to stop.
 */
import { anySignal, ApiError, TransportError } from '@sauce-actions/api';
import type { Clock } from '../deps.ts';
import { graceAfter } from '../step/cancellation.ts';
import { abortReasonOf, ActionError, describeFailure } from '../step/failure.ts';
import type { Logger } from '../step/logger.ts';
import type { Batch, EarlyEnd, ItemOf, Round, Run, TestPlan, TestRunAdapter } from './adapter.ts';
import { isFailedJob } from './job-report.ts';
import type { RunningRecord } from './post-step.ts';

/**
 * How long a request that starts jobs may outlive a cancellation or the `timeout`: its answer
 * names what it started, without which that cannot be found to be stopped.
 */
export const START_GRACE_MS = 2500;

/**
 * Whether a failed start request surely started nothing: refused, or never sent; not so when the
 * service may have carried it out.
 */
export function surelyNotStarted(error: unknown): boolean {
  return (error instanceof ApiError || error instanceof TransportError) && !error.mayHaveBeenProcessed;
}

/** Least time between two progress lines that say nothing new. */
const QUIET_PROGRESS_MS = 60_000;

interface RoundsContext<W extends object> {
  /** The step's deadline. */
  signal: AbortSignal;
  retries: number;
  failFast?: boolean;
  /** Where what runs is recorded for the post step; none when nothing is to be stopped. */
  record: RunningRecord<W> | undefined;
  clock: Pick<Clock, 'monotonic'>;
  logger: Logger;
}

/** Every round of the run; a retry that could not start ends them, and says why. */
export async function runRounds<P extends TestPlan, R, W extends object, B extends Batch<R, W>>(
  adapter: Pick<TestRunAdapter<P, R, B, never>, 'batch' | 'retryItems' | 'itemsName'>,
  plan: P,
  context: RoundsContext<W>,
): Promise<{ rounds: Round<R, B>[]; notRetried?: string }> {
  const rounds: Round<R, B>[] = [];
  let items: readonly ItemOf<P>[] = plan.items;
  while (items.length > 0) {
    const attempt = rounds.length + 1;
    const round = await runRound<R, W, B>(adapter.batch(plan, items, attempt), attempt, context);
    if (attempt > 1 && !round.batch.started && round.end?.why === 'failed') {
      // Nothing ran again: the items stand as the attempts before left them, and the step fails or
      // passes on them; why the retry did not run is a warning.
      const notRetried = `The failed ${adapter.itemsName} were not run again: ${describeFailure(round.end.error, context.signal).message}`;
      context.logger.warning(notRetried);
      return { rounds, notRetried };
    }
    rounds.push(round);
    items = round.end === undefined && attempt <= context.retries ? adapter.retryItems(plan, round) : [];
  }
  return { rounds };
}

/**
 * Starts a batch, follows its jobs to their end, and stops them if the round ends first. The
 * first round throws what fails before anything was started; a retry reports it.
 */
async function runRound<R, W extends object, B extends Batch<R, W>>(
  batch: B,
  attempt: number,
  context: RoundsContext<W>,
): Promise<Round<R, B>> {
  const end = (await startBatch(batch, attempt, context)) ?? (await followBatch(batch, attempt, context));
  // A round whose jobs all turn out finished while they were being stopped ended as it should.
  const finishedMeanwhile = end !== undefined && batch.started && (await batch.stop(end));
  const ended = finishedMeanwhile ? undefined : end;
  context.record?.finish(batch.leftRunning());
  return { attempt, batch, ...(ended !== undefined ? { end: ended } : {}), runs: batch.runs(ended) };
}

async function startBatch<R, W extends object>(
  batch: Batch<R, W>,
  attempt: number,
  context: RoundsContext<W>,
): Promise<EarlyEnd<R> | undefined> {
  const { signal, record } = context;
  const grace = graceAfter(signal, START_GRACE_MS);
  try {
    await batch.start({
      signal,
      requestSignal: grace.signal,
      onStarted: () => record?.save(batch.running()),
    });
    return undefined;
  } catch (caught) {
    const error = cutOff(batch, caught, signal);
    if (attempt === 1 && !batch.started) throw error;
    return earlyEnd('start', signal, error);
  } finally {
    grace.dispose();
  }
}

/** A start request cut off by the deadline with no answer: the failure says what may run, and where. */
function cutOff(batch: Pick<Batch, 'cutOff'>, error: unknown, signal: AbortSignal): unknown {
  const aborted = abortReasonOf(signal);
  const message = aborted !== undefined ? batch.cutOff(aborted) : undefined;
  return message !== undefined && aborted !== undefined
    ? new ActionError(aborted, message, { cause: error })
    : error;
}

async function followBatch<R, W extends object>(
  batch: Batch<R, W>,
  attempt: number,
  context: RoundsContext<W>,
): Promise<EarlyEnd<R> | undefined> {
  const { signal, record, clock, logger } = context;
  const failFast = new AbortController();
  let failedFast: Run<R> | undefined;
  let lastLineAt = -Infinity;
  /** A run that failed and will not run again: its item has no attempt left, or cannot be told. */
  const failsForGood = (run: Run<R>): boolean =>
    isFailedJob(run.job) && (attempt > context.retries || run.item === undefined);
  try {
    const complete = await batch.follow(anySignal(signal, failFast.signal), (progress) => {
      record?.save(batch.running());
      const now = clock.monotonic();
      // One line when something changed, else one a minute at most.
      if (progress.changed || now - lastLineAt >= QUIET_PROGRESS_MS) {
        lastLineAt = now;
        logger.info(progress.line);
      }
      failedFast ??= context.failFast ? progress.runs.find(failsForGood) : undefined;
      if (failedFast) failFast.abort();
    });
    if (complete) return undefined;
    if (failedFast && !signal.aborted) return { why: 'fail-fast', phase: 'follow', failedFast };
    return earlyEnd('follow', signal);
  } catch (error) {
    return earlyEnd('follow', signal, error);
  }
}

/**
 * Why a start or a follow ended early: the step's deadline, else the error; a wait cut short
 * without either was cancelled.
 */
function earlyEnd<R>(phase: EarlyEnd['phase'], signal: AbortSignal, error?: unknown): EarlyEnd<R> {
  const why = abortReasonOf(signal) ?? (error === undefined ? 'cancelled' : 'failed');
  return { why, phase, ...(error !== undefined ? { error } : {}) };
}
