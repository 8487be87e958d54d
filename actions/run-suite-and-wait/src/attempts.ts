/**
 * Runs of the same test case: which case each job ran, which cases to run again, and the report of
 * a case run more than once (its last run, with the earlier ones as its attempts).
 */
import {
  isFailedJob,
  type JobAttempt,
  type ReportedJob,
} from '@sauce-actions/action-kit/test-run/job-report';
import type { Job } from '@sauce-actions/api';

/** A case by id and name, to tell which case a job ran. */
export interface KnownCase {
  id: string;
  name?: string;
}

/** A reported job and the test case it ran, when that is known. */
export interface CaseJob {
  job: ReportedJob;
  caseId?: string;
  /** The build the service gave the job. */
  build?: string;
}

/**
 * Tells which test case a job ran: the case run that answered the job, else the case id the job
 * carries in its custom data (the service's AI authoring runs set `testCaseId`), else the one case
 * of the job's name. A suite run answers no job ids, so its jobs need the last two.
 */
export class CaseFinder {
  readonly #byJob: ReadonlyMap<string, string>;
  readonly #byName = new Map<string, string | null>();
  readonly #ids: ReadonlySet<string>;

  constructor(cases: readonly KnownCase[], byJob: ReadonlyMap<string, string> = new Map()) {
    this.#byJob = byJob;
    this.#ids = new Set(cases.map((testCase) => testCase.id));
    for (const testCase of cases) {
      if (testCase.name === undefined) continue;
      // Two cases of one name cannot be told apart by it.
      this.#byName.set(testCase.name, this.#byName.has(testCase.name) ? null : testCase.id);
    }
  }

  caseOf(
    job: Pick<Job, 'id' | 'name' | 'custom-data'> | { id: string; name?: undefined },
  ): string | undefined {
    const answered = this.#byJob.get(job.id);
    if (answered !== undefined) return answered;
    const custom = 'custom-data' in job ? job['custom-data'] : null;
    const carried = custom !== null && typeof custom === 'object' ? custom.testCaseId : undefined;
    if (typeof carried === 'string' && this.#ids.has(carried)) return carried;
    return job.name ? (this.#byName.get(job.name) ?? undefined) : undefined;
  }
}

/** The cases of a round that failed (a failed or errored job), with the build of their failed run. */
export function failedCases(jobs: readonly CaseJob[]): { caseId: string; build?: string }[] {
  const failed = new Map<string, string | undefined>();
  for (const { job, caseId, build } of jobs) {
    if (caseId === undefined || !isFailedJob(job)) continue;
    if (!failed.has(caseId)) failed.set(caseId, build);
  }
  return [...failed].map(([caseId, build]) => ({ caseId, ...(build ? { build } : {}) }));
}

/**
 * The report of every round: a case run again is reported by its last run, one job per platform,
 * each with the runs before it as its attempts. Jobs of no known case stand alone.
 */
export function mergeAttempts(rounds: readonly (readonly CaseJob[])[]): ReportedJob[] {
  const latest = new Map<string, CaseJob>();
  const keyOf = ({ job, caseId }: CaseJob): string =>
    caseId !== undefined ? `${caseId}\u0000${job.platform}` : `job\u0000${job.id}`;
  for (const round of rounds) {
    const rerun = new Set(round.flatMap(({ caseId }) => (caseId !== undefined ? [caseId] : [])));
    // The latest runs of the cases run again in this round, by case.
    const earlier = new Map<string, [string, CaseJob][]>();
    for (const [key, entry] of latest) {
      if (entry.caseId === undefined || !rerun.has(entry.caseId)) continue;
      earlier.set(entry.caseId, [...(earlier.get(entry.caseId) ?? []), [key, entry]]);
    }
    for (const entry of round) {
      const key = keyOf(entry);
      const before = entry.caseId !== undefined ? earlier.get(entry.caseId) : undefined;
      // The same platform's run before, else (targets that changed) whatever run of the case is left.
      const index = before?.findIndex(([, old]) => old.job.platform === entry.job.platform) ?? -1;
      const [oldKey, previous] = before?.splice(index >= 0 ? index : 0, 1)[0] ?? [];
      if (oldKey !== undefined && oldKey !== key) latest.delete(oldKey);
      const attempts = previous ? [...(previous.job.attempts ?? []), attemptOf(previous.job)] : [];
      // A run that replaces one keeps its place in the report.
      latest.set(key, attempts.length > 0 ? { ...entry, job: { ...entry.job, attempts } } : entry);
    }
  }
  return [...latest.values()].map(({ job }) => job);
}

function attemptOf(job: ReportedJob): JobAttempt {
  return {
    id: job.id,
    url: job.url,
    status: job.status,
    ...(job.detail !== undefined ? { detail: job.detail } : {}),
  };
}
