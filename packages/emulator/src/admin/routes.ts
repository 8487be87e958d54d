/** Admin endpoints (no credentials; loopback only): health, faults, journal, reset, tunnels, jobs. */
import { mkdir, rm } from 'node:fs/promises';
import type { FastifyError, FastifyInstance } from 'fastify';
import { isLoopback } from '../auth.ts';
import { jobView } from '../automation/job-view.ts';
import type { TunnelStatus } from '../automation/model.ts';
import { sauceConnectAdminRoutes } from '../automation/routes/sauce-connect.ts';
import type { ServicePluginOptions } from '../plugin-options.ts';
import { checkFaultPath, faultRuleProblem, type FaultSpec } from './faults.ts';
import type { AdminState } from './state.ts';

const TUNNEL_STATUSES = ['new', 'booting', 'deploying', 'halting', 'running', 'terminated'];

export interface AdminPluginOptions extends ServicePluginOptions {
  state: AdminState;
}

export async function adminRoutes(app: FastifyInstance, options: AdminPluginOptions): Promise<void> {
  const { ctx, state } = options;

  app.addHook('onRequest', async (request, reply) => {
    if (!isLoopback(request.socket.remoteAddress)) {
      return reply.code(403).send({ message: 'Admin endpoints answer loopback clients only' });
    }
    return undefined;
  });
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
    return reply.code(status).send({ message: error.message });
  });

  app.get('/_emulator/health', async () => ({ status: 'ok' }));

  app.post<{ Body: FaultSpec }>(
    '/_emulator/faults',
    {
      schema: {
        body: {
          type: 'object',
          properties: {
            method: { type: 'string', minLength: 1 },
            path: { type: 'string', minLength: 1 },
            status: { type: 'integer', minimum: 100, maximum: 599 },
            body: {},
            retryAfter: { type: 'integer', minimum: 0 },
            delayMs: { type: 'integer', minimum: 0, maximum: 600_000 },
            drop: { type: 'boolean' },
            headers: { type: 'object', additionalProperties: { type: 'string' } },
            truncate: { type: 'integer', minimum: 0 },
            bytesPerSecond: { type: 'integer', minimum: 1 },
            endless: { type: 'boolean' },
            compress: { type: 'string', enum: ['gzip', 'deflate', 'br'] },
            times: { type: 'integer', minimum: 1 },
          },
          required: ['path'],
          additionalProperties: false,
        },
      },
    },
    async (request, reply) => {
      try {
        checkFaultPath(request.body.path);
      } catch (error) {
        return reply.code(400).send({ message: `Invalid path pattern: ${(error as Error).message}` });
      }
      const problem = faultRuleProblem(request.body);
      if (problem) return reply.code(400).send({ message: problem });
      return reply.code(201).send(state.faults.add(request.body));
    },
  );

  app.get('/_emulator/faults', async () => ({ faults: state.faults.list() }));
  app.delete('/_emulator/faults', async () => ({ removed: state.faults.clear() }));

  app.get('/_emulator/requests', async () => ({ requests: state.journal.entries() }));
  app.delete('/_emulator/requests', async () => {
    state.journal.clear();
    return { cleared: true };
  });

  // Back to the seed: stores, stored files, fault rules, the journal and rate windows. The files
  // go first, since loading the seed writes its own (the authoring artifacts).
  app.post('/_emulator/reset', async () => {
    await rm(ctx.filesDir, { recursive: true, force: true });
    await mkdir(ctx.filesDir, { recursive: true });
    ctx.load();
    state.faults.clear();
    state.journal.clear();
    state.rateLimiter?.clear();
    ctx.changed();
    return { reset: true };
  });

  // Tunnels change state outside any client's control; tests drive them through these.
  app.get('/_emulator/tunnels', async () => ({ tunnels: ctx.automation.allTunnels() }));

  app.post<{
    Body: {
      owner: string;
      tunnel_identifier: string;
      status?: TunnelStatus;
      id?: string;
      tunnel_pool?: boolean;
    };
  }>(
    '/_emulator/tunnels',
    {
      schema: {
        body: {
          type: 'object',
          properties: {
            owner: { type: 'string', minLength: 1 },
            tunnel_identifier: { type: 'string', minLength: 1 },
            status: { type: 'string', enum: TUNNEL_STATUSES },
            id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
            // As a starting Sauce Connect says it: `false` shuts down the older tunnels of the
            // name, `true` joins them in a pool; absent (a test's own set-up) touches none.
            tunnel_pool: { type: 'boolean' },
          },
          required: ['owner', 'tunnel_identifier'],
        },
      },
    },
    async (request, reply) => {
      const { tunnel_pool: pool, ...seed } = request.body;
      if (seed.id && ctx.automation.tunnel(seed.id)) {
        return reply.code(409).send({ message: `Tunnel ${seed.id} exists` });
      }
      if (pool === false) ctx.automation.replaceCollidingTunnels(seed.owner, seed.tunnel_identifier);
      return reply.code(201).send(ctx.automation.createTunnel(seed));
    },
  );

  app.patch<{ Params: { id: string }; Body: { status?: TunnelStatus; tunnel_identifier?: string } }>(
    '/_emulator/tunnels/:id',
    {
      schema: {
        body: {
          type: 'object',
          properties: {
            status: { type: 'string', enum: TUNNEL_STATUSES },
            tunnel_identifier: { type: 'string', minLength: 1 },
          },
        },
      },
    },
    async (request, reply) => {
      if (!ctx.automation.tunnel(request.params.id))
        return reply.code(404).send({ message: 'Tunnel not found' });
      return ctx.automation.updateTunnel(request.params.id, request.body);
    },
  );

  sauceConnectAdminRoutes(app, ctx);

  app.get('/_emulator/jobs', async (request) => {
    const now = ctx.now();
    const base = `${request.protocol}://${request.host}`;
    return { jobs: ctx.automation.allJobs().map((job) => jobView(job, now, base)) };
  });
}
