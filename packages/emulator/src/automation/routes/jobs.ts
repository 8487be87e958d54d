/** Jobs and their assets. */
import type { SchemaTypedApp } from '../../shared/schema-typed.ts';
import { baseUrlOf } from '../access.ts';
import { assetContent, assetList } from '../assets.ts';
import { jobsCsv } from '../csv.ts';
import { sendError } from '../errors.ts';
import { jobView } from '../job-view.ts';
import type { JobRecord } from '../model.ts';
import type { AutomationStore } from '../store/index.ts';
import { usernameParams } from './params.ts';

/**
 * The most `custom-data` a job keeps: 64 KiB of compact JSON (UTF-8), the object re-serialised,
 * so a client's whitespace does not count. The service's own limit is not published; a larger
 * one is refused with 413 rather than kept, so that a client meets the limit here first.
 */
const CUSTOM_DATA_MAX_BYTES = 64 * 1024;

/** A job update's whole body: room for the largest custom-data, its tags and the rest. */
const JOB_UPDATE_BODY_LIMIT = 1024 * 1024;

const jobParams = {
  type: 'object',
  properties: { username: { type: 'string', minLength: 1 }, job_id: { type: 'string', minLength: 1 } },
  required: ['username', 'job_id'],
} as const;

export function jobRoutes(app: SchemaTypedApp, store: AutomationStore, prefix: string): void {
  /** The job when the path's account owns it, directly or through one of its sub-accounts. */
  const jobFor = (username: string, id: string): JobRecord | undefined => {
    const job = store.jobs.get(id);
    return job && store.accounts.canActFor(username, job.owner) ? job : undefined;
  };

  app.get(
    '/:username/jobs',
    {
      schema: {
        params: usernameParams,
        querystring: {
          type: 'object',
          properties: {
            limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
            skip: { type: 'integer', minimum: 0, default: 0 },
            full: { type: 'boolean', default: false },
            from: { type: 'integer', minimum: 0 },
            to: { type: 'integer', minimum: 0 },
            format: { type: 'string', enum: ['json', 'csv'], default: 'json' },
          },
        } as const,
      },
    },
    async (request, reply) => {
      const { limit, skip, full, from, to, format } = request.query;
      const now = store.now();
      const baseUrl = baseUrlOf(request);
      // from and to are inclusive bounds on the creation time, in epoch seconds.
      const page = store.jobs.page(request.params.username, { from, to, skip, limit });
      if (format === 'csv') {
        return reply
          .type('text/csv; charset=utf-8')
          .send(jobsCsv(page.map((job) => jobView(job, now, baseUrl))));
      }
      const jobs = page.map((job) => (full ? jobView(job, now, baseUrl) : { id: job.id }));
      // The official client reads v1.1's list wrapped in an object.
      return prefix === '/rest/v1.1' ? { jobs } : jobs;
    },
  );

  app.get('/:username/jobs/:job_id', { schema: { params: jobParams } }, async (request, reply) => {
    const job = jobFor(request.params.username, request.params.job_id);
    if (!job) return sendError(reply, 404, 'Job not found', 'not_found');
    return jobView(job, store.now(), baseUrlOf(request));
  });

  app.put(
    '/:username/jobs/:job_id',
    {
      bodyLimit: JOB_UPDATE_BODY_LIMIT,
      schema: {
        params: jobParams,
        // The seed names tags, name and custom-data; passed, build and public are accepted too
        // because the service's clients send them (for example to mark a job passed).
        body: {
          type: 'object',
          properties: {
            tags: { type: 'array', items: { type: 'string' } },
            name: { type: 'string' },
            'custom-data': { type: ['object', 'null'] },
            passed: { type: 'boolean' },
            build: { type: 'string' },
            public: { type: ['string', 'boolean'] },
          },
        } as const,
      },
    },
    async (request, reply) => {
      const job = jobFor(request.params.username, request.params.job_id);
      if (!job) return sendError(reply, 404, 'Job not found', 'not_found');
      const body = request.body;
      const customDataBytes = Buffer.byteLength(JSON.stringify(body['custom-data'] ?? null));
      if (customDataBytes > CUSTOM_DATA_MAX_BYTES) {
        return sendError(
          reply,
          413,
          `custom-data is ${customDataBytes} bytes of JSON, more than the ${CUSTOM_DATA_MAX_BYTES} a job keeps`,
          'custom_data_too_large',
        );
      }
      const updated = store.jobs.update(job.id, {
        ...(body.tags !== undefined ? { tags: body.tags } : {}),
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body['custom-data'] !== undefined ? { customData: body['custom-data'] } : {}),
        ...(body.passed !== undefined ? { passed: body.passed } : {}),
        ...(body.build !== undefined ? { build: body.build } : {}),
        ...(body.public !== undefined
          ? { public: typeof body.public === 'boolean' ? (body.public ? 'public' : 'team') : body.public }
          : {}),
      });
      return jobView(updated, store.now(), baseUrlOf(request));
    },
  );

  app.delete('/:username/jobs/:job_id', { schema: { params: jobParams } }, async (request, reply) => {
    const job = jobFor(request.params.username, request.params.job_id);
    if (!job) return sendError(reply, 404, 'Job not found', 'not_found');
    store.jobs.delete(job.id);
    // The seed shows no body; the emulator confirms which job went.
    return { id: job.id, deleted: true };
  });

  app.put('/:username/jobs/:job_id/stop', { schema: { params: jobParams } }, async (request, reply) => {
    const job = jobFor(request.params.username, request.params.job_id);
    if (!job) return sendError(reply, 404, 'Job not found', 'not_found');
    // Stopping a finished job changes nothing and still answers the job, as stopping is idempotent.
    return jobView(store.jobs.stop(job.id), store.now(), baseUrlOf(request));
  });

  app.get('/:username/jobs/:job_id/assets', { schema: { params: jobParams } }, async (request, reply) => {
    const job = jobFor(request.params.username, request.params.job_id);
    if (!job) return sendError(reply, 404, 'Job not found', 'not_found');
    return assetList(job, store.now());
  });

  app.get(
    '/:username/jobs/:job_id/assets/:file_name',
    {
      schema: {
        params: {
          type: 'object',
          properties: { ...jobParams.properties, file_name: { type: 'string', minLength: 1 } },
          required: ['username', 'job_id', 'file_name'],
        } as const,
      },
    },
    async (request, reply) => {
      const job = jobFor(request.params.username, request.params.job_id);
      if (!job) return sendError(reply, 404, 'Job not found', 'not_found');
      const asset = assetContent(job, request.params.file_name, store.now());
      if (!asset) return sendError(reply, 404, `Asset ${request.params.file_name} not found`, 'not_found');
      return reply.type(asset.contentType).send(asset.body);
    },
  );

  app.delete('/:username/jobs/:job_id/assets', { schema: { params: jobParams } }, async (request, reply) => {
    const job = jobFor(request.params.username, request.params.job_id);
    if (!job) return sendError(reply, 404, 'Job not found', 'not_found');
    store.jobs.deleteAssets(job.id);
    return { id: job.id, assets_deleted: true };
  });
}
