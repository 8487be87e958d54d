/** Runs of the same test case: which case each job ran, and which cases to run again. */
import type { Run } from '@sauce-actions/action-kit/test-run/adapter';
import { isFailedJob } from '@sauce-actions/action-kit/test-run/job-report';
import type { Job } from '@sauce-actions/api';

/** A case by id and name, to tell which case a job ran. */
export interface KnownCase {
  id: string;
  name?: string;
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

/**
 * The cases of a round that failed (a failed or errored job), each with the build of its failed
 * run: the service's record of the job, when it was listed.
 */
export function failedCases(runs: readonly Run<Job | undefined>[]): { caseId: string; build?: string }[] {
  const failed = new Map<string, string | undefined>();
  for (const { item, job, record } of runs) {
    if (item === undefined || !isFailedJob(job)) continue;
    if (!failed.has(item)) failed.set(item, record?.build ?? undefined);
  }
  return [...failed].map(([caseId, build]) => ({ caseId, ...(build ? { build } : {}) }));
}
