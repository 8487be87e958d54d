/** The automation REST interface, registered once under each of its path prefixes. */
import type { FastifyInstance } from 'fastify';
import { acceptEmptyJsonBodies } from '../json-body.ts';
import type { ServicePluginOptions } from '../plugin-options.ts';
import { authenticate } from './access.ts';
import { automationErrorHandler } from './errors.ts';
import { bugRoutes, bugTypeRoutes } from './routes/bugs.ts';
import { infoRoutes } from './routes/info.ts';
import { jobRoutes } from './routes/jobs.ts';
import { jsTestRoutes } from './routes/js-tests.ts';
import { sauceConnectListingRoutes } from './routes/sauce-connect.ts';
import { temporaryStorageRoutes } from './routes/storage.ts';
import { tunnelRoutes } from './routes/tunnels.ts';
import { userRoutes } from './routes/users.ts';

export async function automationRoutes(app: FastifyInstance, options: ServicePluginOptions): Promise<void> {
  const { ctx } = options;
  acceptEmptyJsonBodies(app, () =>
    Object.assign(new Error('Body is not valid JSON'), { statusCode: 400, code: 'invalid_json' }),
  );
  app.setErrorHandler(automationErrorHandler);
  const prefix = options.prefix ?? '/rest/v1';

  // Information, bug types and Sauce Connect downloads are public; every other operation sits
  // behind the credential check.
  await app.register(async (open) => {
    infoRoutes(open);
    sauceConnectListingRoutes(open, ctx);
    bugTypeRoutes(open, ctx);
  });
  await app.register(async (guarded) => {
    guarded.addHook('onRequest', authenticate(ctx));
    userRoutes(guarded, ctx, prefix);
    jobRoutes(guarded, ctx, prefix);
    tunnelRoutes(guarded, ctx);
    jsTestRoutes(guarded, ctx);
    bugRoutes(guarded, ctx);
    await guarded.register(temporaryStorageRoutes, { ctx });
  });
}
