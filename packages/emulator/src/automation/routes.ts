/** The automation REST interface, registered once under each of its path prefixes. */
import type { FastifyInstance } from 'fastify';
import type { ServicePluginOptions } from '../plugin-options.ts';
import { authenticate } from './access.ts';
import { automationErrorHandler } from './errors.ts';
import { registerBugRoutes, registerBugTypeRoutes } from './routes/bugs.ts';
import { registerInfoRoutes } from './routes/info.ts';
import { registerJobRoutes } from './routes/jobs.ts';
import { registerJsTestRoutes } from './routes/js-tests.ts';
import { acceptEmptyJsonBodies } from '../json-body.ts';
import { storageRoutes } from './routes/storage.ts';
import { registerTunnelRoutes } from './routes/tunnels.ts';
import { registerUserRoutes } from './routes/users.ts';

export async function automationRoutes(app: FastifyInstance, options: ServicePluginOptions): Promise<void> {
  const { ctx } = options;
  acceptEmptyJsonBodies(app, () =>
    Object.assign(new Error('Body is not valid JSON'), { statusCode: 400, code: 'invalid_json' }),
  );
  app.setErrorHandler(automationErrorHandler);
  const prefix = options.prefix ?? '/rest/v1';

  // Information and bug types are public; every other operation sits behind the credential check.
  await app.register(async (open) => {
    registerInfoRoutes(open);
    registerBugTypeRoutes(open, ctx);
  });
  await app.register(async (guarded) => {
    guarded.addHook('onRequest', authenticate(ctx));
    registerUserRoutes(guarded, ctx, prefix);
    registerJobRoutes(guarded, ctx, prefix);
    registerTunnelRoutes(guarded, ctx);
    registerJsTestRoutes(guarded, ctx);
    registerBugRoutes(guarded, ctx);
    await guarded.register(storageRoutes, { ctx });
  });
}
