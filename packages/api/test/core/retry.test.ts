import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, TransportError, type RetryPolicy } from '../../src/index.ts';
import { backoffDelay, retryPolicy, serverDelayMs } from '../../src/core/timing/retry.ts';
import { BasicCredentials } from '../../src/core/values/credentials.ts';
import { HttpTransport } from '../../src/core/transport/transport.ts';
import { closedPort, json, startServer, stopAll } from '../support/server.ts';

const transports: HttpTransport[] = [];

function transport(
  baseUrl: string,
  retry: Partial<RetryPolicy> = {},
  warnings: string[] = [],
): HttpTransport {
  const http = new HttpTransport({
    baseUrl,
    credentials: new BasicCredentials('alice', 'secret-access-key'),
    retry: { retries: 3, minDelayMs: 1, maxDelayMs: 4, random: () => 0.5, ...retry },
    logger: { debug: () => {}, warn: (message) => warnings.push(message) },
  });
  transports.push(http);
  return http;
}

afterEach(async () => {
  await Promise.all(transports.splice(0).map((http) => http.close()));
  await stopAll();
});

/** A server answering each status in turn, then 200 `{ ok: true }`. */
async function statusSequence(statuses: number[], headers: Record<string, string> = {}) {
  let index = 0;
  return startServer((_request, response) => {
    const status = statuses[index++];
    if (status === undefined) json(response, 200, { ok: true });
    else json(response, status, { message: `status ${status}` }, headers);
  });
}

describe('retry policy', () => {
  it('grows the backoff exponentially up to the cap, scaled by the jitter', () => {
    const policy = retryPolicy({ minDelayMs: 100, maxDelayMs: 1000, random: () => 0.5 });
    expect([0, 1, 2, 3, 4, 5].map((attempt) => backoffDelay(policy, attempt))).toEqual([
      50, 100, 200, 400, 500, 500,
    ]);
    // Full jitter: the delay can be anything from nothing to the cap.
    expect(backoffDelay({ ...policy, random: () => 0 }, 3)).toBe(0);
    expect(backoffDelay({ ...policy, random: () => 0.999 }, 3)).toBe(799);
  });

  it('reads Retry-After in seconds and as an HTTP date, and X-Ratelimit-Reset', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(serverDelayMs({ 'retry-after': '3' }, now)).toBe(3000);
    expect(serverDelayMs({ 'retry-after': '0.25' }, now)).toBe(250);
    expect(serverDelayMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }, now)).toBe(7000);
    expect(serverDelayMs({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, now)).toBe(0);
    expect(serverDelayMs({ 'x-ratelimit-reset': String(now / 1000 + 12) }, now)).toBe(12_000);
    expect(serverDelayMs({ 'x-ratelimit-reset': '5' }, now)).toBe(5000);
    expect(serverDelayMs({ 'x-ratelimit-reset': '5' }, now, { rateLimitReset: false })).toBeUndefined();
    expect(serverDelayMs({ 'retry-after': '' }, now)).toBeUndefined();
    expect(serverDelayMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(serverDelayMs({}, now)).toBeUndefined();
  });

  it('reckons an absolute Retry-After and reset from the answer’s Date, not this machine’s clock', () => {
    // This machine's clock is 10 minutes ahead of the service's.
    const local = Date.parse('2026-01-01T00:10:00Z');
    const date = 'Thu, 01 Jan 2026 00:00:00 GMT';
    expect(serverDelayMs({ date, 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }, local)).toBe(6500);
    const reset = String(Date.parse('2026-01-01T00:00:12Z') / 1000);
    expect(serverDelayMs({ date, 'x-ratelimit-reset': reset }, local)).toBe(11_500);
    // A Date within the header's steps of this machine's clock: the machine's, to the millisecond.
    const close = Date.parse('2026-01-01T00:00:00.900Z');
    expect(serverDelayMs({ date, 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }, close)).toBe(6100);
    // A Date that is not one is left aside.
    expect(serverDelayMs({ date: 'yesterday', 'retry-after': '3' }, local)).toBe(3000);
    expect(
      serverDelayMs(
        { date: 'Thu, 01 Jan 1970 00:00:00 GMT', 'retry-after': 'Thu, 01 Jan 2026 00:10:05 GMT' },
        local,
      ),
    ).toBe(5000);
  });
});

