/** /testsuites: list, create, get, update, delete and run. */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../../context.ts';
import { runTestSuite } from '../runs.ts';
import {
  type IdParams,
  suiteCreateBody,
  suiteDeleteBody,
  suiteDeleteQuery,
  suiteListQuery,
  suiteRunBody,
  suiteUpdateBody,
  uuidParams,
} from '../schemas.ts';
import { userOf } from '../session.ts';
import type { SuiteListQuery } from '../store.ts';
import { suiteRunView, suiteView } from '../views.ts';

export function suiteRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Querystring: SuiteListQuery }>(
    '/testsuites',
    { schema: { querystring: suiteListQuery } },
    async (request) => {
      const store = ctx.authoring;
      const page = store.listSuites(request.query);
      // The seed shows runCount only on create, get and update.
      return {
        data: { items: page.items.map((suite) => suiteView(store, suite, false)), total: page.total },
      };
    },
  );

  app.post<{ Body: { name: string; testCases?: string[]; tags?: string[] } }>(
    '/testsuites',
    { schema: { body: suiteCreateBody } },
    async (request, reply) => {
      const store = ctx.authoring;
      const suite = store.createSuite(request.body, userOf(request));
      return reply.code(201).send({ data: suiteView(store, suite, true) });
    },
  );

  app.get<{ Params: IdParams }>('/testsuites/:id', { schema: { params: uuidParams } }, async (request) => {
    const store = ctx.authoring;
    return { data: suiteView(store, store.getSuite(request.params.id), true) };
  });

  app.post<{ Params: IdParams; Body: { name?: string; testCaseIds: string[]; tags?: string[] } }>(
    '/testsuites/:id',
    { schema: { params: uuidParams, body: suiteUpdateBody } },
    async (request) => {
      const store = ctx.authoring;
      const suite = store.updateSuite(request.params.id, request.body, userOf(request));
      return { data: suiteView(store, suite, true) };
    },
  );

  // deleteTestCases is read from the body (the seed) or, for clients that cannot send a body
  // with DELETE, from the query.
  app.delete<{
    Params: IdParams;
    Querystring: { deleteTestCases?: boolean };
    Body: { deleteTestCases?: boolean } | undefined;
  }>(
    '/testsuites/:id',
    { schema: { params: uuidParams, querystring: suiteDeleteQuery, body: suiteDeleteBody } },
    async (request, reply) => {
      const deleteTestCases = request.body?.deleteTestCases ?? request.query.deleteTestCases ?? false;
      ctx.authoring.deleteSuite(request.params.id, deleteTestCases);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: IdParams; Body: { buildName?: string; scTunnelName?: string | null } | undefined }>(
    '/testsuites/:id/run',
    { schema: { params: uuidParams, body: suiteRunBody } },
    async (request) => {
      const run = runTestSuite(
        ctx.authoring,
        ctx.automation,
        request.params.id,
        request.body ?? {},
        userOf(request),
      );
      return { data: suiteRunView(run) };
    },
  );
}
