/** Tunnels of an account. */
import type { SchemaTypedApp } from '../../shared/schema-typed.ts';
import { sendError } from '../errors.ts';
import type { AutomationStore } from '../store/index.ts';
import { usernameParams } from './params.ts';

const tunnelParams = {
  type: 'object',
  properties: { username: { type: 'string', minLength: 1 }, tunnel_id: { type: 'string', minLength: 1 } },
  required: ['username', 'tunnel_id'],
} as const;

export function tunnelRoutes(app: SchemaTypedApp, store: AutomationStore): void {
  const tunnelFor = (username: string, id: string) => {
    const tunnel = store.tunnels.get(id);
    return tunnel && tunnel.owner === username ? tunnel : undefined;
  };

  app.get(
    '/:username/tunnels',
    {
      schema: {
        params: usernameParams,
        querystring: { type: 'object', properties: { full: { type: 'boolean', default: false } } } as const,
      },
    },
    async (request) => {
      // The list holds the tunnels not shut down yet: terminated ones are only reachable by id.
      const tunnels = store.tunnels
        .of(request.params.username)
        .filter((tunnel) => tunnel.status !== 'terminated');
      return request.query.full ? tunnels : tunnels.map((tunnel) => tunnel.id);
    },
  );

  app.get('/:username/tunnels/:tunnel_id', { schema: { params: tunnelParams } }, async (request, reply) => {
    const tunnel = tunnelFor(request.params.username, request.params.tunnel_id);
    if (!tunnel) return sendError(reply, 404, 'Tunnel not found', 'not_found');
    return tunnel;
  });

  app.delete(
    '/:username/tunnels/:tunnel_id',
    {
      schema: {
        params: tunnelParams,
        // The official client explains itself in a JSON body; the reason is accepted and not kept.
        body: { type: ['object', 'null'], properties: { reason: { type: 'string' } } } as const,
      },
    },
    async (request, reply) => {
      const tunnel = tunnelFor(request.params.username, request.params.tunnel_id);
      if (!tunnel) return sendError(reply, 404, 'Tunnel not found', 'not_found');
      const jobsRunning = store.jobs.runningThrough(tunnel);
      // Shutting down a terminated tunnel again answers the same way: the request is idempotent.
      store.tunnels.shutdown(tunnel.id);
      return { result: true, id: tunnel.id, jobs_running: jobsRunning };
    },
  );
}
