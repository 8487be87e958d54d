/**
 * `--rate-limit N`: N requests a second per account, in fixed one-second windows, each starting
 * with the first request after the last one ended.
 *
 * `X-Ratelimit-Reset` is the number of seconds until the window ends, rounded up (so `1` in a
 * window of one second), not a Unix time: the service's own announcement of these headers
 * describes the reset as how much time is left, and neither the seeds nor any current document
 * show another form. Clients that also accept a Unix time (a value over 10^9) read both.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { basicAuthOf, bearerTokenOf } from '../shared/credentials.ts';

interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends, rounded up. */
  reset: number;
  /** Seconds to wait when refused. */
  retryAfter: number;
}

const hashed = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

/**
 * Whose budget a request spends: the Basic user name (automation user or mobile email), else the
 * mobile API key of the query or a bearer token (hashed, never kept as is), else the client address.
 */
export function rateKeyOf(request: FastifyRequest): string {
  const basic = basicAuthOf(request);
  if (basic?.user) return `user:${basic.user}`;
  const apiKey = (request.query as Record<string, unknown> | undefined)?.['api_key'];
  if (typeof apiKey === 'string' && apiKey) return `key:${hashed(apiKey)}`;
  const bearer = bearerTokenOf(request);
  if (bearer) return `bearer:${hashed(bearer)}`;
  return `ip:${request.ip}`;
}

export class RateLimiter {
  readonly limit: number;
  #windows = new Map<string, { start: number; count: number }>();

  constructor(limit: number) {
    this.limit = limit;
  }

  take(key: string, nowMs: number): RateDecision {
    let window = this.#windows.get(key);
    if (!window || nowMs - window.start >= 1000) {
      window = { start: nowMs, count: 0 };
      this.#windows.set(key, window);
      this.#sweep(nowMs);
    }
    const endMs = window.start + 1000;
    const allowed = window.count < this.limit;
    if (allowed) window.count += 1;
    // Whole seconds until the window ends: when it resets, and how long a refused client waits.
    const secondsLeft = Math.max(1, Math.ceil((endMs - nowMs) / 1000));
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      reset: secondsLeft,
      retryAfter: secondsLeft,
    };
  }

  clear(): void {
    this.#windows.clear();
  }

  /** Forgets finished windows so that many callers do not grow the map without end. */
  #sweep(nowMs: number): void {
    if (this.#windows.size < 1000) return;
    for (const [key, window] of this.#windows) if (nowMs - window.start >= 1000) this.#windows.delete(key);
  }
}
