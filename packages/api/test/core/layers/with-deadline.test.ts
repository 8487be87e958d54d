/**
 * The deadline layer on scripted attempts: when the call must be over, and what ends it: no
 * attempt after the signal or `sendUntil` aborted, no wait finished after either, while an
 * attempt on its way runs on.
 */
import { describe, expect, it } from 'vitest';
import { markDeadline, requestDeadline } from '../../../src/core/timing/deadline.ts';
import { ApiError, TransportError } from '../../../src/core/values/errors.ts';
import { sendAttempt, settle, type Call, type Transmit } from '../../../src/core/layers/layer.ts';
import { transportLayers } from '../../../src/core/layers/stack.ts';
import { waitBeforeAttempt, withDeadline } from '../../../src/core/layers/with-deadline.ts';
import { RatePacer } from '../../../src/core/timing/pacing.ts';
import type { RequestSpec } from '../../../src/core/values/request.ts';
import {
  answered,
  callOf,
  failed,
  policyOf,
  recordingLogger,
  refused,
  script,
  type Outcome,
} from './calls.ts';

const T = 1_800_000_000_000;

/** A signal marked with a deadline, aborted or not. */
function signal(options: { endsAt?: number; aborted?: boolean } = {}): AbortSignal {
  const controller = new AbortController();
  if (options.endsAt !== undefined) markDeadline(controller.signal, options.endsAt);
  if (options.aborted) controller.abort(new Error('the step was cancelled'));
  return controller.signal;
}

describe('when the call must be over', () => {
  it.each<[string, () => RequestSpec, number | undefined]>([
    ['nothing said', () => ({ operation: 'probe', method: 'GET', path: '/x' }), undefined],
    ['the deadline given', () => ({ operation: 'probe', method: 'GET', path: '/x', deadline: T }), T],
    [
      'the signal marked earlier',
      () => ({
        operation: 'probe',
        method: 'GET',
        path: '/x',
        deadline: T,
        signal: signal({ endsAt: T - 5 }),
      }),
      T - 5,
    ],
    [
      'sendUntil marked earlier than the signal',
      () => ({
        operation: 'probe',
        method: 'GET',
        path: '/x',
        signal: signal({ endsAt: T }),
        sendUntil: signal({ endsAt: T - 9 }),
      }),
      T - 9,
    ],
    [
      'the deadline given earlier than the marks',
      () => ({
        operation: 'probe',
        method: 'GET',
        path: '/x',
        deadline: T - 20,
        sendUntil: signal({ endsAt: T }),
      }),
      T - 20,
    ],
    [
      'a signal not marked',
      () => ({ operation: 'probe', method: 'GET', path: '/x', signal: signal() }),
      undefined,
    ],
  ])('%s', (_name, spec, deadline) => {
    expect(requestDeadline(spec())).toBe(deadline);
  });
});

describe('no attempt after the end', () => {
  const lastAnswered = () =>
    new ApiError({ operation: 'probe', method: 'GET', url: '/x', status: 503, attempts: 1 });
  const lastFailed = () => failed('network', 'ECONNRESET').failure;

  it.each<{
    name: string;
    signal?: boolean;
    sendUntil?: boolean;
    last?: () => ApiError | TransportError;
    message?: string;
  }>([
    { name: 'neither aborted: the attempt is made' },
    { name: 'the signal aborted', signal: true, message: 'probe: request aborted (GET /x)' },
    {
      name: 'both aborted: the signal wins',
      signal: true,
      sendUntil: true,
      last: lastAnswered,
      message: 'probe: request aborted (GET /x)',
    },
    {
      name: 'sendUntil aborted',
      sendUntil: true,
      message: 'probe: request aborted before it was sent (GET /x)',
    },
    {
      name: 'sendUntil aborted after an answer',
      sendUntil: true,
      last: lastAnswered,
      message:
        'probe: request aborted before it was sent again; the last attempt was answered 503 Service Unavailable (GET /x)',
    },
    {
      name: 'sendUntil aborted after a failure',
      sendUntil: true,
      last: lastFailed,
      message:
        'probe: request aborted before it was sent again; the last attempt failed (ECONNRESET) (GET /x)',
    },
  ])('$name', async ({ signal: signalAborted, sendUntil, last, message }) => {
    const attempts = script([answered()]);
    const call = callOf({
      ...(signalAborted !== undefined ? { signal: signal({ aborted: signalAborted }) } : {}),
      ...(sendUntil !== undefined ? { sendUntil: signal({ aborted: sendUntil }) } : {}),
    });
    call.lastRefusal = last?.();
    const send = withDeadline(sendAttempt(attempts.transmit, recordingLogger()));
    const outcome = await send(call, () => {}).catch((error: unknown) => error);
    if (!message) {
      expect(outcome).toMatchObject({ kind: 'answer' });
      expect(attempts.sent()).toBe(1);
      return;
    }
    expect(attempts.sent()).toBe(0);
    expect(outcome).toBeInstanceOf(TransportError);
    expect(outcome).toMatchObject({ kind: 'aborted', message });
    expect((outcome as TransportError).cause).toEqual(new Error('the step was cancelled'));
  });
});

