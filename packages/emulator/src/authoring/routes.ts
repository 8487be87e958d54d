import type { FastifyInstance } from 'fastify';
import type { ServicePluginOptions } from '../server.ts';

export async function authoringRoutes(_app: FastifyInstance, _options: ServicePluginOptions): Promise<void> {}
