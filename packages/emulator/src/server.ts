/**
 * Builds the Fastify application serving the three interfaces, the admin endpoints and the
 * read-only dashboard pages that the actions' links lead to.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import { adminRoutes } from './admin/routes.ts';
import { knownSecrets } from './admin/secrets.ts';
import { AdminState } from './admin/state.ts';
import { installTrafficHooks } from './admin/traffic.ts';
import { authoringRoutes } from './authoring/routes.ts';
import { automationRoutes } from './automation/routes.ts';
import { sauceConnectDownloadRoutes } from './automation/routes/sauce-connect.ts';
import type { EmulatorContext } from './context.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { mobileRoutes } from './mobile/routes.ts';
import { routeValidatorCompiler } from './validators.ts';

export const AUTOMATION_PREFIXES = ['/rest/v1', '/rest/v1.1', '/rest/v1.2'] as const;

/** A key and certificate (PEM) to serve https with, instead of plain http. */
export interface TlsOptions {
  key: string | Buffer;
  cert: string | Buffer;
}

export async function buildApp(
  ctx: EmulatorContext,
  state: AdminState = new AdminState(ctx.options.rateLimit),
  tls?: TlsOptions,
): Promise<FastifyInstance> {
  const app = Fastify({
    ...(tls ? { https: { key: tls.key, cert: tls.cert } } : {}),
    logger: false,
    // Uploads and stored files stream to disk; this bounds JSON and form bodies only.
    bodyLimit: 10 * 1024 * 1024,
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: true },
  });
  // Fastify's validation, compiled once per process rather than once per emulator.
  app.setValidatorCompiler(routeValidatorCompiler);
  await app.register(formbody);
  installTrafficHooks(
    app,
    state,
    () => ctx.now(),
    () => knownSecrets(ctx),
  );
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send({ message: `No route for ${request.method} ${request.url.split('?')[0]}`, code: 'not_found' }),
  );
  await app.register(adminRoutes, { ctx, state });
  await app.register(authoringRoutes, { ctx, prefix: '/v1/ai-authoring' });
  await app.register(mobileRoutes, { ctx });
  await app.register(dashboardRoutes, { ctx });
  for (const prefix of AUTOMATION_PREFIXES) {
    await app.register(automationRoutes, { ctx, prefix });
  }
  await app.register(sauceConnectDownloadRoutes, { ctx });
  return app;
}
