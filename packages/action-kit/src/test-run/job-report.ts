/**
 * The report of a set of jobs, finished or not: totals, the step summary table, one annotation per
 * failed job and the results file. Shared by the actions that start jobs and wait for them.
 */
import { MAX_NAME_LENGTH, shorten } from '../reporting/one-line.ts';
import { wholeText } from '../reporting/budget.ts';
import { writeOutputFile } from '../reporting/output-files.ts';
import type { ItemList, ListItem, StructuredText } from '../reporting/report-text.ts';
import type { Annotation } from '../reporting/result.ts';
import { escapeHtml, linkHtml, safeSentence, safeText } from '../reporting/summary.ts';
import { redactSecrets } from '../step/secrets.ts';

export type ReportedJobStatus = 'passed' | 'failed' | 'error' | 'queued' | 'running' | 'stopped';

export interface ReportedJob {
  id: string;
  name: string;
  /** Browser and version, and the OS, e.g. "chrome 126, Windows 11". */
  platform: string;
  status: ReportedJobStatus;
  durationSeconds?: number;
  /** The job's dashboard page; empty for an item that no step ran, which has no job. */
  url: string;
  /** Why it failed, or what else a reader needs. */
  detail?: string;
  /** Earlier runs of the same test on the same platform, oldest first, when it was run again. */
  attempts?: readonly JobAttempt[];
}

/** One earlier run of a job's test (the job itself is the last). */
export interface JobAttempt {
  id: string;
  url: string;
  status: ReportedJobStatus;
  detail?: string;
}

/** Passed after one or more failed runs: flaky, which does not fail the step but is shown. */
export function isFlakyJob(job: ReportedJob): boolean {
  return job.status === 'passed' && (job.attempts ?? []).some((attempt) => isFailedJob(attempt));
}

export interface JobTally {
  total: number;
  passed: number;
  /** Jobs that ended failed or in error. */
  failed: number;
  queued: number;
  running: number;
  /** Jobs that were stopped before they finished (on timeout or cancellation). */
  stopped: number;
  /** Jobs that ended: passed plus failed. */
  finished: number;
  /** Passed jobs that failed on an earlier attempt (counted in `passed` too). */
  flaky: number;
}

export function tallyJobs(jobs: readonly ReportedJob[]): JobTally {
  const tally: JobTally = {
    total: jobs.length,
    passed: 0,
    failed: 0,
    queued: 0,
    running: 0,
    stopped: 0,
    finished: 0,
    flaky: 0,
  };
  for (const job of jobs) {
    if (isFlakyJob(job)) tally.flaky += 1;
    if (job.status === 'passed') tally.passed += 1;
    else if (job.status === 'failed' || job.status === 'error') tally.failed += 1;
    else if (job.status === 'queued') tally.queued += 1;
    else if (job.status === 'running') tally.running += 1;
    else tally.stopped += 1;
  }
  tally.finished = tally.passed + tally.failed;
  return tally;
}

export function isFailedJob(job: Pick<ReportedJob, 'status'>): boolean {
  return job.status === 'failed' || job.status === 'error';
}

/**
 * What `retries` did, for the summary: of the jobs (or platforms) run again, how many passed on a
 * retry (flaky), failed every attempt, passed again (run with a case that failed on another
 * platform), or did not finish.
 */
export function retryNote(
  items: readonly { status: string; attempts?: readonly { status: string }[] }[],
  options: { what: string; retries: number; attemptsInAll?: number },
): string {
  const failedStatus = (status: string): boolean => status === 'failed' || status === 'error';
  const retried = items.filter((item) => (item.attempts ?? []).length > 0);
  const passed = retried.filter((item) => item.status === 'passed');
  const flaky = passed.filter((item) =>
    item.attempts?.some((attempt) => failedStatus(attempt.status)),
  ).length;
  const passedAgain = passed.length - flaky;
  const failed = retried.filter((item) => failedStatus(item.status)).length;
  const unfinished = retried.length - passed.length - failed;
  const parts = [
    `${flaky} passed on a retry (flaky)`,
    `${failed} failed every attempt`,
    ...(passedAgain > 0 ? [`${passedAgain} passed again`] : []),
    ...(unfinished > 0 ? [`${unfinished} did not finish`] : []),
  ];
  const inAll = options.attemptsInAll !== undefined ? `, ${options.attemptsInAll} attempts in all` : '';
  return `Failed ${options.what} were run again (\`retries: ${options.retries}\`${inAll}): of the ${retried.length} run again, ${parts.join(', ')}.`;
}

/** Items a log line names at most; the rest are counted. */
const LISTED_IN_A_LINE = 5;

/**
 * A few items for a log line (`a, b, c, d, e and 95 more`), each shortened: a retry of a large
 * suite would otherwise print every case's name on one line (19 KB for a thousand cases).
 */
