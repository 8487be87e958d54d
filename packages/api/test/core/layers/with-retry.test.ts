/**
 * The retry layers on scripted attempts: which outcomes each rule covers, how the two budgets are
 * spent apart, and which wait is taken (the one asked, the backoff) or why none is.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, TransportError } from '../../../src/core/values/errors.ts';
import { settle } from '../../../src/core/layers/layer.ts';
import { transportLayers } from '../../../src/core/layers/stack.ts';
import { failureRule, rateLimitRule } from '../../../src/core/layers/with-retry.ts';
import { RatePacer } from '../../../src/core/timing/pacing.ts';
import type { RequestSpec } from '../../../src/core/values/request.ts';
import type { RetryPolicy } from '../../../src/core/timing/retry.ts';
import {
  answered,
  callOf,
  failed,
  garbled,
  policyOf,
  recordingLogger,
  refused,
  script,
  type Outcome,
} from './calls.ts';

const PROXY = { url: 'http://proxy.test:3128', variable: 'HTTPS_PROXY' };

describe('what each rule covers', () => {
  const failures = failureRule(policyOf());
  const rateLimits = rateLimitRule(policyOf(), undefined);

  it.each<[string, Outcome, boolean, boolean, boolean]>([
    // what the attempt came to, idempotent, failure rule, 429 rule
    ['429, POST', refused(429), false, false, true],
    ['429, GET', refused(429), true, false, true],
    ['503, GET', refused(503), true, true, false],
    ['502, PUT', refused(502), true, true, false],
    ['503, POST', refused(503), false, false, false],
    ['500, GET', refused(500), true, true, false],
    ['500, POST', refused(500), false, false, false],
    ['404, GET', refused(404), true, false, false],
    ['refused connection, POST', failed('connect', 'ECONNREFUSED'), false, true, false],
    ['cut connection, GET', failed('network', 'UND_ERR_SOCKET'), true, true, false],
    ['cut connection, POST', failed('network', 'UND_ERR_SOCKET'), false, false, false],
    ['late answer, GET', failed('timeout', 'UND_ERR_HEADERS_TIMEOUT'), true, true, false],
    ['late answer, POST', failed('timeout', 'UND_ERR_HEADERS_TIMEOUT'), false, false, false],
    ['abort, GET', failed('aborted'), true, false, false],
    ['not JSON, GET', garbled('not-json'), true, true, false],
    ['not JSON, POST', garbled('not-json'), false, false, false],
    ['HTML page, GET', garbled('html'), true, true, false],
    ['too large, GET', garbled('too-large'), true, false, false],
    ['unknown encoding, GET', garbled('encoding'), true, false, false],
    ['redirect, GET', garbled('redirect'), true, false, false],
    ['proxy out of reach, POST', failed('connect', 'ECONNREFUSED', PROXY), false, true, false],
    ['proxy failing 502, POST', failed('connect', undefined, { ...PROXY, status: 502 }), false, true, false],
    ['proxy refusing 407, GET', failed('connect', undefined, { ...PROXY, status: 407 }), true, false, false],
    [
      'proxy variable not an address, GET',
      failed('connect', undefined, { variable: 'HTTPS_PROXY' }),
      true,
      false,
      false,
    ],
  ])('%s', (_name, outcome, idempotent, byFailures, byRateLimits) => {
    if (outcome.kind === 'answer') throw new Error('an answer is no rule’s');
    expect(failures.covers(outcome, idempotent)).toBe(byFailures);
    expect(rateLimits.covers(outcome, idempotent)).toBe(byRateLimits);
  });

  it('leaves a 429 to its own rule even when 429 is among the statuses to repeat', () => {
    const rule = failureRule(policyOf({ retryStatuses: [429, 503] }));
    expect(rule.covers(refused(429), true)).toBe(false);
  });
});

/**
 * Sends a call of `spec` whose attempts come to `outcomes` through the transport's layers (no
 * pacing), and settles it.
 */
async function run(
  outcomes: Outcome[],
  spec: Partial<RequestSpec> = {},
  overrides: Partial<RetryPolicy> = {},
) {
  const policy = policyOf(overrides);
  const logger = recordingLogger();
  const attempts = script(outcomes);
  const call = callOf(spec);
  const send = transportLayers({ policy, logger, pacer: undefined, transmit: attempts.transmit });
  const result = await send(call, () => {})
    .then((outcome) => settle(call, outcome))
    .catch((error: unknown) => error);
  return { result, warnings: logger.warnings, sent: attempts.sent(), call };
}

