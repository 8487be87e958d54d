/** /test-schedules: list, create, get, update and delete. */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../../context.ts';
import {
  type IdParams,
  scheduleCreateBody,
  scheduleListQuery,
  scheduleUpdateBody,
  uuidParams,
} from '../schemas.ts';
import { userOf } from '../session.ts';
import type { ScheduleInput, ScheduleListQuery } from '../store.ts';
import { scheduleView } from '../views.ts';

export function scheduleRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Querystring: ScheduleListQuery }>(
    '/test-schedules',
    { schema: { querystring: scheduleListQuery } },
    async (request) => {
      const store = ctx.authoring;
      const page = store.listSchedules(request.query);
      return {
        data: { items: page.items.map((schedule) => scheduleView(store, schedule)), total: page.total },
      };
    },
  );

  app.post<{ Body: ScheduleInput | undefined }>(
    '/test-schedules',
    { schema: { body: scheduleCreateBody } },
    async (request, reply) => {
      const store = ctx.authoring;
      const schedule = store.createSchedule(request.body ?? {}, userOf(request));
      return reply.code(201).send({ data: scheduleView(store, schedule) });
    },
  );

  app.get<{ Params: IdParams }>(
    '/test-schedules/:id',
    { schema: { params: uuidParams } },
    async (request) => {
      const store = ctx.authoring;
      return { data: scheduleView(store, store.getSchedule(request.params.id)) };
    },
  );

  app.post<{ Params: IdParams; Body: ScheduleInput | undefined }>(
    '/test-schedules/:id',
    { schema: { params: uuidParams, body: scheduleUpdateBody } },
    async (request) => {
      const store = ctx.authoring;
      const schedule = store.updateSchedule(request.params.id, request.body ?? {}, userOf(request));
      return { data: scheduleView(store, schedule) };
    },
  );

  app.delete<{ Params: IdParams }>(
    '/test-schedules/:id',
    { schema: { params: uuidParams } },
    async (request, reply) => {
      ctx.authoring.deleteSchedule(request.params.id);
      return reply.code(204).send();
    },
  );
}
