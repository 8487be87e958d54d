/** Tunnels of an account. */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../../context.ts';
import { sendError } from '../errors.ts';

const tunnelParams = {
  type: 'object',
  properties: { username: { type: 'string', minLength: 1 }, tunnel_id: { type: 'string', minLength: 1 } },
  required: ['username', 'tunnel_id'],
} as const;

export function tunnelRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const tunnelFor = (username: string, id: string) => {
    const tunnel = ctx.automation.tunnel(id);
    return tunnel && tunnel.owner === username ? tunnel : undefined;
  };

  app.get<{ Params: { username: string }; Querystring: { full: boolean } }>(
    '/:username/tunnels',
    {
      schema: {
        params: {
          type: 'object',
          properties: { username: { type: 'string', minLength: 1 } },
          required: ['username'],
        },
        querystring: { type: 'object', properties: { full: { type: 'boolean', default: false } } },
      },
    },
    async (request) => {
      // The list holds the tunnels not shut down yet: terminated ones are only reachable by id.
      const tunnels = ctx.automation
        .tunnelsOf(request.params.username)
        .filter((tunnel) => tunnel.status !== 'terminated');
      return request.query.full ? tunnels : tunnels.map((tunnel) => tunnel.id);
    },
  );

  app.get<{ Params: { username: string; tunnel_id: string } }>(
    '/:username/tunnels/:tunnel_id',
    { schema: { params: tunnelParams } },
    async (request, reply) => {
      const tunnel = tunnelFor(request.params.username, request.params.tunnel_id);
      if (!tunnel) return sendError(reply, 404, 'Tunnel not found', 'not_found');
      return tunnel;
    },
  );

  app.delete<{ Params: { username: string; tunnel_id: string }; Body: { reason?: string } | undefined }>(
    '/:username/tunnels/:tunnel_id',
    {
      schema: {
        params: tunnelParams,
        // The official client explains itself in a JSON body; the reason is accepted and not kept.
        body: { type: ['object', 'null'], properties: { reason: { type: 'string' } } },
      },
    },
    async (request, reply) => {
      const tunnel = tunnelFor(request.params.username, request.params.tunnel_id);
      if (!tunnel) return sendError(reply, 404, 'Tunnel not found', 'not_found');
      const jobsRunning = ctx.automation.runningJobsThrough(tunnel);
      // Shutting down a terminated tunnel again answers the same way: the request is idempotent.
      ctx.automation.shutdownTunnel(tunnel.id);
      return { result: true, id: tunnel.id, jobs_running: jobsRunning };
    },
  );
}
