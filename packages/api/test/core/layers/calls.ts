/**
 * Calls whose attempts come to what a test scripts (no network): the layers see the outcomes an
 * attempt would bring, and the test sees what they made of them.
 */
import type { AttemptOutcome } from '../../../src/core/attempt/attempt.ts';
import {
  ApiError,
  TransportError,
  type ProxyFailure,
  type UnusableAnswer,
} from '../../../src/core/values/errors.ts';
import type { Call, Transmit } from '../../../src/core/layers/layer.ts';
import type { Headers, Logger, RequestSpec } from '../../../src/core/values/request.ts';
import { retryPolicy, type RetryPolicy } from '../../../src/core/timing/retry.ts';

export type Outcome = AttemptOutcome;
type Of<Kind extends Outcome['kind']> = Extract<Outcome, { kind: Kind }>;

/** A refusal by the service: `status`, asking to wait `askedMs` when given. */
export function refused(status: number, askedMs?: number, headers: Headers = {}): Of<'refused'> {
  return { kind: 'refused', status, headers, body: { message: `status ${status}` }, askedMs };
}

export function answered(body: unknown = { ok: true }, headers: Headers = {}): Of<'answer'> {
  return { kind: 'answer', status: 200, headers, body };
}

/** A failure to get an answer, of `kind`, with a network code. */
export function failed(kind: TransportError['kind'], code?: string, proxy?: ProxyFailure): Of<'failed'> {
  const failure = new TransportError({
    operation: 'probe',
    method: 'GET',
    url: '/x',
    kind,
    ...(code ? { code } : {}),
    message: code ?? kind,
    ...(proxy ? { proxy } : {}),
  });
  return { kind: 'failed', failure };
}

/** An answer the client could not use. */
export function garbled(unusable: UnusableAnswer): Of<'failed'> {
  const failure = new ApiError({ operation: 'probe', method: 'GET', url: '/x', status: 200, unusable });
  return { kind: 'failed', failure };
}

/** A call of `spec`. */
export function callOf(spec: Partial<RequestSpec> = {}): Call {
  const method = spec.method ?? 'GET';
  return {
    spec: { operation: 'probe', method, path: '/x', ...spec },
    attempt: {
      operation: spec.operation ?? 'probe',
      method,
      signal: spec.signal,
      url: 'https://service.test/x',
      displayUrl: '/x',
      headers: {},
      responseType: 'json',
      timeouts: { connectMs: 1000, headersMs: 1000, bodyMs: 1000 },
      maxAnswerBytes: 1024,
      idempotent: spec.idempotent ?? method !== 'POST',
      secrets: [],
      attempts: 0,
      proxy: undefined,
    },
    deadline: spec.deadline,
    rateKey: 'https://service.test user:alice',
    spent: { retries: 0, rateLimitRetries: 0 },
    pacedAhead: false,
    lastRefusal: undefined,
  };
}

/** Attempts that come to `outcomes` in turn; `sent` counts those made. */
export function script(outcomes: Outcome[]): { transmit: Transmit; sent: () => number } {
  const left = [...outcomes];
  return {
    transmit: async (_attempt, onHeaders) => {
      const outcome = left.shift();
      if (!outcome) throw new Error('no attempt was scripted for this one');
      if (outcome.kind !== 'failed') onHeaders(outcome.status, outcome.headers);
      return outcome;
    },
    sent: () => outcomes.length - left.length,
  };
}

/** A retry policy with short, pinned waits. */
export function policyOf(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  return retryPolicy({
    retries: 2,
    rateLimitRetries: 3,
    minDelayMs: 2,
    maxDelayMs: 8,
    random: () => 0.5,
    ...overrides,
  });
}

/** A logger that keeps what it is told. */
export function recordingLogger(): Logger & { warnings: string[]; debugs: string[] } {
  const warnings: string[] = [];
  const debugs: string[] = [];
  return { warnings, debugs, warn: (text) => warnings.push(text), debug: (text) => debugs.push(text) };
}
