/**
 * How a run ended, in words: the note under the totals when its last round ended before its jobs
 * did, and what makes the step fail.
 */
import { describeFailure, formatDuration, type Failure } from '@sauce-actions/action-kit';
import type { Round } from '@sauce-actions/action-kit/test-run/adapter';
import { isFailedJob, type JobTally, type ReportedJob } from '@sauce-actions/action-kit/test-run/job-report';
import type { Job } from '@sauce-actions/api';
import type { SuiteBatch } from './batch.ts';

type SuiteRound = Round<Job | undefined, SuiteBatch>;

/** Why the last round ended before every job finished, and what became of the jobs; none when it did not. */
export function endNote({ end, batch: { queued, stopped } }: SuiteRound): string | undefined {
  if (end === undefined) return undefined;
  const stoppedText = stopped.ids.size > 0 ? ` ${stopped.ids.size} unfinished job(s) were stopped.` : '';
  const missingText =
    stopped.missing > 0
      ? ` ${stopped.missing} job(s) the runs queued did not show in time${stopped.asked ? ' and could not be stopped' : ''}.`
      : '';
  const unanswered =
    queued.unanswered !== undefined
      ? ` One more start request got no answer: what it queued, if anything, could not be identified.`
      : '';
  const after = `${stoppedText}${missingText}${unanswered}`;
  if (end.phase === 'start') {
    return `Starting the runs ended after ${queued.runs} case run(s) were queued; their jobs were not followed.${after}`;
  }
  switch (end.why) {
    case 'timeout':
      return `The wait timed out before every job finished.${after}`;
    case 'cancelled':
      return `The run was cancelled before every job finished.${after}`;
    case 'failed':
      return `Following the jobs failed before every job finished: the jobs are shown as last seen.${after}`;
    case 'fail-fast': {
      const job = end.failedFast?.job;
      return `Fail fast: "${job?.name}" (${job?.platform}) failed with no attempt left, so the jobs still queued or running were stopped and no more attempts were made.${after}`;
    }
  }
}

/** What makes the step fail: the wait ended early, the start or the wait failed, or jobs failed. */
export function suiteFailure(
  report: { buildName: string; jobs: readonly ReportedJob[] },
  last: SuiteRound | undefined,
  tally: JobTally,
  context: { failOnFailure: boolean; timeoutMs: number; signal: AbortSignal },
): Failure | undefined {
  const { buildName } = report;
  const end = last?.end;
  const stopped = last?.batch.stopped;
  const stoppedCount = stopped?.ids.size ?? 0;
  const missing =
    stopped !== undefined && stopped.missing > 0
      ? ` ${stopped.missing} more job(s) the runs queued did not show in time${stopped.asked ? ' and could not be stopped' : ''}.`
      : '';
  if (end?.why === 'timeout' || end?.why === 'cancelled') {
    const notFinished = tally.total - tally.finished;
    const where =
      end.phase === 'start'
        ? `while starting the runs of build "${buildName}"`
        : `while waiting for build "${buildName}"`;
    const unstopped = stopped?.failed.length ?? 0;
    const counts = `${tally.finished} of ${tally.total} job(s) finished (${tally.passed} passed, ${tally.failed} failed); ${notFinished} did not finish${stoppedCount > 0 ? ` and ${stoppedCount === 1 ? '1 was' : `${stoppedCount} were`} stopped` : ''}${unstopped > 0 ? `; ${unstopped === 1 ? '1 job' : `${unstopped} jobs`} could not be stopped in time, which the post step stops` : ''}.${missing}`;
    if (end.why === 'timeout') {
      return {
        kind: 'timeout',
        message: `Timed out ${where}: ${counts} Raise \`timeout\` (now ${formatDuration(context.timeoutMs)}) if the suite needs longer.`,
      };
    }
    return { kind: 'cancelled', message: `Cancelled ${where}: ${counts}` };
  }
  if (end?.why === 'failed') {
    const failure = describeFailure(end.error, context.signal);
    const stoppedText =
      stoppedCount > 0 ? ` The ${stoppedCount} unfinished job(s) of build "${buildName}" were stopped.` : '';
    return { ...failure, message: `${failure.message}${stoppedText}${missing}` };
  }
  if (tally.failed > 0 && context.failOnFailure) {
    const names = report.jobs
      .filter(isFailedJob)
      .map(
        (job) =>
          `"${job.name}" (${job.platform}${job.attempts?.length ? `, all ${job.attempts.length + 1} attempts` : ''})`,
      );
    const fast =
      end?.why === 'fail-fast'
        ? ` \`fail-fast\` stopped the ${stoppedCount} job(s) still queued or running.${missing}`
        : '';
    return {
      kind: 'tests-failed',
      message: `${tally.failed} of ${tally.total} job(s) failed in build "${buildName}": ${names.slice(0, 10).join(', ')}${names.length > 10 ? ', …' : ''}.${fast} See the step summary for links.`,
    };
  }
  return undefined;
}
