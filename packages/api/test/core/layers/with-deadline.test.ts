/**
 * The deadline layer on scripted attempts: when the call must be over, and what ends it: no
 * attempt after the signal or `sendUntil` aborted, no wait finished after either, while an
 * attempt on its way runs on.
 */
import { describe, expect, it } from 'vitest';
import { markDeadline } from '../../../src/core/deadline.ts';
import { ApiError, TransportError } from '../../../src/core/errors.ts';
import { compose, sendAttempt, settle, type Call } from '../../../src/core/layers/layer.ts';
import { callDeadline, waitBeforeAttempt, withDeadline } from '../../../src/core/layers/with-deadline.ts';
import { failureRule, rateLimitRule, withRetry } from '../../../src/core/layers/with-retry.ts';
import { answered, failed, policyOf, recordingLogger, refused, scriptedCall } from './calls.ts';

const T = 1_800_000_000_000;

/** A signal marked with a deadline, aborted or not. */
function signal(options: { endsAt?: number; aborted?: boolean } = {}): AbortSignal {
  const controller = new AbortController();
  if (options.endsAt !== undefined) markDeadline(controller.signal, options.endsAt);
  if (options.aborted) controller.abort(new Error('the step was cancelled'));
  return controller.signal;
}

describe('when the call must be over', () => {
  it.each<[string, () => Parameters<typeof callDeadline>[0], number | undefined]>([
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
    expect(callDeadline(spec())).toBe(deadline);
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
    const call = scriptedCall([answered()], {
      ...(signalAborted !== undefined ? { signal: signal({ aborted: signalAborted }) } : {}),
      ...(sendUntil !== undefined ? { sendUntil: signal({ aborted: sendUntil }) } : {}),
    });
    call.lastRefusal = last?.();
    const outcome = await withDeadline(sendAttempt(recordingLogger()))(call, () => {}).catch(
      (error: unknown) => error,
    );
    if (!message) {
      expect(outcome).toMatchObject({ kind: 'answer' });
      expect(call.sent()).toBe(1);
      return;
    }
    expect(call.sent()).toBe(0);
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
    const call = scriptedCall([], {
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

describe('sendUntil through the retry layers', () => {
  /** The transport's layers without pacing, on `call`. */
  async function run(call: Call) {
    const policy = policyOf({ minDelayMs: 10_000, maxDelayMs: 10_000 });
    const logger = recordingLogger();
    const send = compose(sendAttempt(logger), [
      withRetry(failureRule(policy), policy, logger),
      withRetry(rateLimitRule(policy, undefined), policy, logger),
      withDeadline,
    ]);
    return send(call, () => {})
      .then((outcome) => settle(call, outcome))
      .catch((error: unknown) => error);
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
    const call = scriptedCall([first, answered()], { sendUntil: sendUntil.signal });
    const started = performance.now();
    setTimeout(() => sendUntil.abort(new Error('cancelled')), 10);
    const result = await run(call);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(call.sent()).toBe(1);
    expect(result).toMatchObject({ kind: 'aborted', message });
  });

  it('lets the attempt on its way bring its answer, and starts no wait after it', async () => {
    const sendUntil = new AbortController();
    const inFlight = scriptedCall([answered()], { sendUntil: sendUntil.signal });
    const transmit = inFlight.transmit;
    // sendUntil aborts while the attempt is on its way.
    const call: Call = { ...inFlight, transmit: (onHeaders) => (sendUntil.abort(), transmit(onHeaders)) };
    expect(await run(call)).toEqual({ status: 200, headers: {}, body: { ok: true } });

    const refusedAfter = new AbortController();
    const second = scriptedCall([refused(503), answered()], { sendUntil: refusedAfter.signal });
    const then = second.transmit;
    const result = await run({ ...second, transmit: (onHeaders) => (refusedAfter.abort(), then(onHeaders)) });
    expect(second.sent()).toBe(1);
    expect(result).toMatchObject({
      message:
        'probe: request aborted before it was sent again; the last attempt was answered 503 Service Unavailable (GET /x)',
    });
  });
});
