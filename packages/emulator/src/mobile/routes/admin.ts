/**
 * The mobile interface's admin endpoint, which the admin plugin registers beside its own
 * (loopback only, no credentials): a build's counters, which no app reports to the emulator, so
 * that a test can play a build's life (its sessions, crashes and feedbacks in each ring).
 *
 * `PATCH /_emulator/builds/:id` `{ "sessions"?, "crashes"?, "feedbacks"?, "downloads"? }` (whole
 * numbers from 0) sets those given and answers the build's four counters. Refused: an id that is
 * no build (404), a member of another name or a value that is not such a number (400).
 */
import type { SchemaTypedApp } from '../../shared/schema-typed.ts';
import type { MobileStore } from '../store/index.ts';

const COUNTERS = ['sessions', 'crashes', 'feedbacks', 'downloads'];
const COUNTER = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;

export function mobileAdminRoutes(app: SchemaTypedApp, store: MobileStore): void {
  app.patch(
    '/_emulator/builds/:id',
    {
      schema: {
        params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } as const,
        body: {
          type: 'object',
          properties: { sessions: COUNTER, crashes: COUNTER, feedbacks: COUNTER, downloads: COUNTER },
        } as const,
      },
    },
    async (request, reply) => {
      // Checked here: `additionalProperties: false` would have the validator strip them unsaid.
      const unknown = Object.keys(request.body ?? {}).find((name) => !COUNTERS.includes(name));
      if (unknown !== undefined) {
        return reply.code(400).send({
          message: `unknown member ${JSON.stringify(unknown)}: the counters are ${COUNTERS.join(', ')}`,
        });
      }
      const build = store.data.builds.find((candidate) => String(candidate.id) === request.params.id);
      if (build === undefined) return reply.code(404).send({ message: `No build ${request.params.id}` });
      return { id: build.id, ...store.builds.setCounters(build, request.body) };
    },
  );
}
