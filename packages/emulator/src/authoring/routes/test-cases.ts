/** GET/DELETE /testcases, /testcases/{id}, POST /testcases/{id}/run and /rename. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../../context.ts';
import type { RunTarget } from '../model.ts';
import { runTestCase } from '../runs.ts';
import {
  caseRunBody,
  hexIdParams,
  type IdParams,
  renameBody,
  revisionParams,
  testCaseListQuery,
} from '../schemas.ts';
import { userOf } from '../session.ts';
import type { TestCaseListQuery } from '../store.ts';
import { caseRunView, testCaseDetailView, testCaseView } from '../views.ts';

interface RunBody {
  buildName?: string;
  targets?: RunTarget[];
  scTunnelName?: string | null;
}

export function testCaseRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Querystring: TestCaseListQuery }>(
    '/testcases',
    { schema: { querystring: testCaseListQuery } },
    async (request) => {
      const page = ctx.authoring.listTestCases(request.query);
      return { data: { items: page.items.map(testCaseView), total: page.total } };
    },
  );

  app.get<{ Params: IdParams }>('/testcases/:id', { schema: { params: hexIdParams } }, async (request) => {
    const store = ctx.authoring;
    return { data: testCaseDetailView(store, store.getTestCase(request.params.id)) };
  });

  app.delete<{ Params: IdParams }>(
    '/testcases/:id',
    { schema: { params: hexIdParams } },
    async (request, reply) => {
      ctx.authoring.deleteTestCase(request.params.id);
      return reply.code(204).send();
    },
  );

  const run = (request: FastifyRequest, caseId: string, body: RunBody | undefined, revisionId?: string) => {
    const input = { ...(body ?? {}), ...(revisionId === undefined ? {} : { revisionId }) };
    return { data: caseRunView(runTestCase(ctx.authoring, ctx.automation, caseId, input, userOf(request))) };
  };

  app.post<{ Params: IdParams; Body: RunBody | undefined }>(
    '/testcases/:id/run',
    { schema: { params: hexIdParams, body: caseRunBody } },
    async (request) => run(request, request.params.id, request.body),
  );

  // The seed leaves the place of revisionId open; it is the path segment after `run`.
  app.post<{ Params: IdParams & { revisionId: string }; Body: RunBody | undefined }>(
    '/testcases/:id/run/:revisionId',
    { schema: { params: revisionParams, body: caseRunBody } },
    async (request) => run(request, request.params.id, request.body, request.params.revisionId),
  );

  app.post<{ Params: IdParams; Body: { name: string } }>(
    '/testcases/:id/rename',
    { schema: { params: hexIdParams, body: renameBody } },
    async (request) => {
      const store = ctx.authoring;
      const testCase = store.renameTestCase(request.params.id, request.body.name, userOf(request));
      return { data: testCaseDetailView(store, testCase) };
    },
  );
}