describe('waits cut short', () => {
  it.each<[string, 'signal' | 'sendUntil' | undefined, string | undefined]>([
    ['nothing aborts: the wait ends', undefined, undefined],
    ['the signal aborts', 'signal', 'probe: request aborted (GET /x)'],
    [
      'sendUntil aborts',
      'sendUntil',
      'probe: request aborted before it was sent again; the last attempt was answered 503 Service Unavailable (GET /x)',
    ],
  ])('%s', async (_name, aborting, message) => {
    const controllers = { signal: new AbortController(), sendUntil: new AbortController() };
    const call = callOf({
      signal: controllers.signal.signal,
      sendUntil: controllers.sendUntil.signal,
    });
    call.lastRefusal = new ApiError({ operation: 'probe', method: 'GET', url: '/x', status: 503 });
    const started = performance.now();
    const waited = waitBeforeAttempt(call, aborting ? 10_000 : 5).catch((error: unknown) => error);
    if (aborting) setTimeout(() => controllers[aborting].abort(new Error('ended')), 5);
    const result = await waited;
    expect(performance.now() - started).toBeLessThan(1000);
    if (!message) {
      expect(result).toBeUndefined();
      return;
    }
    expect(result).toBeInstanceOf(TransportError);
    expect(result).toMatchObject({ kind: 'aborted', message, cause: new Error('ended') });
  });
});

describe("through the transport's layers", () => {
  /**
   * Sends `call` through the transport's layers (no pacing), its attempts coming to `outcomes`;
   * `during` runs while each attempt is on its way.
   */
  async function run(call: Call, outcomes: Outcome[], during: () => void = () => {}) {
    const policy = policyOf({ minDelayMs: 10_000, maxDelayMs: 10_000 });
    const attempts = script(outcomes);
    const transmit: Transmit = (attempt, onHeaders) => (during(), attempts.transmit(attempt, onHeaders));
    const send = transportLayers({ policy, logger: recordingLogger(), pacer: undefined, transmit });
    const result = await send(call, () => {})
      .then((outcome) => settle(call, outcome))
      .catch((error: unknown) => error);
    return { result, sent: attempts.sent() };
  }

  it.each([
    [
      'a 429',
      refused(429),
      'probe: request aborted before it was sent again; the last attempt was answered 429 Too Many Requests (GET /x)',
    ],
    [
      'a cut connection',
      failed('network', 'UND_ERR_SOCKET'),
      'probe: request aborted before it was sent again; the last attempt failed (UND_ERR_SOCKET) (GET /x)',
    ],
  ])('ends the wait after %s at once, and sends nothing more', async (_name, first, message) => {
    const sendUntil = new AbortController();
    const started = performance.now();
    setTimeout(() => sendUntil.abort(new Error('cancelled')), 10);
    const { result, sent } = await run(callOf({ sendUntil: sendUntil.signal }), [first, answered()]);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(sent).toBe(1);
    expect(result).toMatchObject({ kind: 'aborted', message });
  });

  it.each([
    ['the signal', 'signal', 'probe: request aborted (GET /x)'],
    ['sendUntil', 'sendUntil', 'probe: request aborted before it was sent (GET /x)'],
  ] as const)('with %s aborted before the call, neither paces nor sends', async (_name, which, message) => {
    const ended = AbortSignal.abort(new Error('ended'));
    const call = callOf(which === 'signal' ? { signal: ended } : { sendUntil: ended });
    const pacer = new RatePacer();
    pacer.observe(call.rateKey, 200, {
      'x-ratelimit-limit': '10',
      'x-ratelimit-remaining': '9',
      'x-ratelimit-reset': '60',
    });
    const attempts = script([answered()]);
    const send = transportLayers({
      policy: policyOf(),
      logger: recordingLogger(),
      pacer,
      transmit: attempts.transmit,
    });
    const result = await send(call, () => {}).catch((error: unknown) => error);
    expect(result).toMatchObject({ kind: 'aborted', message });
    expect(attempts.sent()).toBe(0);
    // No start was counted against the account's window.
    expect(pacer.windowOf(call.rateKey)?.remaining).toBe(9);
  });

  it('lets the attempt on its way bring its answer, and starts no wait after it', async () => {
    // sendUntil aborts while the attempt is on its way.
    const whileAnswered = new AbortController();
    const answer = await run(callOf({ sendUntil: whileAnswered.signal }), [answered()], () =>
      whileAnswered.abort(),
    );
    expect(answer.result).toEqual({ status: 200, headers: {}, body: { ok: true } });

    const whileRefused = new AbortController();
    const refusal = await run(callOf({ sendUntil: whileRefused.signal }), [refused(503), answered()], () =>
      whileRefused.abort(),
    );
    expect(refusal.sent).toBe(1);
    expect(refusal.result).toMatchObject({
      message:
        'probe: request aborted before it was sent again; the last attempt was answered 503 Service Unavailable (GET /x)',
    });
  });
});
