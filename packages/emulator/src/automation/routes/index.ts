/** The automation REST interface, registered once under each of its path prefixes. */
import type { FastifyInstance } from 'fastify';
import { acceptEmptyJsonBodies } from '../../shared/json-body.ts';
import { schemaTyped } from '../../shared/schema-typed.ts';
import { authenticate } from '../access.ts';
import { automationErrorHandler } from '../errors.ts';
import { bugRoutes, bugTypeRoutes } from './bugs.ts';
import { infoRoutes } from './info.ts';
import { jobRoutes } from './jobs.ts';
import { jsTestRoutes } from './js-tests.ts';
import { sauceConnectListingRoutes } from './sauce-connect.ts';
import { temporaryStorageRoutes } from './storage.ts';
import { tunnelRoutes } from './tunnels.ts';
import { userRoutes } from './users.ts';
import type { AutomationStore } from '../store/index.ts';

interface AutomationPluginOptions {
  store: AutomationStore;
  /** `/rest/v1`, `/rest/v1.1` or `/rest/v1.2`: a few answers differ by version. */
  prefix: string;
}

export async function automationRoutes(
  app: FastifyInstance,
  options: AutomationPluginOptions,
): Promise<void> {
  const { store, prefix } = options;
  acceptEmptyJsonBodies(app, () =>
    Object.assign(new Error('Body is not valid JSON'), { statusCode: 400, code: 'invalid_json' }),
  );
  app.setErrorHandler(automationErrorHandler);

  // Information, bug types and Sauce Connect downloads are public; every other operation sits
  // behind the credential check.
  await app.register(async (open) => {
    infoRoutes(open);
    sauceConnectListingRoutes(schemaTyped(open), store.sauceConnect);
    bugTypeRoutes(open, store.bugs);
  });
  await app.register(async (guarded) => {
    guarded.addHook('onRequest', authenticate(store.accounts));
    const typed = schemaTyped(guarded);
    userRoutes(typed, store, prefix);
    jobRoutes(typed, store, prefix);
    tunnelRoutes(typed, store);
    jsTestRoutes(typed, store);
    bugRoutes(typed, store);
    await guarded.register(temporaryStorageRoutes, { store });
  });
}
