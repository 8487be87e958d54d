/** GET/DELETE /testcases, /testcases/{id}, POST /testcases/{id}/run and /rename. */
import type { FastifyRequest } from 'fastify';
import type { SchemaTypedApp } from '../../shared/schema-typed.ts';
import { caseRunBody, hexIdParams, renameBody, revisionParams, testCaseListQuery } from '../schemas.ts';
import { userOf } from '../session.ts';
import type { AuthoringStore } from '../store/index.ts';
import type { CaseRunInput } from '../store/runs.ts';
import { caseRunView, testCaseDetailView, testCaseView } from '../views.ts';

export function testCaseRoutes(app: SchemaTypedApp, store: AuthoringStore): void {
  app.get('/testcases', { schema: { querystring: testCaseListQuery } }, async (request) => {
    const page = store.testCases.list(request.query);
    return { data: { items: page.items.map(testCaseView), total: page.total } };
  });

  app.get('/testcases/:id', { schema: { params: hexIdParams } }, async (request) => ({
    data: testCaseDetailView(store, store.testCases.get(request.params.id)),
  }));

  app.delete('/testcases/:id', { schema: { params: hexIdParams } }, async (request, reply) => {
    store.testCases.delete(request.params.id);
    return reply.code(204).send();
  });

  const run = (request: FastifyRequest, caseId: string, input: CaseRunInput) => ({
    data: caseRunView(store.runs.runCase(caseId, input, userOf(request))),
  });

  app.post('/testcases/:id/run', { schema: { params: hexIdParams, body: caseRunBody } }, async (request) =>
    run(request, request.params.id, request.body),
  );

  // The seed leaves the place of revisionId open; it is the path segment after `run`.
  app.post(
    '/testcases/:id/run/:revisionId',
    { schema: { params: revisionParams, body: caseRunBody } },
    async (request) =>
      run(request, request.params.id, { ...request.body, revisionId: request.params.revisionId }),
  );

  app.post(
    '/testcases/:id/rename',
    { schema: { params: hexIdParams, body: renameBody } },
    async (request) => {
      const testCase = store.testCases.rename(request.params.id, request.body.name, userOf(request));
      return { data: testCaseDetailView(store, testCase) };
    },
  );
}
