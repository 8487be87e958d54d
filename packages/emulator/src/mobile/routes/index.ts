/** The mobile distribution REST and upload interfaces, on the emulator's root. */
import multipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance } from 'fastify';
import { schemaTyped } from '../../shared/schema-typed.ts';
import { setActor } from '../actor.ts';
import { restActor } from '../auth.ts';
import { CODE, MobileError, failureBody } from '../errors.ts';
import { accountRoutes } from './account.ts';
import { buildRoutes } from './builds.ts';
import { groupRoutes } from './groups.ts';
import { projectRoutes } from './projects.ts';
import { publicRoutes } from './public.ts';
import { testerRoutes } from './testers.ts';
import { uploadRoutes } from './upload.ts';
import type { MobileStore } from '../store/index.ts';

export async function mobileRoutes(app: FastifyInstance, options: { store: MobileStore }): Promise<void> {
  const { store } = options;
  await app.register(multipart, {
    // Files stream to disk, so the size is not bounded here; the service's own limit is not public.
    limits: { fileSize: Number.MAX_SAFE_INTEGER, files: 4, fields: 200, fieldSize: 1024 * 1024, parts: 300 },
  });

  app.setErrorHandler((error: FastifyError | MobileError, _request, reply) => {
    if (error instanceof MobileError) return reply.status(error.httpStatus).send(failureBody(error));
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    const code = status < 500 ? CODE.missingParameter : 0;
    return reply.status(status).send({ status: 'fail', code, message: error.message });
  });

  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config as { mobileRestAuth?: boolean } | undefined;
    if (config?.mobileRestAuth === false) return;
    setActor(request, restActor(store.accounts, request));
  });

  const typed = schemaTyped(app);
  projectRoutes(typed, store);
  buildRoutes(typed, store);
  testerRoutes(typed, store);
  groupRoutes(typed, store);
  accountRoutes(typed, store);
  uploadRoutes(typed, store);
  publicRoutes(typed, store);
}
