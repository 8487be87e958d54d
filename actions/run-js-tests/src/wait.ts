/**
 * Polls the status of every started platform in one request per poll until the service says all
 * are final, the signal aborts (deadline or cancellation), or the service keeps failing. The gaps
 * are the kit's (`poll-schedule.ts`): growing while no platform ends, back to the floor when one
 * did, and spread over a matrix's shards.
 */
import type { Clock, Logger } from '@sauce-actions/action-kit';
import { nextPollGap, type PollPace } from '@sauce-actions/action-kit/test-run/poll-schedule';
import { ApiError, jsTestsFinished, TransportError, type JsTestStatusAnswer } from '@sauce-actions/api';

export interface StatusSource {
  getStatus(
    ids: readonly string[],
    params?: object,
    options?: { signal?: AbortSignal; timeouts?: { headersMs?: number } },
  ): Promise<JsTestStatusAnswer>;
}

interface WaitOptions {
  ids: readonly string[];
  /** `poll-interval`, and the shards of the matrix this step is one of. */
  pace: PollPace;
  signal?: AbortSignal;
  /** Called after every answer; at most one progress line per poll comes from it. */
  onAnswer?: (answer: JsTestStatusAnswer) => void;
  /** Waits between polls, and reckons how long the platforms have been followed. */
  clock: Pick<Clock, 'sleep' | 'monotonic'>;
  /** Where a failed poll that is ridden out is told. */
  logger: Pick<Logger, 'warning'>;
  /** Failed polls in a row that are ridden out before giving up (default 5). */
  maxFailedPolls?: number;
}

type WaitResult =
  | { ended: 'finished'; answer: JsTestStatusAnswer }
  | { ended: 'aborted'; answer: JsTestStatusAnswer | undefined };

/** Answers that may go away on their own: the service is busy or down, or the network hiccuped. */
function isTransient(error: unknown): boolean {
  if (error instanceof ApiError) return error.isServiceError;
  if (error instanceof TransportError) return error.kind !== 'aborted';
  return false;
}

export async function waitForResults(source: StatusSource, options: WaitOptions): Promise<WaitResult> {
  const maxFailed = options.maxFailedPolls ?? 5;
  let answer: JsTestStatusAnswer | undefined;
  let failedInRow = 0;
  let gap: number | undefined;
  let endedBefore = 0;
  const started = options.clock.monotonic();
  for (;;) {
    if (options.signal?.aborted) return { ended: 'aborted', answer };
    try {
      answer = await source.getStatus(options.ids, {}, options.signal ? { signal: options.signal } : {});
      failedInRow = 0;
      options.onAnswer?.(answer);
      if (jsTestsFinished(answer)) return { ended: 'finished', answer };
    } catch (error) {
      if (options.signal?.aborted) return { ended: 'aborted', answer };
      failedInRow += 1;
      if (!isTransient(error) || failedInRow >= maxFailed) throw error;
      // The client already retried this poll; the next poll tries again.
      options.logger.warning(
        `Checking the status failed (${(error as Error).message}); trying again at the next poll (${failedInRow} of ${maxFailed - 1} ridden out).`,
      );
    }
    const ended = answer?.['js tests'].filter((entry) => entry.result !== null).length ?? 0;
    gap = nextPollGap(options.pace, {
      ...(gap !== undefined ? { lastGapMs: gap } : {}),
      ended: ended > endedBefore,
      elapsedMs: options.clock.monotonic() - started,
    });
    endedBefore = ended;
    try {
      await options.clock.sleep(gap, options.signal);
    } catch {
      return { ended: 'aborted', answer };
    }
  }
}
