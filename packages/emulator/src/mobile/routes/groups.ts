/** Tester groups as the account sees them, with their testers and projects (paginated). */
import type { FastifyInstance } from 'fastify';
import type { MobileStore } from '../store/index.ts';
import { idParam, paginate } from '../format.ts';
import { groupView } from '../views.ts';

type Params = Record<string, string>;
type Query = Record<string, unknown>;

export function groupRoutes(app: FastifyInstance, store: MobileStore): void {
  app.get('/api/1/groups', async () => ({ status: 'ok', groups: store.data.groups.map(groupView) }));

  app.get<{ Params: Params }>('/api/1/groups/:groupId', async (request) => {
    const group = store.groups.get(idParam('group-id', request.params.groupId));
    return { status: 'ok', group: groupView(group) };
  });

  app.get<{ Params: Params; Querystring: Query }>('/api/1/groups/:groupId/testers', async (request) => {
    const group = store.groups.get(idParam('group-id', request.params.groupId));
    const page = paginate(store.groups.members(group), request.query, 50, 200);
    return {
      status: 'ok',
      testers: page.items.map((tester) => ({ email: tester.email })),
      pagination: page.pagination,
    };
  });

  app.get<{ Params: Params; Querystring: Query }>('/api/1/groups/:groupId/projects', async (request) => {
    const group = store.groups.get(idParam('group-id', request.params.groupId));
    const page = paginate(store.projects.ofGroup(group), request.query, 25, 100);
    return {
      status: 'ok',
      projects: page.items.map((project) => ({ id: project.id, name: project.name })),
      pagination: page.pagination,
    };
  });
}
