/** Projects and their build and tester lists (v1 and v2). */
import type { SchemaTypedApp } from '../../shared/schema-typed.ts';
import type { MobileStore } from '../store/index.ts';
import { idParam, paginate } from '../format.ts';
import { buildParams, pageQuery, projectParams } from '../schemas.ts';
import { baseUrl, buildV1, buildV2Item, projectV1, projectV2, projectV2Item } from '../views.ts';

export function projectRoutes(app: SchemaTypedApp, store: MobileStore): void {
  app.get('/api/1/projects', async (request) => {
    const base = baseUrl(request);
    return { status: 'ok', projects: store.projects.list().map((project) => projectV1(base, project)) };
  });

  app.get('/api/2/projects', { schema: { querystring: pageQuery } }, async (request) => {
    const base = baseUrl(request);
    const page = paginate(store.projects.list(), request.query, 25, 100);
    return {
      status: 'ok',
      projects: page.items.map((project) => projectV2Item(base, project)),
      pagination: page.pagination,
    };
  });

  app.get('/api/2/projects/:projectId', { schema: { params: projectParams } }, async (request) => {
    const project = store.projects.get(idParam('project-id', request.params.projectId));
    return { status: 'ok', project: projectV2(baseUrl(request), project) };
  });

  const projectPage = { schema: { params: projectParams, querystring: pageQuery } };

  app.get('/api/2/projects/:projectId/builds', projectPage, async (request) => {
    const project = store.projects.get(idParam('project-id', request.params.projectId));
    const page = paginate(store.projects.buildsOf(project.id), request.query, 25, 100);
    const base = baseUrl(request);
    return {
      status: 'ok',
      builds: page.items.map((build) => buildV2Item(base, project, build)),
      pagination: page.pagination,
    };
  });

  app.get('/api/2/projects/:projectId/testers', projectPage, async (request) => {
    const project = store.projects.get(idParam('project-id', request.params.projectId));
    const page = paginate(store.projects.testersOf(project.id), request.query, 50, 200);
    return {
      status: 'ok',
      testers: page.items.map((tester) => ({ id: tester.id, email: tester.email })),
      pagination: page.pagination,
    };
  });

  app.get('/api/1/projects/:projectId/builds', { schema: { params: projectParams } }, async (request) => {
    const project = store.projects.get(idParam('project-id', request.params.projectId));
    const base = baseUrl(request);
    return {
      status: 'ok',
      builds: store.projects.buildsOf(project.id).map((build) => buildV1(base, store, project, build)),
    };
  });

  app.get(
    '/api/1/projects/:projectId/builds/:buildId',
    { schema: { params: buildParams } },
    async (request) => {
      const project = store.projects.get(idParam('project-id', request.params.projectId));
      const build = store.projects.build(project.id, idParam('build-id', request.params.buildId));
      return { status: 'ok', build: buildV1(baseUrl(request), store, project, build) };
    },
  );
}
