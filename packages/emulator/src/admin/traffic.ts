/**
 * Root hooks applied to every interface (never to the admin endpoints or the dashboard pages,
 * which are not part of the services' interfaces): the journal, the rate limit, then injected
 * faults. The rate limit comes first so that every answer, an injected fault's included, carries
 * the account's rate headers, as a gateway in front of the service would send them.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { originFormOf } from '../shared/credentials.ts';
import { shapeAnswer } from './fault-answers.ts';
import { shapesAnswer, type FaultRule } from './faults.ts';
import type { JournalEntry } from './journal.ts';
import { rateKeyOf } from './rate-limit.ts';
import { isAdminPath, type AdminState } from './state.ts';

const entries = new WeakMap<FastifyRequest, JournalEntry>();
/** Requests whose answer a fault rule shapes as it leaves. */
const shaped = new WeakMap<FastifyRequest, FaultRule>();

interface TrafficSources {
  /** The emulator's clock, read at each request. */
  now(): number;
  /** The credentials the emulator knows at that moment, which the journal masks. */
  secrets(): readonly string[];
  /** Paths outside the interfaces besides the admin endpoints (the dashboard pages). */
  isExempt(path: string): boolean;
}

export function installTrafficHooks(app: FastifyInstance, state: AdminState, sources: TrafficSources): void {
  app.addHook('onRequest', async (request, reply): Promise<FastifyReply | undefined> => {
    // A target in absolute form (`http://user:key@host/path`) counts by its path and query alone:
    // the credentials it may carry never reach the journal, and fault rules match its path.
    const target = originFormOf(request.url);
    if (isAdminPath(target) || sources.isExempt(target)) return undefined;
    entries.set(request, state.journal.open(request.method, target, sources.now(), sources.secrets()));

    if (state.rateLimiter) {
      const decision = state.rateLimiter.take(rateKeyOf(request), sources.now());
      reply.header('X-Ratelimit-Limit', String(decision.limit));
      reply.header('X-Ratelimit-Remaining', String(decision.remaining));
      reply.header('X-Ratelimit-Reset', String(decision.reset));
      if (!decision.allowed) {
        reply.header('Retry-After', String(decision.retryAfter));
        return reply.code(429).send({ message: 'Too many requests', code: 'rate_limited' });
      }
    }

    const path = target.split('?')[0] ?? target;
    const fault = state.faults.take(request.method, path);
    if (fault) {
      if (fault.delayMs) await sleep(fault.delayMs);
      if (fault.drop) {
        // No answer at all: the journal keeps status 0 for it.
        reply.hijack();
        request.raw.socket.destroy();
        return reply;
      }
      if (shapesAnswer(fault)) shaped.set(request, fault);
      if (fault.status !== undefined) {
        if (fault.retryAfter !== undefined) reply.header('Retry-After', String(fault.retryAfter));
        return reply
          .code(fault.status)
          .send(fault.body ?? { message: `Injected fault (${fault.status})`, code: 'emulator_fault' });
      }
    }

    return undefined;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const rule = shaped.get(request);
    return rule ? shapeAnswer(rule, reply, payload) : payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    const entry = entries.get(request);
    if (entry) entry.status = reply.statusCode;
  });
}
