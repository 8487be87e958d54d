/** Jobs: listing, reading, editing, stopping and deleting. */
import type { CallOptions } from '../core/values/call.ts';
import { paginateOffset } from '../core/resources/pagination.ts';
import { json, operations } from '../core/resources/resource.ts';
import { list, optional, record, text } from '../core/resources/shape.ts';
import { AutomationResource, epochSeconds } from './context.ts';
import { JOB_TIMES, withServiceTimes } from './times.ts';
import type { ForAccount, IterateJobsParams, Job, JobRef, JobUpdate, ListJobsParams } from './types.ts';

type JsonFormat = { format?: 'json' };

/**
 * Largest `limit` the iterator asks for. The interface names only the default (100); the emulator
 * refuses more than 1000, and a refused page would end an iteration, so it never asks for more.
 */
const JOBS_MAX_LIMIT = 1000;

/**
 * What the followers of jobs read: the id, the status, the build and name it is reported by, why
 * it failed, the case it ran. A job of another form would fail far from the listing, so the
 * listing fails on it instead. Its times only order and date it: one in another form reads as
 * unknown (`withServiceTimes`), and fails nothing.
 */
const JOB = record({
  id: text,
  status: text,
  build: optional(text),
  name: optional(text),
  error: optional(text),
  'custom-data': optional(record()),
});
const JOB_REF = record({ id: text });

const JOB_PATH = '/{username}/jobs/{jobId}';

const JOBS = operations({
  listJobs: 'GET /{username}/jobs',
  getJob: { route: `GET ${JOB_PATH}`, shape: JOB },
  updateJob: `PUT ${JOB_PATH}`,
  deleteJob: { route: `DELETE ${JOB_PATH}`, responseType: 'none' },
  stopJob: `PUT ${JOB_PATH}/stop`,
});

export class AutomationJobs extends AutomationResource {
  /**
   * GET /rest/v1/{username}/jobs: lists jobs, newest first (`listJobs`). With `full: true` whole
   * jobs, otherwise `{ id }` items; with `format: 'csv'` the answer's text.
   */
  list(params: ListJobsParams & { format: 'csv' }, options?: CallOptions): Promise<string>;
  list(params: ListJobsParams & JsonFormat & { full: true }, options?: CallOptions): Promise<Job[]>;
  list(params?: ListJobsParams & JsonFormat & { full?: false }, options?: CallOptions): Promise<JobRef[]>;
  list(params?: ListJobsParams, options?: CallOptions): Promise<Job[] | JobRef[] | string>;
  async list(params: ListJobsParams = {}, options?: CallOptions): Promise<Job[] | JobRef[] | string> {
    const csv = params.format === 'csv';
    const path = { username: params.username };
    const query = {
      limit: params.limit,
      full: params.full,
      skip: params.skip,
      from: params.from !== undefined ? epochSeconds(params.from) : undefined,
      to: params.to !== undefined ? epochSeconds(params.to) : undefined,
      format: params.format,
    };
    if (csv) {
      const row = { ...JOBS.listJobs, responseType: 'text' } as const;
      return this.call<string>(row, { path, query, headers: { accept: 'text/csv' } }, options);
    }
    const row = { ...JOBS.listJobs, responseType: 'json' } as const;
    if (!params.full) return this.call<JobRef[]>({ ...row, shape: list(JOB_REF) }, { path, query }, options);
    const jobs = await this.call<Job[]>({ ...row, shape: list(JOB) }, { path, query }, options);
    return jobs.map((job) => withServiceTimes(job, JOB_TIMES));
  }

  /** GET /rest/v1/{username}/jobs, page after page with `skip` and `limit` (`listJobs`). */
  iterate(
    params: IterateJobsParams & { full: true },
    options?: CallOptions,
  ): AsyncGenerator<Job, void, undefined>;
  iterate(
    params?: IterateJobsParams & { full?: false },
    options?: CallOptions,
  ): AsyncGenerator<JobRef, void, undefined>;
  iterate(params?: IterateJobsParams, options?: CallOptions): AsyncGenerator<Job | JobRef, void, undefined>;
  iterate(
    params: IterateJobsParams = {},
    options?: CallOptions,
  ): AsyncGenerator<Job | JobRef, void, undefined> {
    const { pageSize, maxItems, ...filter } = params;
    return paginateOffset<Job | JobRef>(
      // A JSON list is an array whichever `full` is; only csv answers text.
      (skip, limit) =>
        this.list({ ...filter, format: 'json', skip, limit }, options) as Promise<(Job | JobRef)[]>,
      {
        maxPageSize: JOBS_MAX_LIMIT,
        ...(pageSize !== undefined ? { pageSize } : {}),
        ...(maxItems !== undefined ? { maxItems } : {}),
        ...(options?.signal ? { signal: options.signal } : {}),
      },
    );
  }

  /** GET /rest/v1/{username}/jobs/{jobId}: full job information (`getJob`). */
  async get(jobId: string, params: ForAccount = {}, options?: CallOptions): Promise<Job> {
    const job = await this.call<Job>(JOBS.getJob, { path: { username: params.username, jobId } }, options);
    return withServiceTimes(job, JOB_TIMES);
  }

  /** PUT /rest/v1/{username}/jobs/{jobId}: changes tags, name, custom data and the like (`updateJob`). */
  async update(
    jobId: string,
    changes: JobUpdate,
    params: ForAccount = {},
    options?: CallOptions,
  ): Promise<Job> {
    const { customData, ...rest } = changes;
    const body = json({ ...rest, ...(customData !== undefined ? { 'custom-data': customData } : {}) });
    return this.call(JOBS.updateJob, { path: { username: params.username, jobId }, body }, options);
  }

  /** DELETE /rest/v1/{username}/jobs/{jobId}: removes the job with all its assets (`deleteJob`). */
  async delete(jobId: string, params: ForAccount = {}, options?: CallOptions): Promise<void> {
    await this.call(JOBS.deleteJob, { path: { username: params.username, jobId } }, options);
  }

  /**
   * PUT /rest/v1/{username}/jobs/{jobId}/stop: terminates a running job (`stopJob`). Answers the
   * job as the service reports it, when it sends one.
   */
  async stop(
    jobId: string,
    params: ForAccount = {},
    options?: CallOptions,
  ): Promise<Partial<Job> | undefined> {
    return this.call(JOBS.stopJob, { path: { username: params.username, jobId } }, options);
  }
}
