/** Basic authentication of every authoring request, and the user it signs in as. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { basicAuthOf } from '../shared/credentials.ts';
import { errorBody } from './errors.ts';
import type { AuthoringUser } from './model.ts';
import type { AuthoringUsers } from './store/users.ts';

const signedIn = new WeakMap<FastifyRequest, AuthoringUser>();

/** Answers 401 unless the request carries an account's username and access key. */
export function useBasicAuthentication(app: FastifyInstance, users: AuthoringUsers): void {
  app.addHook('onRequest', async (request, reply) => {
    const credentials = basicAuthOf(request);
    const user = credentials && users.signIn(credentials.user, credentials.password);
    if (!user) {
      // The detail never repeats what was sent: it may hold a secret.
      return reply
        .code(401)
        .header('www-authenticate', 'Basic realm="Sauce Labs"')
        .send(errorBody('UNAUTHORIZED', 'missing or invalid Basic authentication (username and access key)'));
    }
    signedIn.set(request, user);
  });
}

/** The signed-in user of a request that passed authentication. */
export function userOf(request: FastifyRequest): AuthoringUser {
  const user = signedIn.get(request);
  if (!user) throw new Error('request was not authenticated');
  return user;
}
