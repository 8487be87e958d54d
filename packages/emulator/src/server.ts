/**
 * Builds the Fastify application serving the three interfaces, the admin endpoints and the
 * read-only dashboard pages that the actions' links lead to. Each interface's plugin gets its own
 * store; what they share goes through the small interfaces wired here.
 */
import { mobileAdminRoutes } from './mobile/routes/admin.ts';
import Fastify, { type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import { adminRoutes } from './admin/routes.ts';
import { AdminState } from './admin/state.ts';
import { installTrafficHooks } from './admin/traffic.ts';
import { authoringAdminRoutes } from './authoring/routes/admin.ts';
import { authoringRoutes } from './authoring/routes/index.ts';
import { automationRoutes } from './automation/routes/index.ts';
import { automationAdminRoutes } from './automation/routes/admin.ts';
import { sauceConnectDownloadRoutes } from './automation/routes/sauce-connect.ts';
import { isDashboardPath } from './dashboard/paths.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { mobileRoutes } from './mobile/routes/index.ts';
import { routeValidatorCompiler } from './shared/validators.ts';
import type { EmulatorState } from './state.ts';

const AUTOMATION_PREFIXES = ['/rest/v1', '/rest/v1.1', '/rest/v1.2'] as const;

/** A key and certificate (PEM) to serve https with, instead of plain http. */
export interface TlsOptions {
  key: string | Buffer;
  cert: string | Buffer;
}

interface AppOptions {
  /** Requests a second per account; 0 (default) disables the limit. */
  rateLimit?: number;
  tls?: TlsOptions | undefined;
}

export async function buildApp(state: EmulatorState, options: AppOptions = {}): Promise<FastifyInstance> {
  const { automation, authoring, mobile } = state;
  const { tls } = options;
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
  // Every answer is dated by the emulator's clock, as the service's answers are by its own: a
  // client that reckons on the service's time (a soak, a window of jobs) follows it.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('date', new Date(state.now()).toUTCString());
  });
  const admin = new AdminState(options.rateLimit ?? 0);
  installTrafficHooks(app, admin, {
    now: () => state.now(),
    secrets: () => state.secrets(),
    isExempt: isDashboardPath,
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send({ message: `No route for ${request.method} ${request.url.split('?')[0]}`, code: 'not_found' }),
  );
  await app.register(adminRoutes, {
    state: admin,
    resetStores: () => state.reset(),
    interfaceRoutes: [
      (routes) => automationAdminRoutes(routes, automation),
      (routes) => authoringAdminRoutes(routes, authoring),
      (routes) => mobileAdminRoutes(routes, mobile),
    ],
  });
  await app.register(authoringRoutes, { store: authoring, prefix: '/v1/ai-authoring' });
  await app.register(mobileRoutes, { store: mobile });
  await app.register(dashboardRoutes, {
    sources: { jobs: automation.jobs, mobile, now: () => state.now() },
  });
  for (const prefix of AUTOMATION_PREFIXES) {
    await app.register(automationRoutes, { store: automation, prefix });
  }
  await app.register(sauceConnectDownloadRoutes, { builds: automation.sauceConnect });
  return app;
}
