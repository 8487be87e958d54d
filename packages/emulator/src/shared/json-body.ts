import type { FastifyInstance } from 'fastify';

/**
 * Replaces a plugin's JSON parser with one that takes an empty body as no body: real clients send
 * `Content-Type: application/json` with nothing on stop and delete. Anything else must parse;
 * `invalid` makes the interface's own 400 error for a body that does not.
 */
export function acceptEmptyJsonBodies(app: FastifyInstance, invalid: () => Error): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(invalid(), undefined);
    }
  });
}