describe('retries and their budgets', () => {
  it.each<{
    name: string;
    outcomes: Outcome[];
    spec?: Partial<RequestSpec>;
    policy?: Partial<RetryPolicy>;
    sent: number;
    failure?: Record<string, unknown>;
    warnings: string[];
  }>([
    {
      name: 'a 503 to a GET, then an answer',
      outcomes: [refused(503), answered()],
      sent: 2,
      warnings: ['probe: 503 Service Unavailable; retrying in 1 ms (attempt 2 of 3)'],
    },
    {
      name: '503s to a GET until the budget is spent',
      outcomes: [refused(503), refused(503), refused(503)],
      sent: 3,
      failure: { status: 503, attempts: 3, notRetriedBecause: 'retries-spent' },
      warnings: [
        'probe: 503 Service Unavailable; retrying in 1 ms (attempt 2 of 3)',
        'probe: 503 Service Unavailable; retrying in 2 ms (attempt 3 of 3)',
      ],
    },
    {
      name: 'a 503 to a POST',
      outcomes: [refused(503)],
      spec: { method: 'POST' },
      sent: 1,
      failure: { status: 503, notRetriedBecause: undefined, mayHaveBeenProcessed: true },
      warnings: [],
    },
    {
      name: 'a 503 with retries off',
      outcomes: [refused(503)],
      policy: { retries: 0 },
      sent: 1,
      failure: { status: 503, notRetriedBecause: undefined },
      warnings: [],
    },
    {
      name: '429s to a POST, with no retries after failures',
      outcomes: [refused(429), refused(429), answered()],
      spec: { method: 'POST' },
      policy: { retries: 0 },
      sent: 3,
      warnings: [
        'probe: 429 Too Many Requests; retrying in 1 ms (retry 1 of 3 for the rate limit)',
        'probe: 429 Too Many Requests; retrying in 2 ms (retry 2 of 3 for the rate limit)',
      ],
    },
    {
      name: '429s until their budget is spent',
      outcomes: [refused(429), refused(429), refused(429)],
      policy: { rateLimitRetries: 2 },
      sent: 3,
      failure: { status: 429, attempts: 3, notRetriedBecause: 'retries-spent', mayHaveBeenProcessed: false },
      warnings: [
        'probe: 429 Too Many Requests; retrying in 1 ms (retry 1 of 2 for the rate limit)',
        'probe: 429 Too Many Requests; retrying in 2 ms (retry 2 of 2 for the rate limit)',
      ],
    },
    {
      name: '429s and 503s in turn, each from its own budget',
      outcomes: [refused(429), refused(503), refused(429), refused(503), answered()],
      policy: { rateLimitRetries: 2 },
      sent: 5,
      warnings: [
        'probe: 429 Too Many Requests; retrying in 1 ms (retry 1 of 2 for the rate limit)',
        'probe: 503 Service Unavailable; retrying in 1 ms (attempt 2 of 3)',
        'probe: 429 Too Many Requests; retrying in 2 ms (retry 2 of 2 for the rate limit)',
        'probe: 503 Service Unavailable; retrying in 2 ms (attempt 3 of 3)',
      ],
    },
    {
      name: 'a cut connection to a GET',
      outcomes: [failed('network', 'UND_ERR_SOCKET'), answered()],
      sent: 2,
      warnings: ['probe: UND_ERR_SOCKET; retrying in 1 ms (attempt 2 of 3)'],
    },
    {
      name: 'a timeout with no code',
      outcomes: [failed('timeout'), answered()],
      sent: 2,
      warnings: ['probe: timeout; retrying in 1 ms (attempt 2 of 3)'],
    },
    {
      name: 'a garbled answer to a GET',
      outcomes: [garbled('not-json'), answered()],
      sent: 2,
      warnings: [
        'probe: 200 answer unreadable (not JSON: cut short or garbled); retrying in 1 ms (attempt 2 of 3)',
      ],
    },
    {
      name: 'a cut connection to a POST',
      outcomes: [failed('network', 'UND_ERR_SOCKET')],
      spec: { method: 'POST' },
      sent: 1,
      failure: { kind: 'network', code: 'UND_ERR_SOCKET' },
      warnings: [],
    },
    {
      name: 'refused connections to a POST until the budget is spent',
      outcomes: [
        failed('connect', 'ECONNREFUSED'),
        failed('connect', 'ECONNREFUSED'),
        failed('connect', 'E2'),
      ],
      spec: { method: 'POST' },
      sent: 3,
      failure: { kind: 'connect', code: 'E2' },
      warnings: [
        'probe: ECONNREFUSED; retrying in 1 ms (attempt 2 of 3)',
        'probe: ECONNREFUSED; retrying in 2 ms (attempt 3 of 3)',
      ],
    },
    {
      name: 'a 404',
      outcomes: [refused(404)],
      sent: 1,
      failure: { status: 404, attempts: 1, notRetriedBecause: undefined },
      warnings: [],
    },
  ])('$name', async ({ outcomes, spec, policy, sent, failure, warnings }) => {
    const { result, warnings: told, sent: made, call } = await run(outcomes, spec, policy);
    expect(made).toBe(sent);
    expect(call.attempt.attempts).toBe(sent);
    if (failure) {
      expect(result).toBeInstanceOf('status' in failure ? ApiError : TransportError);
      expect(result).toMatchObject(failure);
    } else {
      expect(result).toEqual({ status: 200, headers: {}, body: { ok: true } });
    }
    expect(told).toEqual(warnings);
  });
});

