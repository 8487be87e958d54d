/** Basic authentication of every authoring request, and the user it signs in as. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { basicAuthOf } from '../auth.ts';
import type { EmulatorContext } from '../context.ts';
import { errorBody } from './errors.ts';
import type { AuthoringUser } from './model.ts';

const users = new WeakMap<FastifyRequest, AuthoringUser>();

/** Answers 401 unless the request carries an account's username and access key. */
export function useBasicAuthentication(app: FastifyInstance, ctx: EmulatorContext): void {
  app.addHook('onRequest', async (request, reply) => {
    const credentials = basicAuthOf(request);
    if (!credentials || !ctx.automation.verifyUser(credentials.user, credentials.password)) {
      // The detail never repeats what was sent: it may hold a secret.
      return reply
        .code(401)
        .header('www-authenticate', 'Basic realm="Sauce Labs"')
        .send(errorBody('UNAUTHORIZED', 'missing or invalid Basic authentication (username and access key)'));
    }
    users.set(request, ctx.authoring.userForAccount(credentials.user));
  });
}

/** The signed-in user of a request that passed authentication. */
export function userOf(request: FastifyRequest): AuthoringUser {
  const user = users.get(request);
  if (!user) throw new Error('request was not authenticated');
  return user;
}
