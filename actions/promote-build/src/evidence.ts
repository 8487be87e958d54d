/**
 * What a build showed in its ring, read from the service: its counters (the build's own, since
 * its upload) and the feedbacks testers sent since it entered the ring. The interface lists the
 * account's latest 100 feedbacks only: when all 100 are newer than the ring's start, older ones
 * of the build may be missing, and the report says the window is full.
 */
import { parseServiceTime, type MobileClient, type MobileFeedback } from '@sauce-actions/api';
import type { StepDeps } from '@sauce-actions/action-kit';
import { oneLine } from '@sauce-actions/action-kit/reporting/one-line';
import type { Evidence } from './decision.ts';
import type { BuildStanding } from './ring-record.ts';

/** The feedbacks the interface lists at most. */
export const FEEDBACK_WINDOW = 100;

export interface ListedFeedback {
  atMs: number;
  text: string;
  by: string;
}

export interface ReadEvidence extends Evidence {
  feedbacks: ListedFeedback[];
  /** All the listed feedbacks are newer than the ring's start: older ones may be missing. */
  windowFull: boolean;
}

export interface EvidenceDeps extends Pick<StepDeps, 'signal'> {
  client: { mobile: { feedbacks: Pick<MobileClient['feedbacks'], 'list'> } };
}

function timeOf(feedback: MobileFeedback): number | undefined {
  return parseServiceTime(feedback.recorded_at ?? feedback.recordedAt);
}

/**
 * The evidence, read only where a gate reads it: a build in a ring before the last of `rings`.
 * A build in no ring, in the last ring or in one `rings` does not name needs none, and its step
 * sends one request less.
 */
export async function readEvidence(
  buildId: string,
  standing: BuildStanding,
  rings: readonly string[],
  deps: EvidenceDeps,
): Promise<ReadEvidence> {
  const at = standing.record === undefined ? -1 : rings.indexOf(standing.record.ring);
  if (at < 0 || at === rings.length - 1) {
    return { counters: standing.counters, feedbacksListed: 0, feedbacks: [], windowFull: false };
  }
  const sinceMs = standing.record?.sinceMs ?? Number.NEGATIVE_INFINITY;
  const listed = (await deps.client.mobile.feedbacks.list({ signal: deps.signal })).feedbacks ?? [];
  const feedbacks = listed.flatMap((feedback) => {
    const atMs = timeOf(feedback);
    if (String(feedback.buildId) !== buildId || atMs === undefined || atMs < sinceMs) return [];
    return [
      { atMs, text: oneLine(String(feedback.text ?? '')), by: oneLine(String(feedback.reported_by ?? '')) },
    ];
  });
  const times = listed.map(timeOf).filter((ms): ms is number => ms !== undefined);
  const windowFull = listed.length >= FEEDBACK_WINDOW && times.every((ms) => ms >= sinceMs);
  return { counters: standing.counters, feedbacksListed: feedbacks.length, feedbacks, windowFull };
}
