/** Projects and their build and tester lists (v1 and v2). */
import type { FastifyInstance } from 'fastify';
import type { MobileStore } from '../store/index.ts';
import { idParam, paginate } from '../format.ts';
import { baseUrl, buildV1, buildV2Item, projectV1, projectV2, projectV2Item } from '../views.ts';

type Query = Record<string, unknown>;
type Params = Record<string, string>;

export function projectRoutes(app: FastifyInstance, store: MobileStore): void {
  app.get('/api/1/projects', async (request) => {
    const base = baseUrl(request);
    return { status: 'ok', projects: store.projects.list().map((project) => projectV1(base, project)) };
  });

  app.get<{ Querystring: Query }>('/api/2/projects', async (request) => {
    const base = baseUrl(request);
    const page = paginate(store.projects.list(), request.query, 25, 100);
    return {
      status: 'ok',
      projects: page.items.map((project) => projectV2Item(base, project)),
      pagination: page.pagination,
    };
  });

  app.get<{ Params: Params }>('/api/2/projects/:projectId', async (request) => {
    const project = store.projects.get(idParam('project-id', request.params.projectId));
    return { status: 'ok', project: projectV2(baseUrl(request), project) };
  });

  app.get<{ Params: Params; Querystring: Query }>('/api/2/projects/:projectId/builds', async (request) => {
    const project = store.projects.get(idParam('project-id', request.params.projectId));
    const page = paginate(store.projects.buildsOf(project.id), request.query, 25, 100);
    const base = baseUrl(request);
    return {
      status: 'ok',
      builds: page.items.map((build) => buildV2Item(base, project, build)),
      pagination: page.pagination,
    };
  });

  app.get<{ Params: Params; Querystring: Query }>('/api/2/projects/:projectId/testers', async (request) => {
    const project = store.projects.get(idParam('project-id', request.params.projectId));
    const page = paginate(store.projects.testersOf(project.id), request.query, 50, 200);
    return {
      status: 'ok',
      testers: page.items.map((tester) => ({ id: tester.id, email: tester.email })),
      pagination: page.pagination,
    };
  });

  app.get<{ Params: Params }>('/api/1/projects/:projectId/builds', async (request) => {
    const project = store.projects.get(idParam('project-id', request.params.projectId));
    const base = baseUrl(request);
    return {
      status: 'ok',
      builds: store.projects.buildsOf(project.id).map((build) => buildV1(base, store, project, build)),
    };
  });

  app.get<{ Params: Params }>('/api/1/projects/:projectId/builds/:buildId', async (request) => {
    const project = store.projects.get(idParam('project-id', request.params.projectId));
    const build = store.projects.build(project.id, idParam('build-id', request.params.buildId));
    return { status: 'ok', build: buildV1(baseUrl(request), store, project, build) };
  });
}
