/**
 * How long a request may take, and how it ends early: a timeout for the headers and for the body,
 * a timed-out GET sent again, the caller's signal (in flight, during a retry wait, before
 * sending), and `sendUntil` with the step's deadline, which may stop a request from being sent
 * again but never cuts off the attempt on its way.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { anySignal, ApiError, markDeadline, TransportError } from '../../src/index.ts';
import { json, startServer, stopAll } from '../support/server.ts';
import { closeTransports, transport, wait } from '../support/transports.ts';

afterEach(async () => {
  await closeTransports();
  await stopAll();
});

describe('timeouts and aborts', () => {
  it('gives a timeout TransportError when the headers are late', async () => {
    // The answer comes long after the timeout, so that a loaded machine's delays cannot be taken
    // for either.
    const server = await startServer(async (_request, response) => {
      await wait(3000);
      json(response, 200, {});
    });
    const started = performance.now();
    const failure = await transport(server.url, { timeouts: { headersMs: 40 } })
      .send({ operation: 'slow', method: 'GET', path: '/x' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).kind).toBe('timeout');
    expect((failure as TransportError).code).toBe('UND_ERR_HEADERS_TIMEOUT');
    expect((failure as TransportError).message).toBe('slow: timed out (UND_ERR_HEADERS_TIMEOUT) (GET /x)');
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('gives a timeout TransportError when the body stalls', async () => {
    const server = await startServer(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"items":[');
      await wait(300);
      response.end(']}');
    });
    const failure = await transport(server.url)
      .send({ operation: 'stall', method: 'GET', path: '/x', timeouts: { bodyMs: 40 } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).kind).toBe('timeout');
    expect((failure as TransportError).code).toBe('UND_ERR_BODY_TIMEOUT');
  });

  it('retries a timed-out GET within the policy', async () => {
    let calls = 0;
    // The first answer comes long after the timeout; the second at once, well within it even on
    // a loaded machine.
    const server = await startServer(async (_request, response) => {
      if (++calls === 1) await wait(3000);
      json(response, 200, { calls });
    });
    const answer = await transport(server.url, {
      timeouts: { headersMs: 500 },
      retry: { retries: 1, minDelayMs: 1, random: () => 0 },
    }).send({ operation: 'probe', method: 'GET', path: '/x' });
    expect(answer.body).toEqual({ calls: 2 });
  });

  it('aborts a request in flight promptly', async () => {
    const server = await startServer(async (_request, response) => {
      await wait(3000);
      json(response, 200, {});
    });
    const controller = new AbortController();
    const why = new Error('the deadline passed');
    setTimeout(() => controller.abort(why), 30);
    const started = performance.now();
    const failure = await transport(server.url)
      .send({ operation: 'probe', method: 'GET', path: '/x', signal: controller.signal })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).kind).toBe('aborted');
    expect((failure as TransportError).message).toBe('probe: request aborted (GET /x)');
    // The caller's reason stays on the error, for a caller that must tell its deadline from a cancel.
    expect((failure as TransportError).cause).toBe(why);
    // Well before the answer would have come (3 s), however loaded the machine.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('aborts during a retry wait promptly', async () => {
    const server = await startServer((_request, response) =>
      json(response, 503, {}, { 'retry-after': '10' }),
    );
    const controller = new AbortController();
    const why = new Error('cancelled');
    // Aborted once the 503 has come and its wait has begun (announced as a warning), not after a
    // time in which a loaded machine may not have sent the request yet.
    const logger = { debug: () => {}, warn: () => void setTimeout(() => controller.abort(why), 10) };
    const started = performance.now();
    const failure = await transport(server.url, { retry: { retries: 3 }, logger })
      .send({ operation: 'probe', method: 'GET', path: '/x', signal: controller.signal })
      .catch((error: unknown) => error);
    expect((failure as TransportError).kind).toBe('aborted');
    expect((failure as TransportError).cause).toBe(why);
    // Well before the end of the wait the service asked for (10 s), however loaded the machine.
    expect(performance.now() - started).toBeLessThan(1000);
    expect(server.requests).toHaveLength(1);
  });

  it('with sendUntil aborted, ends a 429 wait at once and does not send the request again', async () => {
    const server = await startServer((_request, response) =>
      json(response, 429, {}, { 'retry-after': '10' }),
    );
    const sendUntil = new AbortController();
    const why = new Error('cancelled');
    // Aborted once the 429 has come and its wait has begun (announced as a warning).
    const logger = { debug: () => {}, warn: () => void setTimeout(() => sendUntil.abort(why), 10) };
    const failure = await transport(server.url, { retry: { rateLimitRetries: 3 }, logger })
      .send({ operation: 'start', method: 'POST', path: '/x', sendUntil: sendUntil.signal })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).kind).toBe('aborted');
    expect((failure as TransportError).message).toBe(
      'start: request aborted before it was sent again; the last attempt was answered 429 Too Many Requests (POST /x)',
    );
    expect((failure as TransportError).cause).toBe(why);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['on sendUntil', (signal: AbortSignal) => ({ sendUntil: signal })],
    [
      'on a signal combined with anySignal',
      (signal: AbortSignal) => ({ signal: anySignal(signal, new AbortController().signal) }),
    ],
  ])('takes the deadline marked %s: a 429 wait past it fails at once', async (_how, options) => {
    const server = await startServer((_request, response) => json(response, 429, {}, { 'retry-after': '5' }));
    const step = new AbortController();
    markDeadline(step.signal, performance.now() + 1000);
    const started = performance.now();
    const failure = await transport(server.url, { retry: { rateLimitRetries: 3 } })
      .send({ operation: 'start', method: 'POST', path: '/x', ...options(step.signal) })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).notRetriedBecause).toBe('wait-past-deadline');
    expect(performance.now() - started).toBeLessThan(900);
    expect(server.requests).toHaveLength(1);
  });

  it('with sendUntil aborted, lets the attempt on its way bring its answer', async () => {
    const sendUntil = new AbortController();
    // Aborted once the request has come, not after a time in which a loaded machine may not have
    // sent it yet.
    const server = await startServer(async (_request, response) => {
      sendUntil.abort(new Error('cancelled'));
      await wait(300);
      json(response, 200, { started: 'job-1' });
    });
    const answer = await transport(server.url).send({
      operation: 'start',
      method: 'POST',
      path: '/x',
      sendUntil: sendUntil.signal,
    });
    expect(sendUntil.signal.aborted).toBe(true);
    expect(answer.body).toEqual({ started: 'job-1' });
  });

  it('with sendUntil already aborted, sends nothing', async () => {
    const server = await startServer((_request, response) => json(response, 200, {}));
    const failure = await transport(server.url)
      .send({ operation: 'start', method: 'POST', path: '/x', sendUntil: AbortSignal.abort() })
      .catch((error: unknown) => error);
    expect((failure as TransportError).kind).toBe('aborted');
    expect(server.requests).toHaveLength(0);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const server = await startServer((_request, response) => json(response, 200, {}));
    const failure = await transport(server.url)
      .send({ operation: 'probe', method: 'GET', path: '/x', signal: AbortSignal.abort() })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).kind).toBe('aborted');
    expect(server.requests).toHaveLength(0);
  });
});