export function listSome(items: readonly string[], shown = LISTED_IN_A_LINE): string {
  const listed = items.slice(0, shown).map((item) => shorten(item, MAX_NAME_LENGTH));
  const more = items.length - listed.length;
  return more > 0 ? `${listed.join(', ')} and ${more} more` : listed.join(', ');
}

interface JobsReport {
  title: string;
  buildName?: string;
  jobs: readonly ReportedJob[];
  /** A paragraph under the totals, e.g. why the wait ended early. */
  note?: string;
  /** Rows shown at most; by default the host keeps as many as the summary's limit allows. */
  maxRows?: number;
}

const order: Record<ReportedJobStatus, number> = {
  failed: 0,
  error: 1,
  stopped: 2,
  running: 3,
  queued: 4,
  passed: 5,
};

/** Jobs with failures first, then unfinished ones, then flaky, then passed; the service's order otherwise. */
export function sortJobsForReport(jobs: readonly ReportedJob[]): ReportedJob[] {
  const rank = (job: ReportedJob): number => order[job.status] + (isFlakyJob(job) ? -0.5 : 0);
  return jobs
    .map((job, index) => ({ job, index }))
    .sort((a, b) => rank(a.job) - rank(b.job) || a.index - b.index)
    .map(({ job }) => job);
}

/** A column an action adds to the jobs table; `cell` returns HTML it has escaped itself. */
interface JobColumn {
  header: string;
  cell: (job: ReportedJob) => string;
}

interface JobsTableOptions {
  /** Rows shown at most; by default the host keeps as many as the summary's limit allows. */
  maxRows?: number;
  /** Leave out the platform column, when each job's name already is its platform. */
  showPlatform?: boolean;
  /** Columns between the status and the duration (for example test counts). */
  extraColumns?: readonly JobColumn[];
}

/** The table of jobs, failures first: job, platform, status, any extra columns, duration, link. */
export function renderJobsTable(jobs: readonly ReportedJob[], options: JobsTableOptions = {}): string {
  return wholeText({ format: 'html', blocks: [jobsTableList(jobs, options)] });
}

/**
 * The table of jobs as a list of ranked rows, failures first, which a host cuts to the summary's
 * limit (failed and unfinished rows kept first, then flaky ones, then the rest).
 */
export function jobsTableList(jobs: readonly ReportedJob[], options: JobsTableOptions = {}): ItemList {
  const text = safeText;
  const showPlatform = options.showPlatform ?? true;
  const extra = options.extraColumns ?? [];
  const items = sortJobsForReport(jobs).map((job): ListItem => {
    const notes = [attemptsNote(job), job.detail].filter((note) => note !== undefined);
    const name =
      notes.length > 0 ? `${text(job.name)}<br><sub>${text(notes.join('; '))}</sub>` : text(job.name);
    const cells = [
      name,
      ...(showPlatform ? [text(job.platform)] : []),
      `${statusIcon[job.status]} ${job.status}${isFlakyJob(job) ? ' (flaky)' : ''}`,
      ...extra.map((column) => column.cell(job)),
      formatJobDuration(job.durationSeconds),
      linksHtml(job),
    ];
    const rank = job.status === 'passed' ? (isFlakyJob(job) ? 'flaky' : 'other') : 'failed';
    return { text: `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`, rank };
  });
  const headers = [
    'Job',
    ...(showPlatform ? ['Platform'] : []),
    'Status',
    ...extra.map((column) => escapeHtml(column.header)),
    'Duration',
    'Link',
  ];
  return {
    open: `<table><tr>${headers.map((cell) => `<th>${cell}</th>`).join('')}</tr>`,
    items,
    close: '</table>\n',
    noun: 'jobs',
    fullList: 'every job is in the results file (the output results-file)',
    ...(options.maxRows !== undefined ? { max: options.maxRows } : {}),
  };
}

/** `flaky: failed on attempt 1, passed on attempt 2`; `failed all 3 attempts`; undefined for a single run. */
function attemptsNote(job: ReportedJob): string | undefined {
  const attempts = job.attempts ?? [];
  if (attempts.length === 0) return undefined;
  const count = attempts.length + 1;
  if (isFlakyJob(job)) return `flaky: ${flakyHistory(job)}`;
  if (isFailedJob(job) && attempts.every((attempt) => isFailedJob(attempt)))
    return `failed all ${count} attempts`;
  return [...attempts, job].map((run, index) => `${run.status} on attempt ${index + 1}`).join(', ');
}

/** `failed on attempt 1, passed on attempt 2`. */
function flakyHistory(job: ReportedJob): string {
  const attempts = job.attempts ?? [];
  const failedOn = attempts.flatMap((attempt, index) => (isFailedJob(attempt) ? [index + 1] : []));
  return `failed on attempt ${failedOn.join(', ')}, passed on attempt ${attempts.length + 1}`;
}

