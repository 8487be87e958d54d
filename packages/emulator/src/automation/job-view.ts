/**
 * A job's public state, derived from its timestamps at the moment of asking: no timers run, so a
 * stopped emulator, a snapshot or a reset never leaves a job half-way through a transition.
 */
import type { JobRecord } from './model.ts';

type JobStatus = 'queued' | 'in progress' | 'complete' | 'error';

/** Part of the job duration spent queued before the simulated VM starts. */
const QUEUED_SHARE = 0.2;

interface JobTimes {
  status: JobStatus;
  /** Milliseconds; null while the job has not reached that point. */
  startMs: number | null;
  endMs: number | null;
  /** Why a job in error ended: a client stopped it, or it ran past its maximum duration. */
  ended?: 'stopped' | 'timed out';
}

export function jobTimes(job: JobRecord, nowMs: number): JobTimes {
  const startAt = job.createdMs + Math.round(job.durationMs * QUEUED_SHARE);
  const fullEnd = job.createdMs + job.durationMs;
  // A run longer than its maximum duration is cut off when that is reached.
  const limit = job.maxDurationMs;
  const timesOut = limit !== undefined && fullEnd - startAt > limit;
  const endAt = timesOut ? startAt + limit : fullEnd;
  if (job.stoppedMs !== null && job.stoppedMs < endAt) {
    return {
      status: 'error',
      startMs: job.stoppedMs >= startAt ? startAt : null,
      endMs: job.stoppedMs,
      ended: 'stopped',
    };
  }
  if (nowMs < startAt) return { status: 'queued', startMs: null, endMs: null };
  if (nowMs < endAt) return { status: 'in progress', startMs: startAt, endMs: null };
  if (timesOut) return { status: 'error', startMs: startAt, endMs: endAt, ended: 'timed out' };
  return { status: 'complete', startMs: startAt, endMs: endAt };
}

/**
 * The `error` text of a job that ended in error: the service's words for a stopped job and for
 * one that ran past its maximum duration (public JS unit test clients match the latter).
 */
export function jobError(job: JobRecord, times: JobTimes): string | null {
  if (times.status !== 'error') return null;
  if (times.ended === 'timed out') {
    return `Test exceeded maximum duration after ${Math.round((job.maxDurationMs ?? 0) / 1000)} seconds`;
  }
  return 'User terminated';
}

export function isFinished(job: JobRecord, nowMs: number): boolean {
  const { status } = jobTimes(job, nowMs);
  return status === 'complete' || status === 'error';
}

const seconds = (ms: number): number => Math.floor(ms / 1000);

/** The whole job as the REST interface answers it; `baseUrl` is the address the client called. */
export function jobView(job: JobRecord, nowMs: number, baseUrl: string): Record<string, unknown> {
  const times = jobTimes(job, nowMs);
  const finished = times.status === 'complete' || times.status === 'error';
  // `passed` stays null until the run ends (or a client sets it); a stopped run never reaches its
  // outcome, so only a client's value can set it then.
  const passed = job.passedOverride ?? (times.status === 'complete' ? job.passes : null);
  const consolidated =
    times.status === 'complete'
      ? passed === null
        ? 'complete'
        : passed
          ? 'passed'
          : 'failed'
      : times.status;
  const lastTransition = times.endMs ?? times.startMs ?? job.createdMs;
  const assetsBase = `${baseUrl}/rest/v1/${encodeURIComponent(job.owner)}/jobs/${job.id}/assets`;
  const shortVersion = job.browserVersion.split('.')[0] ?? job.browserVersion;
  return {
    id: job.id,
    name: job.name,
    build: job.build,
    status: times.status,
    passed,
    consolidated_status: consolidated,
    error: jobError(job, times),
    owner: job.owner,
    browser: job.browser,
    browser_version: job.browserVersion,
    browser_short_version: shortVersion,
    os: job.os,
    automation_backend: job.automationBackend,
    creation_time: seconds(job.createdMs),
    start_time: times.startMs === null ? null : seconds(times.startMs),
    end_time: times.endMs === null ? null : seconds(times.endMs),
    modification_time: seconds(Math.max(job.modifiedMs, lastTransition)),
    // The emulator records no video; the link follows the real asset path so clients can build it.
    video_url: `${assetsBase}/video.mp4`,
    log_url: `${assetsBase}/selenium-server.log`,
    tags: job.tags,
    'custom-data': job.customData,
    public: job.public,
    assigned_tunnel_id: job.tunnelId,
    proxied: false,
    manual: false,
    commands_not_successful: finished && passed === false ? 1 : 0,
    base_config: { browserName: job.browser, browserVersion: job.browserVersion, platformName: job.os },
    command_counts: { All: finished ? 12 : 0, Error: finished && passed === false ? 1 : 0 },
    record_video: false,
    record_screenshots: true,
  };
}