describe('retries against a local server', () => {
  it.each([429, 500, 502, 503, 504])('repeats a GET answered %i and succeeds', async (status) => {
    const server = await statusSequence([status, status]);
    const answer = await transport(server.url).send({ operation: 'probe', method: 'GET', path: '/x' });
    expect(answer.body).toEqual({ ok: true });
    expect(server.requests).toHaveLength(3);
  });

  it.each([400, 401, 404, 501])('does not repeat a GET answered %i', async (status) => {
    const server = await statusSequence([status]);
    const failure = await transport(server.url)
      .send({ operation: 'probe', method: 'GET', path: '/x' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(status);
    expect(server.requests).toHaveLength(1);
  });

  it('stops after the policy limit and reports the last answer', async () => {
    const server = await statusSequence([503, 503, 503, 503, 503]);
    const failure = await transport(server.url, { retries: 2 })
      .send({ operation: 'probe', method: 'GET', path: '/x' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).toBe('probe: 503 status 503 (GET /x, 3 attempts)');
    expect((failure as ApiError).attempts).toBe(3);
    expect((failure as ApiError).notRetriedBecause).toBe('retries-spent');
    expect(server.requests).toHaveLength(3);
  });

  it('waits the backoff of each attempt, with the jitter pinned', async () => {
    const server = await statusSequence([503, 503, 503]);
    const warnings: string[] = [];
    await transport(server.url, { minDelayMs: 10, maxDelayMs: 30, random: () => 0.5 }, warnings).send({
      operation: 'probe',
      method: 'GET',
      path: '/x',
    });
    expect(warnings).toEqual([
      'probe: 503 Service Unavailable; retrying in 5 ms (attempt 2 of 4)',
      'probe: 503 Service Unavailable; retrying in 10 ms (attempt 3 of 4)',
      'probe: 503 Service Unavailable; retrying in 15 ms (attempt 4 of 4)',
    ]);
  });

  it('repeats a 500 a bounded number of times, with a warning for each', async () => {
    const server = await statusSequence([500, 500, 500, 500, 500, 500]);
    const warnings: string[] = [];
    const failure = await transport(server.url, { retries: 2 }, warnings)
      .send({ operation: 'listJobs', method: 'GET', path: '/x' })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 500, attempts: 3, notRetriedBecause: 'retries-spent' });
    expect(server.requests).toHaveLength(3);
    expect(warnings).toEqual([
      expect.stringMatching(/^listJobs: 500 Internal Server Error; retrying in .* \(attempt 2 of 3\)$/),
      expect.stringMatching(/^listJobs: 500 Internal Server Error; retrying in .* \(attempt 3 of 3\)$/),
    ]);
  });

  it('repeats PUT and DELETE, and a POST marked idempotent', async () => {
    for (const method of ['PUT', 'DELETE', 'POST'] as const) {
      const server = await statusSequence([503]);
      await transport(server.url).send({ operation: 'probe', method, path: '/x', idempotent: true });
      expect(server.requests.map((request) => request.method)).toEqual([method, method]);
    }
  });

  it.each([500, 502, 503, 504])(
    'never repeats a POST answered %i, and says it may have been done',
    async (status) => {
      const server = await statusSequence([status]);
      const failure = await transport(server.url)
        .send({ operation: 'create', method: 'POST', path: '/x', body: { kind: 'json', value: { a: 1 } } })
        .catch((error: unknown) => error);
      expect((failure as ApiError).status).toBe(status);
      expect((failure as ApiError).mayHaveBeenProcessed).toBe(true);
      expect((failure as ApiError).message).toBe(
        `create: ${status} status ${status}; the service may have carried it out, so it was not sent again (POST /x)`,
      );
      expect(server.requests).toHaveLength(1);
    },
  );

  it('repeats a POST answered 429: the service did not carry it out', async () => {
    const server = await statusSequence([429, 429]);
    const answer = await transport(server.url).send({
      operation: 'create',
      method: 'POST',
      path: '/x',
      body: { kind: 'json', value: { a: 1 } },
    });
    expect(answer.body).toEqual({ ok: true });
    expect(server.requests.map((request) => request.body.toString())).toEqual(Array(3).fill('{"a":1}'));
  });

  it('never repeats a POST whose connection was cut after the request was sent', async () => {
    const server = await startServer((_request, response) => {
      response.socket?.destroy();
    });
    const failure = await transport(server.url)
      .send({ operation: 'create', method: 'POST', path: '/x', body: { kind: 'json', value: { a: 1 } } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).kind).toBe('network');
    expect((failure as TransportError).mayHaveBeenProcessed).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('repeats a GET whose connection was cut', async () => {
    let calls = 0;
    const server = await startServer((_request, response) => {
      if (++calls === 1) response.socket?.destroy();
      else json(response, 200, { ok: true });
    });
    const answer = await transport(server.url).send({ operation: 'probe', method: 'GET', path: '/x' });
    expect(answer.body).toEqual({ ok: true });
    expect(server.requests).toHaveLength(2);
  });

  it('repeats a POST whose connection was refused, once the service listens', async () => {
    const port = await closedPort();
    const warnings: string[] = [];
    const http = transport(
      `http://127.0.0.1:${port}`,
      { retries: 5, minDelayMs: 20, maxDelayMs: 20, random: () => 1 },
      warnings,
    );
    const sent = http.send({
      operation: 'create',
      method: 'POST',
      path: '/x',
      body: { kind: 'json', value: { a: 1 } },
    });
    // The first attempt is refused; the service appears during the wait before the next.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const server = await startServer(
      (request, response) => json(response, 201, { got: JSON.parse(request.body.toString()) }),
      port,
    );
    const answer = await sent;
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ got: { a: 1 } });
    expect(server.requests).toHaveLength(1);
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings[0]).toMatch(/^create: ECONNREFUSED; retrying/);
  });

  it('counts every attempt of a POST against a port that stays closed', async () => {
    const port = await closedPort();
    const warnings: string[] = [];
    const failure = await transport(`http://127.0.0.1:${port}`, { retries: 2 }, warnings)
      .send({ operation: 'create', method: 'POST', path: '/x', body: { kind: 'json', value: {} } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).kind).toBe('connect');
    expect((failure as TransportError).code).toBe('ECONNREFUSED');
    // Nothing reached the service: trying again is safe, and nothing needs checking.
    expect((failure as TransportError).mayHaveBeenProcessed).toBe(false);
    expect(warnings).toHaveLength(2);
  });

  it('waits as long as Retry-After says, in seconds', async () => {
    const server = await statusSequence([429], { 'retry-after': '0.2' });
    const warnings: string[] = [];
    const started = performance.now();
    await transport(server.url, {}, warnings).send({ operation: 'probe', method: 'GET', path: '/x' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(warnings[0]).toContain('retrying in 200 ms');
    expect(server.requests).toHaveLength(2);
  });

  it('waits until the date Retry-After names', async () => {
    // HTTP dates have whole seconds: the clock is pinned 60 ms before one, so the wait is short.
    const at = Date.parse('2026-03-01T12:00:01Z');
    vi.useFakeTimers({ toFake: ['Date'], now: at - 60 });
    try {
      // The service's clock agrees with this machine's (pinned): its Date is in the same second.
      const server = await statusSequence([503], {
        'retry-after': new Date(at).toUTCString(),
        date: new Date(at - 60).toUTCString(),
      });
      const warnings: string[] = [];
      await transport(server.url, {}, warnings).send({ operation: 'probe', method: 'GET', path: '/x' });
      expect(warnings[0]).toContain('retrying in 60 ms');
      expect(server.requests).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('honours X-Ratelimit-Reset on 429 only', async () => {
    const limited = await statusSequence([429], { 'x-ratelimit-reset': '0.1' });
    const warnings: string[] = [];
    await transport(limited.url, {}, warnings).send({ operation: 'probe', method: 'GET', path: '/x' });
    expect(warnings[0]).toContain('retrying in 100 ms');

    // A 503 that also carries the hourly window's reset is retried on the backoff, not the reset.
    const unavailable = await statusSequence([503], {
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
    });
    const later: string[] = [];
    await transport(unavailable.url, {}, later).send({ operation: 'probe', method: 'GET', path: '/x' });
    expect(later[0]).toContain('retrying in 1 ms');
  });

  it('fails at once, with retryAfterMs, when the service asks for a longer wait than the policy allows', async () => {
    const server = await statusSequence([429], { 'retry-after': '3600' });
    const started = performance.now();
    const failure = await transport(server.url, { maxServerDelayMs: 1000 })
      .send({ operation: 'probe', method: 'GET', path: '/x' })
      .catch((error: unknown) => error);
    expect(performance.now() - started).toBeLessThan(500);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(429);
    expect((failure as ApiError).retryAfterMs).toBe(3_600_000);
    expect((failure as ApiError).notRetriedBecause).toBe('wait-too-long');
    expect((failure as ApiError).message).toBe(
      'probe: 429 status 429; the service asked to wait 1h, longer than the 1s the client waits at most, so it was not sent again (GET /x)',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('resends a JSON body whole on every attempt', async () => {
    const server = await statusSequence([502]);
    await transport(server.url).send({
      operation: 'put',
      method: 'PUT',
      path: '/x',
      body: { kind: 'json', value: { n: 1 } },
    });
    expect(server.requests.map((request) => request.body.toString())).toEqual(['{"n":1}', '{"n":1}']);
  });
});
