/** Admin endpoints (no credentials; loopback only): health, fault rules, journal, reset. */
import type { FastifyInstance } from 'fastify';
import type { ServicePluginOptions } from '../server.ts';

export async function adminRoutes(app: FastifyInstance, _options: ServicePluginOptions): Promise<void> {
  app.get('/_emulator/health', async () => ({ status: 'ok' }));
}
