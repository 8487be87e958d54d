/** /test-schedules: list, create, get, update and delete. */
import type { SchemaTypedApp } from '../../shared/schema-typed.ts';
import { scheduleCreateBody, scheduleListQuery, scheduleUpdateBody, uuidParams } from '../schemas.ts';
import { userOf } from '../session.ts';
import type { AuthoringStore } from '../store/index.ts';
import { scheduleView } from '../views.ts';

export function scheduleRoutes(app: SchemaTypedApp, store: AuthoringStore): void {
  app.get('/test-schedules', { schema: { querystring: scheduleListQuery } }, async (request) => {
    const page = store.schedules.list(request.query);
    return {
      data: { items: page.items.map((schedule) => scheduleView(store, schedule)), total: page.total },
    };
  });

  app.post('/test-schedules', { schema: { body: scheduleCreateBody } }, async (request, reply) => {
    const schedule = store.schedules.create(request.body, userOf(request));
    return reply.code(201).send({ data: scheduleView(store, schedule) });
  });

  app.get('/test-schedules/:id', { schema: { params: uuidParams } }, async (request) => ({
    data: scheduleView(store, store.schedules.get(request.params.id)),
  }));

  app.post(
    '/test-schedules/:id',
    { schema: { params: uuidParams, body: scheduleUpdateBody } },
    async (request) => {
      const schedule = store.schedules.update(request.params.id, request.body, userOf(request));
      return { data: scheduleView(store, schedule) };
    },
  );

  app.delete('/test-schedules/:id', { schema: { params: uuidParams } }, async (request, reply) => {
    store.schedules.delete(request.params.id);
    return reply.code(204).send();
  });
}