/** The job's link; with earlier attempts, a link to each, numbered, with its outcome. */
function linksHtml(job: ReportedJob): string {
  const link = (run: Pick<ReportedJob, 'id' | 'url'>) =>
    run.url ? linkHtml({ text: run.id, href: run.url }) : safeText(run.id);
  const attempts = job.attempts ?? [];
  if (attempts.length === 0) return link(job);
  return [...attempts, job]
    .map((run, index) => `${index + 1}: ${link(run)} ${statusIcon[run.status]}`)
    .join('<br>');
}

/** The summary section as HTML, escaped and redacted, every row included but past `maxRows`. */
export function renderJobsSummary(report: JobsReport): string {
  return wholeText(jobsSummaryText(report));
}

/** The summary section as blocks: the totals, then the jobs table as ranked rows a host may cut. */
export function jobsSummaryText(report: JobsReport): StructuredText {
  const tally = tallyJobs(report.jobs);
  const text = safeText;
  const parts: string[] = [`<h2>${text(report.title)}</h2>`];
  if (report.buildName) parts.push(`<p>Build: <code>${text(report.buildName)}</code></p>`);
  const totals = [
    `${tally.total} job${tally.total === 1 ? '' : 's'}`,
    `${tally.passed} passed`,
    `${tally.failed} failed`,
  ];
  if (tally.running > 0) totals.push(`${tally.running} running`);
  if (tally.queued > 0) totals.push(`${tally.queued} queued`);
  if (tally.stopped > 0) totals.push(`${tally.stopped} stopped`);
  if (tally.flaky > 0) totals.push(`${tally.flaky} flaky`);
  parts.push(`<p><strong>${totals.join(', ')}</strong></p>`);
  if (report.note) parts.push(`<p>${safeSentence(report.note)}</p>`);
  const head = `${parts.join('\n')}\n`;
  if (report.jobs.length === 0) return { format: 'html', blocks: [head] };
  const table = jobsTableList(report.jobs, report.maxRows !== undefined ? { maxRows: report.maxRows } : {});
  return { format: 'html', blocks: [head, table] };
}

const statusIcon: Record<ReportedJobStatus, string> = {
  passed: '✅',
  failed: '❌',
  error: '❌',
  stopped: '⏹️',
  running: '⏳',
  queued: '🕒',
};

/** A step shows 10 annotations of a level: the host counts the rest of each group in one notice. */
const FAILED_JOBS = { one: 'failed job', other: 'failed jobs' };
const FLAKY_JOBS = { one: 'flaky job', other: 'flaky jobs' };

/**
 * One annotation per failed job, the worst first, with its link: an error when failed jobs fail the step, a warning
 * when the step stays green (`fail-on-failure: false`), so that a green step shows no error.
 */
export function failedJobAnnotations(
  jobs: readonly ReportedJob[],
  level: 'error' | 'warning' = 'error',
): Annotation[] {
  return sortJobsForReport(jobs.filter(isFailedJob)).map((job) => {
    const name = annotatedName(job);
    return {
      level,
      message: failedJobText(job, name),
      title: job.url === '' ? `Not run: ${name}` : `Failed job: ${name}`,
      group: FAILED_JOBS,
    };
  });
}

/** A failed job in a sentence; an item that no step ran has no job, so neither page nor platform. */
function failedJobText(job: ReportedJob, name: string): string {
  const where = job.platform !== '' ? ` (${job.platform})` : '';
  if (job.url === '') return `"${name}"${where} was ${job.detail ?? 'not run'}.`;
  const what = job.status === 'error' ? 'ended in error' : 'failed';
  return `Job "${name}"${where} ${what}${job.detail ? `: ${job.detail}` : ''}. ${job.url}`;
}

/** A job's name in an annotation, shortened as the summary shows it: the runner keeps one line of it. */
function annotatedName(job: ReportedJob): string {
  return shorten(job.name, MAX_NAME_LENGTH);
}

/**
 * One warning per flaky job, with the link to every attempt: it passed, so the step stays green,
 * but a test that fails now and then deserves a look.
 */
export function flakyJobAnnotations(jobs: readonly ReportedJob[]): Annotation[] {
  return jobs.filter(isFlakyJob).map((job) => {
    const runs = [...(job.attempts ?? []), job];
    const links = runs.map((run, index) => `attempt ${index + 1} ${run.status}: ${run.url || run.id}`);
    const name = annotatedName(job);
    return {
      level: 'warning',
      message: `Job "${name}" (${job.platform}) is flaky: it ${flakyHistory(job)}. ${links.join('; ')}`,
      title: `Flaky job: ${name}`,
      group: FLAKY_JOBS,
    };
  });
}

/** Writes any JSON-able data, redacted, creating the folder it goes in. */
export async function writeResultsFile(file: string, data: unknown): Promise<void> {
  await writeOutputFile(file, `${redactSecrets(JSON.stringify(data, null, 2))}\n`);
}

/** "42s", "3m 05s", "1h 02m". */
export function formatJobDuration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '';
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole}s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes}m ${String(whole % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}
