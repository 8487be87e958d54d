/** Turns the service's jobs into the report model, the JUnit suites and the results file. */
import type { ReportedJob } from '@sauce-actions/action-kit/job-report';
import { reportedStatus } from '@sauce-actions/action-kit/job-follower';
import type { JUnitTestCase, JUnitTestSuite } from '@sauce-actions/action-kit/junit';
import type { Job } from '@sauce-actions/api';

export function platformOf(
  job: Pick<Job, 'browser' | 'browser_short_version' | 'browser_version' | 'os'>,
): string {
  const version = job.browser_short_version || job.browser_version || '';
  const browser = [job.browser, version].filter(Boolean).join(' ');
  return [browser, job.os].filter(Boolean).join(', ');
}

export function reportJob(
  job: Job,
  jobUrl: (id: string) => string,
  stopped: ReadonlySet<string>,
): ReportedJob {
  const status = reportedStatus(job, stopped);
  const start = job.start_time ?? job.creation_time;
  const duration =
    job.end_time !== null && job.end_time !== undefined && start ? job.end_time - start : undefined;
  const detail =
    status === 'stopped'
      ? 'stopped before it finished'
      : status === 'error'
        ? (job.error ?? 'ended in error')
        : status === 'failed'
          ? (job.error ?? undefined)
          : undefined;
  return {
    id: job.id,
    name: job.name ?? job.id,
    platform: platformOf(job),
    status,
    ...(duration !== undefined && duration >= 0 ? { durationSeconds: duration } : {}),
    url: jobUrl(job.id),
    ...(detail ? { detail } : {}),
  };
}

/** One JUnit suite for the run; every job a case, unfinished jobs errors since they have no result. */
export function junitSuites(
  name: string,
  buildName: string,
  jobs: readonly ReportedJob[],
  startedAt: Date,
): JUnitTestSuite[] {
  const cases = jobs.map((job): JUnitTestCase => {
    const base: JUnitTestCase = {
      name: job.name,
      classname: `${name}.${job.platform}`,
      ...(job.durationSeconds !== undefined ? { timeSeconds: job.durationSeconds } : {}),
      url: job.url,
    };
    const details = job.detail ? `${job.detail}\n${job.url}` : job.url;
    if (job.status === 'failed')
      return { ...base, failure: { message: job.detail ?? 'the job failed', details } };
    if (job.status === 'error')
      return { ...base, error: { message: job.detail ?? 'the job ended in error', details } };
    if (job.status !== 'passed')
      return { ...base, error: { message: `did not finish (${job.status})`, details } };
    return base;
  });
  return [{ name, cases, timestamp: startedAt, properties: { build: buildName } }];
}
