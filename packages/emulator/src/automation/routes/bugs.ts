/** Bug records: public types, and detail, query and update of the caller's bugs. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SchemaTypedApp } from '../../shared/schema-typed.ts';
import { callerOf } from '../access.ts';
import { sendError } from '../errors.ts';
import type { BugRecord } from '../model.ts';
import type { AutomationStore } from '../store/index.ts';
import type { Bugs } from '../store/bugs.ts';

/** Only these properties of a bug can be changed, as the seed states. */
const EDITABLE = new Set(['Title', 'Description']);

function bugView(bug: BugRecord) {
  return {
    id: bug.id,
    type: bug.type,
    owner: bug.owner,
    job_id: bug.jobId,
    ...bug.properties,
    creation_time: bug.creationTime,
    modification_time: bug.modificationTime,
  };
}

/** Parses a JSON query member; undefined after answering 400. */
function jsonQuery(reply: FastifyReply, name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    void sendError(reply, 400, `Query ${name} must be JSON`, 'invalid_request');
    return undefined;
  }
}

/** Public: bug types and their fields. */
export function bugTypeRoutes(app: FastifyInstance, bugs: Bugs): void {
  app.get('/bugs/types', async () =>
    bugs.types().map(({ id, name, description }) => ({ id, name, description })),
  );

  app.get<{ Params: { bug_id: string } }>('/bugs/types/:bug_id', async (request, reply) => {
    const type = bugs.types().find((candidate) => candidate.id === request.params.bug_id);
    if (!type) return sendError(reply, 404, 'Bug type not found', 'not_found');
    return type;
  });
}

/** The caller's bugs. */
export function bugRoutes(app: SchemaTypedApp, store: AutomationStore): void {
  const visibleBug = (caller: string, id: string) => {
    const bug = store.bugs.get(id);
    return bug && store.accounts.canActFor(caller, bug.owner) ? bug : undefined;
  };

  app.get<{ Params: { bug_id: string } }>('/bugs/detail/:bug_id', async (request, reply) => {
    const bug = visibleBug(callerOf(request), request.params.bug_id);
    if (!bug) return sendError(reply, 404, 'Bug not found', 'not_found');
    return bugView(bug);
  });

  app.get(
    '/bugs/query',
    {
      schema: {
        querystring: { type: 'object', properties: { ids: { type: 'string' } }, required: ['ids'] } as const,
      },
    },
    async (request, reply) => {
      const ids = jsonQuery(reply, 'ids', request.query.ids);
      if (reply.sent) return reply;
      if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) {
        return sendError(reply, 400, 'Query ids must be a JSON array of bug ids', 'invalid_request');
      }
      // Ids the caller cannot see are left out, as unknown ones are.
      const caller = callerOf(request);
      return ids.flatMap((id) => {
        const bug = visibleBug(caller, id);
        return bug ? [bugView(bug)] : [];
      });
    },
  );

  app.put(
    '/bugs/update/:bug_id',
    {
      schema: {
        params: { type: 'object', properties: { bug_id: { type: 'string' } }, required: ['bug_id'] } as const,
        querystring: { type: 'object', properties: { update: { type: 'string' } } } as const,
      },
    },
    async (request, reply) => {
      const bug = visibleBug(callerOf(request), request.params.bug_id);
      if (!bug) return sendError(reply, 404, 'Bug not found', 'not_found');
      // The seed passes `update` in the query; a JSON body `{ "update": {...} }` is accepted too.
      let update: unknown = (request.body as { update?: unknown } | null | undefined)?.update;
      if (request.query.update !== undefined) {
        update = jsonQuery(reply, 'update', request.query.update);
        if (reply.sent) return reply;
      }
      if (
        !update ||
        typeof update !== 'object' ||
        Array.isArray(update) ||
        Object.keys(update).length === 0
      ) {
        return sendError(reply, 400, 'update must be a JSON object of properties', 'invalid_request');
      }
      const entries = Object.entries(update);
      const refused = entries.filter(([name]) => !EDITABLE.has(name)).map(([name]) => name);
      if (refused.length > 0) {
        return sendError(
          reply,
          400,
          `Only Title and Description can be modified, not ${refused.join(', ')}`,
          'invalid_request',
        );
      }
      if (!entries.every(([, value]) => typeof value === 'string')) {
        return sendError(reply, 400, 'Title and Description must be text', 'invalid_request');
      }
      return bugView(store.bugs.update(bug.id, Object.fromEntries(entries) as Record<string, string>));
    },
  );
}
