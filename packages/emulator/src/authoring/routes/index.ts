/** The AI test authoring interface (seed 000) under its prefix, default `/v1/ai-authoring`. */
import type { FastifyError, FastifyInstance } from 'fastify';
import { schemaTyped } from '../../shared/schema-typed.ts';
import { AuthoringError, codeForStatus, errorBody } from '../errors.ts';
import { artifactRoutes } from './artifacts.ts';
import { scheduleRoutes } from './schedules.ts';
import { suiteRoutes } from './suites.ts';
import { testCaseRoutes } from './test-cases.ts';
import { useBasicAuthentication } from '../session.ts';
import type { AuthoringStore } from '../store/index.ts';
import { useAuthoringValidation } from '../validation.ts';

export async function authoringRoutes(
  app: FastifyInstance,
  options: { store: AuthoringStore },
): Promise<void> {
  const { store } = options;
  useAuthoringValidation(app);
  useBasicAuthentication(app, store.users);

  app.setErrorHandler((error: FastifyError | AuthoringError, _request, reply) => {
    if (error instanceof AuthoringError) {
      return reply.code(error.statusCode).send(errorBody(error.code, error.message));
    }
    if (error.validation) return reply.code(400).send(errorBody('BAD_REQUEST', error.message));
    const status = error.statusCode ?? 500;
    if (status >= 500) return reply.code(500).send(errorBody('INTERNAL_ERROR', 'internal error'));
    // The seed answers every unreadable request with 400 (for example a body that is not JSON).
    const answered = status === 415 ? 400 : status;
    return reply.code(answered).send(errorBody(codeForStatus(answered), error.message));
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .send(errorBody('NOT_FOUND', `no operation ${request.method} ${request.url.split('?')[0]}`));
  });

  const typed = schemaTyped(app);
  testCaseRoutes(typed, store);
  suiteRoutes(typed, store);
  scheduleRoutes(typed, store);
  artifactRoutes(typed, store.artifacts);
}