describe('the wait before a retry', () => {
  const inOneSecond = () => performance.now() + 1000;

  it.each<{
    name: string;
    outcome: Outcome;
    policy?: Partial<RetryPolicy>;
    deadline?: () => number;
    warning?: string;
    refusal?: Record<string, unknown>;
  }>([
    {
      name: 'a 429 asking 3 ms',
      outcome: refused(429, 3),
      warning:
        'probe: 429 Too Many Requests; retrying in 3 ms, as the service asked (retry 1 of 3 for the rate limit)',
    },
    {
      name: 'a 503 asking 3 ms',
      outcome: refused(503, 3),
      warning: 'probe: 503 Service Unavailable; retrying in 3 ms (attempt 2 of 3)',
    },
    {
      name: 'a 429 asking nothing: the backoff',
      outcome: refused(429),
      policy: { minDelayMs: 20, maxDelayMs: 100 },
      warning: 'probe: 429 Too Many Requests; retrying in 10 ms (retry 1 of 3 for the rate limit)',
    },
    {
      name: 'a 429 asking more than the policy waits',
      outcome: refused(429, 5000),
      policy: { maxServerDelayMs: 1000 },
      refusal: { notRetriedBecause: 'wait-too-long', waitLimitMs: 1000, retryAfterMs: 5000 },
    },
    {
      name: 'a 503 asking more than the policy waits',
      outcome: refused(503, 5000),
      policy: { maxServerDelayMs: 1000 },
      refusal: { notRetriedBecause: 'wait-too-long', waitLimitMs: 1000, retryAfterMs: 5000 },
    },
    {
      name: 'a 429 asking a wait that would end after the deadline',
      outcome: refused(429, 5000),
      deadline: inOneSecond,
      refusal: { notRetriedBecause: 'wait-past-deadline', retryAfterMs: 5000 },
    },
    {
      name: 'a backoff that would end after the deadline',
      outcome: refused(503),
      deadline: () => performance.now(),
      refusal: { notRetriedBecause: 'wait-past-deadline', waitLimitMs: 0, retryAfterMs: undefined },
    },
    {
      name: 'a 429 asking more than the policy waits and than the deadline leaves',
      outcome: refused(429, 5000),
      policy: { maxServerDelayMs: 100 },
      deadline: inOneSecond,
      refusal: { notRetriedBecause: 'wait-too-long', waitLimitMs: 100 },
    },
  ])('$name', async ({ outcome, policy, deadline, warning, refusal }) => {
    const { result, warnings, sent } = await run(
      [outcome, answered()],
      deadline ? { deadline: deadline() } : {},
      policy,
    );
    if (warning) {
      expect(warnings).toEqual([warning]);
      expect(sent).toBe(2);
    } else {
      expect(warnings).toEqual([]);
      expect(sent).toBe(1);
      expect(result).toBeInstanceOf(ApiError);
      expect(result).toMatchObject(refusal ?? {});
      if (refusal?.notRetriedBecause === 'wait-past-deadline' && deadline === inOneSecond) {
        expect((result as ApiError).waitLimitMs).toBeGreaterThan(900);
        expect((result as ApiError).waitLimitMs).toBeLessThanOrEqual(1000);
      }
    }
  });

  it.each<[string, boolean, number | undefined, RegExp, boolean]>([
    // pacer, wait asked, warning, paced ahead
    [
      'no pacing, asked',
      false,
      1,
      /^429 Too Many Requests; retrying in 1 ms, as the service asked \(retry 1 of 3/,
      false,
    ],
    [
      'no pacing, not asked',
      false,
      undefined,
      /^429 Too Many Requests; retrying in 1 ms \(retry 1 of 3/,
      false,
    ],
    [
      'the account paced further than asked',
      true,
      1,
      /^429 Too Many Requests; retrying in \d+ ms, the 1 ms the service asked and a share of the account's rate \(retry 1 of 3/,
      true,
    ],
    [
      'the account paced further, nothing asked',
      true,
      undefined,
      /^429 Too Many Requests; retrying in \d+ ms \(retry 1 of 3/,
      true,
    ],
  ])("after a 429, shares the account's pacing: %s", (_name, paced, askedMs, warning, pacedAhead) => {
    const policy = policyOf();
    const call = callOf();
    let pacer: RatePacer | undefined;
    if (paced) {
      // The first short window seen: what is above its low mark is spread until its reset.
      pacer = new RatePacer();
      pacer.observe(call.rateKey, 200, {
        'x-ratelimit-limit': '10',
        'x-ratelimit-remaining': '9',
        'x-ratelimit-reset': '0.2',
      });
    }
    call.spent.rateLimitRetries = 1;
    const wait = rateLimitRule(policy, pacer).retry(call, 1, refused(429, askedMs));
    expect(wait.warning).toMatch(warning);
    expect(wait.delayMs > 1).toBe(paced);
    expect(call.pacedAhead).toBe(pacedAhead);
  });
});
