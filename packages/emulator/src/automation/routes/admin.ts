/**
 * The automation interface's admin endpoints, which the admin plugin registers beside its own
 * (loopback only, no credentials): tunnels, which change state outside any client's control, the
 * jobs of every account, and the Sauce Connect builds the download listing publishes.
 */
import type { SchemaTypedApp } from '../../shared/schema-typed.ts';
import { jobView } from '../job-view.ts';
import type { AutomationStore } from '../store/index.ts';
import {
  SC_ARCHES,
  SC_FILE_NAME_PATTERN,
  SC_OSES,
  SC_VERSION_PATTERN,
} from '../store/sauce-connect-builds.ts';

const TUNNEL_STATUSES = ['new', 'booting', 'deploying', 'halting', 'running', 'terminated'] as const;

export function automationAdminRoutes(app: SchemaTypedApp, store: AutomationStore): void {
  app.get('/_emulator/tunnels', async () => ({ tunnels: store.tunnels.all() }));

  app.post(
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
        } as const,
      },
    },
    async (request, reply) => {
      const { tunnel_pool: pool, ...seed } = request.body;
      if (seed.id && store.tunnels.get(seed.id)) {
        return reply.code(409).send({ message: `Tunnel ${seed.id} exists` });
      }
      if (pool === false) store.tunnels.replaceColliding(seed.owner, seed.tunnel_identifier);
      return reply.code(201).send(store.tunnels.create(seed));
    },
  );

  app.patch(
    '/_emulator/tunnels/:id',
    {
      schema: {
        params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } as const,
        body: {
          type: 'object',
          properties: {
            status: { type: 'string', enum: TUNNEL_STATUSES },
            tunnel_identifier: { type: 'string', minLength: 1 },
          },
        } as const,
      },
    },
    async (request, reply) => {
      if (!store.tunnels.get(request.params.id)) return reply.code(404).send({ message: 'Tunnel not found' });
      return store.tunnels.update(request.params.id, request.body);
    },
  );

  app.get('/_emulator/jobs', async (request) => {
    const now = store.now();
    const base = `${request.protocol}://${request.host}`;
    return { jobs: store.jobs.all().map((job) => jobView(job, now, base)) };
  });

  app.post(
    '/_emulator/sauce-connect',
    {
      schema: {
        body: {
          type: 'object',
          properties: {
            version: { type: 'string', pattern: SC_VERSION_PATTERN },
            os: { type: 'string', enum: SC_OSES },
            arch: { type: 'string', enum: SC_ARCHES },
            // The archive, base64.
            archive: { type: 'string', minLength: 1 },
            fileName: { type: 'string', pattern: SC_FILE_NAME_PATTERN },
            checksums: {
              type: 'array',
              items: {
                type: 'object',
                properties: { algorithm: { type: 'string' }, value: { type: 'string' } },
                required: ['algorithm', 'value'],
                additionalProperties: false,
              },
            },
          },
          required: ['version', 'os', 'arch', 'archive'],
          additionalProperties: false,
        } as const,
      },
    },
    async (request, reply) => {
      const { archive, ...rest } = request.body;
      const build = await store.sauceConnect.publish({ ...rest, archive: Buffer.from(archive, 'base64') });
      return reply.code(201).send(build);
    },
  );
}
