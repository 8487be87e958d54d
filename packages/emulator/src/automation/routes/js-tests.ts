/** JS unit tests: one simulated job per platform, reported in the framework's result shape. */
import type { SchemaTypedApp } from '../../shared/schema-typed.ts';
import { sendError } from '../errors.ts';
import { hexId } from '../ids.ts';
import { frameworkResult } from '../js-results.ts';
import { jobError, jobTimes } from '../job-view.ts';
import type { AutomationStore } from '../store/index.ts';
import { usernameParams } from './params.ts';

/** What `job_id` holds before the job is assigned, as the service answers. */
const JOB_NOT_READY = 'job not ready';

export function jsTestRoutes(app: SchemaTypedApp, store: AutomationStore): void {
  app.post(
    '/:username/js-tests',
    {
      schema: {
        params: usernameParams,
        body: {
          type: 'object',
          properties: {
            platforms: {
              type: 'array',
              minItems: 1,
              items: {
                type: 'array',
                minItems: 2,
                maxItems: 3,
                items: { type: ['string', 'number'] },
              },
            },
            url: { type: 'string', pattern: '^https?://' },
            framework: { type: 'string', enum: ['qunit', 'jasmine', 'YUI Test', 'mocha', 'custom'] },
            tunnelIdentifier: { type: 'string' },
            'tunnel-identifier': { type: 'string' },
            parentTunnel: { type: 'string' },
            build: { type: 'string' },
            name: { type: 'string' },
            tags: { type: 'array', items: { type: 'string' } },
            // Seconds; the default is the service's (seed 002, Limits).
            maxDuration: { type: 'integer', minimum: 1, default: 180 },
          },
          required: ['platforms', 'url', 'framework'],
        } as const,
      },
    },
    async (request, reply) => {
      const owner = request.params.username;
      const body = request.body;
      const tunnel = body.tunnelIdentifier ?? body['tunnel-identifier'];
      // A shared tunnel belongs to the parent account named by parentTunnel.
      const tunnelOwner = body.parentTunnel ?? owner;
      if (tunnel && !store.tunnels.hasRunning(tunnelOwner, tunnel)) {
        return sendError(reply, 400, `No running tunnel named ${tunnel}`, 'tunnel_not_found');
      }
      // The demo rule of the default seed: a test page whose URL contains "fail" fails everywhere.
      const passes = !body.url.includes('fail');
      const ids: string[] = [];
      for (const triple of body.platforms) {
        const [os = '', browser = '', version = 'latest'] = triple.map(String);
        const { id: jobId } = store.jobs.create({
          name: body.name ?? `${body.framework} tests`,
          build: body.build ?? '',
          browser,
          browserVersion: version,
          os,
          passes,
          owner,
          tags: body.tags ?? [],
          tunnelIdentifier: tunnel ?? null,
          customData: { url: body.url, framework: body.framework },
          // A run longer than this ends in error when it is reached.
          maxDurationMs: body.maxDuration * 1000,
        });
        const id = hexId();
        store.jsTests.add({
          id,
          owner,
          url: body.url,
          framework: body.framework,
          platform: [os, browser, version],
          jobId,
        });
        ids.push(id);
      }
      return { 'js tests': ids };
    },
  );

  app.post(
    '/:username/js-tests/status',
    {
      schema: {
        params: usernameParams,
        body: {
          type: 'object',
          properties: { 'js tests': { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } } },
          required: ['js tests'],
        } as const,
      },
    },
    async (request, reply) => {
      const now = store.now();
      const answers = [];
      let completed = true;
      for (const id of request.body['js tests']) {
        const test = store.jsTests.get(id);
        if (!test || !store.accounts.canActFor(request.params.username, test.owner)) {
          return sendError(reply, 404, `Unknown js test ${id}`, 'not_found');
        }
        const job = store.jobs.get(test.jobId);
        const times = job ? jobTimes(job, now) : undefined;
        const finished = !times || times.status === 'complete' || times.status === 'error';
        if (!finished) completed = false;
        const assigned = !times || times.status !== 'queued';
        // A stopped or deleted job never reports results; clients count a null result as failed.
        // A job cut off at its maximum duration reports the service's text instead, which public
        // clients of this interface match ("Test exceeded maximum duration after 180 seconds").
        let result: ReturnType<typeof frameworkResult> | string | null = null;
        if (job && times?.status === 'complete') {
          result = frameworkResult(test.framework, job.passedOverride ?? job.passes);
        } else if (job && times?.ended === 'timed out') {
          result = jobError(job, times);
        }
        answers.push({
          id: test.id,
          job_id: assigned ? test.jobId : JOB_NOT_READY,
          platform: test.platform,
          url: test.url,
          result,
        });
      }
      return { completed, 'js tests': answers };
    },
  );
}
