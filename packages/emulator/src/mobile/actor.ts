/** The authenticated caller of a REST request, kept beside the request by the plugin's hook. */
import type { FastifyRequest } from 'fastify';
import { CODE, MobileError } from './errors.ts';
import type { Actor } from './store/audits.ts';

const actors = new WeakMap<FastifyRequest, Actor>();

export function setActor(request: FastifyRequest, actor: Actor): void {
  actors.set(request, actor);
}

export function actorOf(request: FastifyRequest): Actor {
  const actor = actors.get(request);
  if (!actor) throw new MobileError(401, CODE.invalidApiKey, 'Authentication required');
  return actor;
}

/** Route options of routes that check credentials themselves (upload) or need none (landing pages). */
export const NO_REST_AUTH: { config: { mobileRestAuth: boolean } } = { config: { mobileRestAuth: false } };
