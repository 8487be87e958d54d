/** Public information: service status and platforms. */
import type { FastifyInstance } from 'fastify';
import { sendError } from '../errors.ts';
import { platformsFor } from '../platforms.ts';

export function infoRoutes(app: FastifyInstance): void {
  app.get('/info/status', async () => ({
    wait_time: 0,
    service_operational: true,
    status_message: 'Basic service status checks passed.',
  }));

  app.get<{ Params: { automation_api: string } }>(
    '/info/platforms/:automation_api',

    async (request, reply) => {
      const platforms = platformsFor(request.params.automation_api);
      if (!platforms) {
        return sendError(
          reply,
          404,
          `Unknown automation API ${request.params.automation_api}; use webdriver, appium or all`,
          'not_found',
        );
      }
      return platforms;
    },
  );
}
