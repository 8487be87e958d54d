/**
 * Admin endpoints (no credentials; loopback only): health, faults, the journal and reset; and the
 * interfaces' own (tunnels, jobs, Sauce Connect builds; scripted outcomes of test cases' runs),
 * which are registered in here so that the same rules apply to them.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { isLoopback } from '../shared/credentials.ts';
import { schemaTyped, type SchemaTypedApp } from '../shared/schema-typed.ts';
import { checkFaultPath, faultRuleProblem } from './faults.ts';
import type { AdminState } from './state.ts';

interface AdminPluginOptions {
  state: AdminState;
  /** Brings every store and the stored files back to the seed. */
  resetStores(): Promise<void>;
  /** The interfaces' admin endpoints. */
  interfaceRoutes: ((app: SchemaTypedApp) => void)[];
}

export async function adminRoutes(plain: FastifyInstance, options: AdminPluginOptions): Promise<void> {
  const { state } = options;
  const app = schemaTyped(plain);

  app.addHook('onRequest', async (request, reply) => {
    if (!isLoopback(request.socket.remoteAddress)) {
      return reply.code(403).send({ message: 'Admin endpoints answer loopback clients only' });
    }
    return undefined;
  });
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    // The admin endpoints read JSON bodies only: a body of another type is as unreadable as a
    // body that does not parse.
    if (error.statusCode === 415) {
      return reply.code(400).send({ message: 'the body must be JSON, sent as application/json' });
    }
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
    return reply.code(status).send({ message: error.message });
  });

  app.get('/_emulator/health', async () => ({ status: 'ok' }));

  app.post(
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
        } as const,
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

  // Back to the seed: stores (scripted outcomes of test cases' runs with them), stored files,
  // fault rules, the journal and rate windows. The files go first: loading the seed writes its
  // own (the authoring artifacts).
  app.post('/_emulator/reset', async () => {
    await options.resetStores();
    state.faults.clear();
    state.journal.clear();
    state.rateLimiter?.clear();
    return { reset: true };
  });

  for (const routes of options.interfaceRoutes) routes(app);
}
