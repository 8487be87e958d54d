/**
 * A fake job list of one account, as the service answers it: newest first, `from` and `to`
 * inclusive on creation seconds, `skip` and `limit`; and the ways a service may differ (it ignores
 * `limit`, refuses a wide one, ignores `skip`). Every call is recorded.
 */
import { ApiError, type Job, type ListJobsParams } from '@sauce-actions/api';

export interface AccountOptions {
  /** Answers its default page of 100 whatever `limit` asks. */
  ignoresLimit?: boolean;
  /** Refuses a `limit` over 100 with 400. */
  refusesWide?: boolean;
  /** Answers the first page whatever `skip` asks. */
  ignoresSkip?: boolean;
}

export function accountJobs(jobs: () => readonly Job[], options: AccountOptions = {}) {
  const calls: ListJobsParams[] = [];
  const gets: string[] = [];
  return {
    calls,
    gets,
    list: async (params: ListJobsParams): Promise<Job[]> => {
      calls.push(params);
      const limit = params.limit ?? 100;
      if (options.refusesWide && limit > 100) {
        throw new ApiError({ operation: 'listJobs', method: 'GET', url: '/jobs', status: 400, attempts: 1 });
      }
      const from = params.from === undefined ? -Infinity : Number(params.from);
      const to = params.to === undefined ? Infinity : Number(params.to);
      const inWindow = [...jobs()]
        .filter((job) => (job.creation_time ?? 0) >= from && (job.creation_time ?? 0) <= to)
        .sort((a, b) => (b.creation_time ?? 0) - (a.creation_time ?? 0));
      const skip = options.ignoresSkip ? 0 : (params.skip ?? 0);
      return inWindow.slice(skip, skip + (options.ignoresLimit ? 100 : limit));
    },
    get: async (id: string): Promise<Job> => {
      gets.push(id);
      const found = jobs().find((job) => job.id === id);
      if (!found)
        throw new ApiError({
          operation: 'getJob',
          method: 'GET',
          url: `/jobs/${id}`,
          status: 404,
          attempts: 1,
        });
      return found;
    },
  };
}

/** `count` jobs of `build`, created one a second from `from` on. */
export function jobsOf(build: string, count: number, from: number, status = 'complete'): Job[] {
  return Array.from(
    { length: count },
    (_, index) =>
      ({
        id: `${build}-${index}`,
        name: `${build}-${index}`,
        build,
        status,
        passed: status === 'complete' ? true : null,
        creation_time: from + index,
        start_time: from + index,
        end_time: status === 'complete' ? from + index + 60 : null,
      }) as Job,
  );
}
