/** /testsuites: list, create, get, update, delete and run. */
import type { SchemaTypedApp } from '../../shared/schema-typed.ts';
import {
  suiteCreateBody,
  suiteDeleteBody,
  suiteDeleteQuery,
  suiteListQuery,
  suiteRunBody,
  suiteUpdateBody,
  uuidParams,
} from '../schemas.ts';
import { userOf } from '../session.ts';
import type { AuthoringStore } from '../store/index.ts';
import { suiteRunView, suiteView } from '../views.ts';

export function suiteRoutes(app: SchemaTypedApp, store: AuthoringStore): void {
  app.get('/testsuites', { schema: { querystring: suiteListQuery } }, async (request) => {
    const page = store.suites.list(request.query);
    // The seed shows runCount only on create, get and update.
    return { data: { items: page.items.map((suite) => suiteView(store, suite, false)), total: page.total } };
  });

  app.post('/testsuites', { schema: { body: suiteCreateBody } }, async (request, reply) => {
    const suite = store.suites.create(request.body, userOf(request));
    return reply.code(201).send({ data: suiteView(store, suite, true) });
  });

  app.get('/testsuites/:id', { schema: { params: uuidParams } }, async (request) => ({
    data: suiteView(store, store.suites.get(request.params.id), true),
  }));

  app.post('/testsuites/:id', { schema: { params: uuidParams, body: suiteUpdateBody } }, async (request) => {
    const suite = store.suites.update(request.params.id, request.body, userOf(request));
    return { data: suiteView(store, suite, true) };
  });

  // deleteTestCases is read from the body (the seed) or, for clients that cannot send a body
  // with DELETE, from the query.
  app.delete(
    '/testsuites/:id',
    { schema: { params: uuidParams, querystring: suiteDeleteQuery, body: suiteDeleteBody } },
    async (request, reply) => {
      const deleteTestCases = request.body.deleteTestCases ?? request.query.deleteTestCases ?? false;
      store.suites.delete(request.params.id, deleteTestCases);
      return reply.code(204).send();
    },
  );

  app.post(
    '/testsuites/:id/run',
    { schema: { params: uuidParams, body: suiteRunBody } },
    async (request) => ({
      data: suiteRunView(store.runs.runSuite(request.params.id, request.body, userOf(request))),
    }),
  );
}
