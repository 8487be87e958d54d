/** Tester groups as the account sees them, with their testers and projects (paginated). */
import type { SchemaTypedApp } from '../../shared/schema-typed.ts';
import type { MobileStore } from '../store/index.ts';
import { idParam, paginate } from '../format.ts';
import { groupParams, pageQuery } from '../schemas.ts';
import { groupView } from '../views.ts';

export function groupRoutes(app: SchemaTypedApp, store: MobileStore): void {
  app.get('/api/1/groups', async () => ({ status: 'ok', groups: store.data.groups.map(groupView) }));

  app.get('/api/1/groups/:groupId', { schema: { params: groupParams } }, async (request) => {
    const group = store.groups.get(idParam('group-id', request.params.groupId));
    return { status: 'ok', group: groupView(group) };
  });

  const groupPage = { schema: { params: groupParams, querystring: pageQuery } };

  app.get('/api/1/groups/:groupId/testers', groupPage, async (request) => {
    const group = store.groups.get(idParam('group-id', request.params.groupId));
    const page = paginate(store.groups.members(group), request.query, 50, 200);
    return {
      status: 'ok',
      testers: page.items.map((tester) => ({ email: tester.email })),
      pagination: page.pagination,
    };
  });

  app.get('/api/1/groups/:groupId/projects', groupPage, async (request) => {
    const group = store.groups.get(idParam('group-id', request.params.groupId));
    const page = paginate(store.projects.ofGroup(group), request.query, 25, 100);
    return {
      status: 'ok',
      projects: page.items.map((project) => ({ id: project.id, name: project.name })),
      pagination: page.pagination,
    };
  });
}
