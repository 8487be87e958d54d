/**
 * What a job's status means: finished or not, how it is reported, and a word about a status the
 * service does not document.
 */
import type { Job } from '@sauce-actions/api';
import type { ReportedJobStatus } from './job-report.ts';

const FINISHED = new Set(['complete', 'error', 'passed', 'failed']);
/** Every status the service documents: new, queued, in progress, and the finished ones. */
const KNOWN = new Set([...FINISHED, 'new', 'queued', 'in progress', 'running']);

/** Whether the status is one the service documents; any other is followed as not finished. */
export function isKnownJobStatus(status: unknown): boolean {
  return typeof status === 'string' && KNOWN.has(status.toLowerCase());
}

/**
 * The warning for a job whose status is none the service documents. Such a job is taken as not
 * finished, as saucectl does (finished is complete, error, passed or failed only), so the wait
 * goes on until it changes or the `timeout` passes: the warning says so, once.
 */
export function unknownStatusWarning(job: Pick<Job, 'id' | 'name' | 'status'>): string {
  const name = job.name ? `"${oneLine(job.name)}" (${oneLine(job.id)})` : oneLine(job.id);
  return `Job ${name} reports the status "${oneLine(String(job.status))}", which Sauce Labs does not document: it is taken as not finished, and followed until it finishes or \`timeout\` passes.`;
}

/** Service text on one short line: control characters and line breaks out, at most 80 characters. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  const line = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

export function isJobFinished(job: Pick<Job, 'status'>): boolean {
  return FINISHED.has(String(job.status).toLowerCase());
}

/** The report status of a job; `stopped` for unfinished jobs this run stopped. */
export function reportedStatus(job: Job, stoppedIds: ReadonlySet<string> = new Set()): ReportedJobStatus {
  const status = String(job.status).toLowerCase();
  if (stoppedIds.has(job.id) && (status === 'error' || !FINISHED.has(status))) return 'stopped';
  if (status === 'passed') return 'passed';
  if (status === 'failed') return 'failed';
  if (status === 'error') return 'error';
  if (status === 'complete') {
    if (job.passed === true || job.consolidated_status === 'passed') return 'passed';
    // A finished virtual-device job passed only when `passed` is true.
    return 'failed';
  }
  if (status === 'in progress' || status === 'running') return 'running';
  return 'queued';
}
