/**
 * Who is calling: every automation route but the public ones needs HTTP Basic credentials of an
 * account (a user name and password in the request URL reach the server as the same header).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { basicAuthOf } from '../shared/credentials.ts';
import { sendError } from './errors.ts';
import type { AutomationAccounts } from './store/accounts.ts';

const callers = new WeakMap<FastifyRequest, string>();

/** The authenticated caller; only valid on routes that are not public. */
export function callerOf(request: FastifyRequest): string {
  const caller = callers.get(request);
  if (caller === undefined) throw new Error('route has no authenticated caller');
  return caller;
}

/**
 * onRequest hook of every operation but the public ones (registered apart, without it): 401
 * without valid credentials; 403 when the path's `:username` is neither the caller nor one of its
 * sub-accounts. 403 is answered whether or not that account exists, so that the answer tells
 * nothing about other customers' account names.
 */
export function authenticate(accounts: AutomationAccounts) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const credentials = basicAuthOf(request);
    if (!credentials || !accounts.verify(credentials.user, credentials.password)) {
      reply.header('WWW-Authenticate', 'Basic realm="Sauce Labs REST API"');
      return sendError(reply, 401, 'Not authorized', 'unauthorized');
    }
    callers.set(request, credentials.user);
    const params = request.params as { username?: string } | undefined;
    if (params?.username !== undefined && !accounts.canActFor(credentials.user, params.username)) {
      return sendError(reply, 403, `Not allowed to act for account ${params.username}`, 'forbidden');
    }
    return undefined;
  };
}

/** Base address the client called, for links inside answers. */
export function baseUrlOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
