/** The service's jobs as the report shows them: name, platform, status, duration, link, why they failed. */
import { byServiceTime } from '@sauce-actions/action-kit/test-run/gather';
import { reportedStatus } from '@sauce-actions/action-kit/test-run/job-status';
import type { ReportedJob } from '@sauce-actions/action-kit/test-run/job-report';
import type { Job } from '@sauce-actions/api';
import type { Started } from './start.ts';

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

/** The run's jobs, oldest first, with the known jobs the list never showed (so that totals count them). */
export function reportedJobs(
  seen: readonly Job[],
  started: Pick<Started, 'jobIds' | 'names'>,
  jobUrl: (id: string) => string,
  stopped: ReadonlySet<string>,
  endedEarly: boolean,
): ReportedJob[] {
  const ordered = [...seen].sort((a, b) => byServiceTime(a.creation_time, b.creation_time));
  const jobs = ordered.map((job) => reportJob(job, jobUrl, stopped));
  const seenIds = new Set(seen.map((job) => job.id));
  for (const id of started.jobIds) {
    if (seenIds.has(id)) continue;
    jobs.push({
      id,
      name: started.names.get(id) ?? id,
      platform: '',
      status: stopped.has(id) ? 'stopped' : 'queued',
      url: jobUrl(id),
      ...(endedEarly ? { detail: 'not seen in the job list before the wait ended' } : {}),
    });
  }
  return jobs;
}
