/**
 * Faults ridden out where repeating is safe: a 429 is waited out for every method (the service did
 * not carry the request out), within the caller's deadline; a request that creates or starts
 * something is never sent again after a server error or a cut connection. The service is an undici
 * MockAgent here, so each answer and each request can be set and seen exactly.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MockAgent } from 'undici';
import { ApiError, TransportError, type RetryPolicy } from '../../src/index.ts';
import { BasicCredentials } from '../../src/core/values/credentials.ts';
import { markDeadline } from '../../src/core/timing/deadline.ts';
import { HttpTransport, type RequestSpec } from '../../src/core/transport/transport.ts';

const ORIGIN = 'https://api.us-west-1.saucelabs.com';

interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Fails the request with this error instead of answering (a cut connection). */
  error?: Error;
}

interface Received {
  method: string;
  path: string;
  body: string;
}

const agents: MockAgent[] = [];
const transports: HttpTransport[] = [];

afterEach(async () => {
  await Promise.all(transports.splice(0).map((http) => http.close()));
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

/** A mock service that gives `answers` in turn, recording what each request carried. */
function mockService(answers: Answer[]) {
  const agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  agents.push(agent);
  const received: Received[] = [];
  const pool = agent.get(ORIGIN);
  for (const answer of answers) {
    const interceptor = pool.intercept({ path: () => true, method: () => true });
    if (answer.error) {
      interceptor.replyWithError(answer.error);
      continue;
    }
    interceptor.reply(async (options) => {
      received.push({ method: options.method, path: options.path, body: await bodyText(options.body) });
      return {
        statusCode: answer.status ?? 200,
        data: JSON.stringify(answer.body ?? {}),
        responseOptions: { headers: { 'content-type': 'application/json', ...answer.headers } },
      };
    });
  }
  return {
    agent,
    received,
    /** Every request that reached the service, answered or not. */
    calls: () => agent.getCallHistory()?.calls() ?? [],
  };
}

async function bodyText(body: unknown): Promise<string> {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body) || body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

function transport(agent: MockAgent, retry: Partial<RetryPolicy> = {}, warnings: string[] = []) {
  const http = new HttpTransport({
    baseUrl: ORIGIN,
    credentials: new BasicCredentials('alice', 'secret-access-key'),
    dispatcher: agent,
    retry: { retries: 3, rateLimitRetries: 5, minDelayMs: 1, maxDelayMs: 4, random: () => 0.5, ...retry },
    logger: { debug: () => {}, warn: (message) => warnings.push(message) },
  });
  transports.push(http);
  return http;
}

const runSuite: RequestSpec = {
  operation: 'runSuite',
  method: 'POST',
  path: '/v1/ai-authoring/testsuites/s1/run',
  body: { kind: 'json', value: { buildName: 'nightly' } },
};

const getSuite: RequestSpec = {
  operation: 'getTestSuite',
  method: 'GET',
  path: '/v1/ai-authoring/testsuites/s1',
};

function cutConnection(): Error {
  return Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
}

describe('429 Too Many Requests', () => {
  it('waits as Retry-After says on a POST, then sends the same JSON body again', async () => {
    const service = mockService([
      { status: 429, headers: { 'retry-after': '0.2' }, body: { message: 'Too many requests' } },
      { status: 201, body: { data: { id: 'run-1' } } },
    ]);
    const warnings: string[] = [];
    const started = performance.now();
    const answer = await transport(service.agent, {}, warnings).send(runSuite);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ data: { id: 'run-1' } });
    expect(service.received).toEqual([
      { method: 'POST', path: runSuite.path, body: '{"buildName":"nightly"}' },
      { method: 'POST', path: runSuite.path, body: '{"buildName":"nightly"}' },
    ]);
    expect(warnings).toEqual([
      'runSuite: 429 Too Many Requests; retrying in 200 ms, as the service asked (retry 1 of 5 for the rate limit)',
    ]);
  });

  it('reopens a stream body for the second attempt and sends it whole', async () => {
    const parts = ['--boundary\r\n', 'a'.repeat(70_000), 'b'.repeat(70_000), '\r\n--boundary--\r\n'];
    const whole = parts.join('');
    let opens = 0;
    const service = mockService([
      { status: 429, headers: { 'retry-after': '0' } },
      { status: 200, body: { status: 'ok' } },
    ]);
    const answer = await transport(service.agent).send({
      operation: 'uploadBuild',
      method: 'POST',
      path: '/api/upload/',
      body: {
        kind: 'stream',
        contentType: 'multipart/form-data; boundary=boundary',
        length: Buffer.byteLength(whole),
        open: async function* () {
          opens++;
          for (const part of parts) yield Buffer.from(part);
        },
      },
    });
    expect(answer.body).toEqual({ status: 'ok' });
    expect(opens).toBe(2);
    expect(service.received).toHaveLength(2);
    expect(service.received[1]?.body).toBe(whole);
    expect(service.received[1]?.body.length).toBe(140_000 + parts[0]!.length + parts[3]!.length);
  });

  it('waits until the time X-Ratelimit-Reset names', async () => {
    // The reset is a Unix time in whole seconds: the clock is pinned 80 ms before one.
    const resetAt = Date.parse('2026-03-01T12:00:01Z');
    vi.useFakeTimers({ toFake: ['Date'], now: resetAt - 80 });
    try {
      const service = mockService([
        {
          status: 429,
          headers: {
            'x-ratelimit-limit': '10',
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(resetAt / 1000),
          },
        },
        { status: 201, body: { data: { id: 'run-1' } } },
      ]);
      const warnings: string[] = [];
      // Pacing off: what is checked is the reading of the reset (pacing may add to it, below).
      const answer = await transport(service.agent, { pacing: false }, warnings).send(runSuite);
      expect(answer.status).toBe(201);
      expect(service.received).toHaveLength(2);
      expect(warnings[0]).toContain('retrying in 80 ms, as the service asked');
    } finally {
      vi.useRealTimers();
    }
  });

  it('with pacing, waits once after a 429, and the warning tells the whole wait', async () => {
    const service = mockService([
      {
        status: 429,
        headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '0.05' },
      },
      { status: 201, body: { data: { id: 'run-1' } } },
    ]);
    const warnings: string[] = [];
    const started = performance.now();
    const answer = await transport(service.agent, { random: () => 0.5 }, warnings).send(runSuite);
    const waitedMs = performance.now() - started;
    expect(answer.status).toBe(201);
    // The service asked 50 ms; the account's pacing spreads the retry over a share of its spacing.
    const told = /retrying in (\d+(?:\.\d+)?)(ms| ms|s),/.exec(warnings[0] ?? '');
    expect(warnings[0]).toContain("the 50 ms the service asked and a share of the account's rate");
    const toldMs = Number(told?.[1]) * (told?.[2] === 's' ? 1000 : 1);
    expect(toldMs).toBeGreaterThan(50);
    // Told, and waited once: no second pacing wait after it.
    expect(waitedMs).toBeGreaterThanOrEqual(toldMs - 20);
    expect(waitedMs).toBeLessThan(toldMs + 600);
  });

  it('waits the backoff when the service does not say how long', async () => {
    const service = mockService([{ status: 429 }, { status: 429 }, { status: 201 }]);
    const warnings: string[] = [];
    await transport(service.agent, { minDelayMs: 10, maxDelayMs: 100, random: () => 0.5 }, warnings).send(
      runSuite,
    );
    expect(service.received).toHaveLength(3);
    expect(warnings).toEqual([
      'runSuite: 429 Too Many Requests; retrying in 5 ms (retry 1 of 5 for the rate limit)',
      'runSuite: 429 Too Many Requests; retrying in 10 ms (retry 2 of 5 for the rate limit)',
    ]);
  });

  it('keeps its own budget, apart from the retries after failures', async () => {
    // No retries after failures at all, yet 429s are waited out, up to their own count.
    const service = mockService([{ status: 429 }, { status: 429 }, { status: 429 }, { status: 429 }]);
    const failure = await transport(service.agent, { retries: 0, rateLimitRetries: 2 })
      .send(runSuite)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 429, attempts: 3, notRetriedBecause: 'retries-spent' });
    expect((failure as ApiError).isRateLimited).toBe(true);
    expect((failure as ApiError).mayHaveBeenProcessed).toBe(false);
    expect((failure as ApiError).message).toBe(
      'runSuite: 429 Too Many Requests (POST /v1/ai-authoring/testsuites/s1/run, 3 attempts)',
    );
    expect(service.calls()).toHaveLength(3);
  });

  it('fails at once, saying how long the service asked, when the wait would end after the deadline', async () => {
    const service = mockService([{ status: 429, headers: { 'retry-after': '60' } }, { status: 201 }]);
    const started = performance.now();
    const failure = await transport(service.agent)
      .send({ ...runSuite, deadline: performance.now() + 5000 })
      .catch((error: unknown) => error);
    expect(performance.now() - started).toBeLessThan(500);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({
      status: 429,
      retryAfterMs: 60_000,
      notRetriedBecause: 'wait-past-deadline',
    });
    expect((failure as ApiError).waitLimitMs).toBeGreaterThan(4000);
    expect((failure as ApiError).waitLimitMs).toBeLessThanOrEqual(5000);
    expect((failure as ApiError).message).toMatch(
      /^runSuite: 429 Too Many Requests; the service asked to wait 1m, which ends after the deadline \([45]s away\), so it was not sent again \(POST \/v1\/ai-authoring\/testsuites\/s1\/run\)$/,
    );
    expect(service.calls()).toHaveLength(1);
  });

  it('reads the deadline from a signal marked with it', async () => {
    const service = mockService([{ status: 429, headers: { 'retry-after': '30' } }, { status: 201 }]);
    const step = new AbortController();
    markDeadline(step.signal, performance.now() + 2000);
    const started = performance.now();
    const failure = await transport(service.agent)
      .send({ ...runSuite, signal: step.signal })
      .catch((error: unknown) => error);
    expect(performance.now() - started).toBeLessThan(500);
    expect(failure).toMatchObject({
      status: 429,
      retryAfterMs: 30_000,
      notRetriedBecause: 'wait-past-deadline',
    });
    expect(service.calls()).toHaveLength(1);
  });

  it('does not start a backoff that would end after the deadline', async () => {
    const service = mockService([{ status: 429 }, { status: 201 }]);
    const failure = await transport(service.agent, {
      minDelayMs: 60_000,
      maxDelayMs: 60_000,
      random: () => 1,
    })
      .send({ ...runSuite, deadline: performance.now() + 1000 })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 429, notRetriedBecause: 'wait-past-deadline' });
    expect((failure as ApiError).retryAfterMs).toBeUndefined();
    expect((failure as ApiError).message).toContain('the next try would come after the deadline');
    expect(service.calls()).toHaveLength(1);
  });

  it('fails at once when the service asks for more than the policy waits', async () => {
    const service = mockService([{ status: 429, headers: { 'retry-after': '600' } }, { status: 201 }]);
    const failure = await transport(service.agent, { maxServerDelayMs: 120_000 })
      .send(runSuite)
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 429, retryAfterMs: 600_000, notRetriedBecause: 'wait-too-long' });
    expect((failure as ApiError).message).toContain(
      'the service asked to wait 10m, longer than the 2m the client waits at most, so it was not sent again',
    );
    expect(service.calls()).toHaveLength(1);
  });

  it('stops waiting promptly when the caller aborts', async () => {
    const service = mockService([{ status: 429, headers: { 'retry-after': '10' } }, { status: 201 }]);
    const controller = new AbortController();
    const why = new Error('the run was cancelled');
    setTimeout(() => controller.abort(why), 50);
    const started = performance.now();
    const failure = await transport(service.agent)
      .send({ ...runSuite, signal: controller.signal })
      .catch((error: unknown) => error);
    // Far from the 10 s the service asked to wait, whatever a loaded machine's delays.
    expect(performance.now() - started).toBeLessThan(2000);
    expect(failure).toBeInstanceOf(TransportError);
    expect(failure).toMatchObject({ kind: 'aborted', mayHaveBeenProcessed: false });
    expect((failure as TransportError).cause).toBe(why);
    expect(service.calls()).toHaveLength(1);
  });
});

describe('a request that creates or starts something', () => {
  it('is sent once when the connection is cut after sending, and says what may have happened', async () => {
    const service = mockService([{ error: cutConnection() }, { status: 201 }]);
    const failure = await transport(service.agent)
      .send(runSuite)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect(failure).toMatchObject({ kind: 'network', code: 'UND_ERR_SOCKET', mayHaveBeenProcessed: true });
    expect((failure as TransportError).message).toBe(
      'runSuite: the connection was cut after the request was sent (UND_ERR_SOCKET: other side closed); the service may have carried it out, so it was not sent again (POST /v1/ai-authoring/testsuites/s1/run)',
    );
    expect(service.calls()).toHaveLength(1);
  });

  it('counts a refused certificate as a failure to connect: nothing was sent', async () => {
    const refused = Object.assign(new Error('self-signed certificate in certificate chain'), {
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
    });
    const service = mockService([{ error: refused }]);
    const failure = await transport(service.agent, { retries: 0 })
      .send(runSuite)
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: 'connect', mayHaveBeenProcessed: false });
    expect((failure as TransportError).message).toBe(
      'runSuite: SELF_SIGNED_CERT_IN_CHAIN: self-signed certificate in certificate chain (POST /v1/ai-authoring/testsuites/s1/run)',
    );
  });

  it('is sent once when the service answers 503', async () => {
    const service = mockService([
      { status: 503, body: { message: 'upstream unavailable' } },
      { status: 201 },
    ]);
    const failure = await transport(service.agent)
      .send(runSuite)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 503, mayHaveBeenProcessed: true, attempts: 1 });
    expect((failure as ApiError).message).toBe(
      'runSuite: 503 upstream unavailable; the service may have carried it out, so it was not sent again (POST /v1/ai-authoring/testsuites/s1/run)',
    );
    expect(service.calls()).toHaveLength(1);
  });

  it('is sent once when no answer comes in time', async () => {
    const agent = new MockAgent({ enableCallHistory: true });
    agent.disableNetConnect();
    agents.push(agent);
    agent.get(ORIGIN).intercept({ path: runSuite.path, method: 'POST' }).reply(201, {}).delay(500);
    const failure = await transport(agent)
      .send({ ...runSuite, timeouts: { headersMs: 40 } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect(failure).toMatchObject({ kind: 'timeout', mayHaveBeenProcessed: true });
    expect((failure as TransportError).message).toContain('no answer came after the request was sent');
    expect(agent.getCallHistory()?.calls()).toHaveLength(1);
  });
});

describe('a request that is safe to repeat', () => {
  it('is sent again after a 503', async () => {
    const service = mockService([{ status: 503 }, { status: 200, body: { data: { id: 's1' } } }]);
    const answer = await transport(service.agent).send(getSuite);
    expect(answer.body).toEqual({ data: { id: 's1' } });
    expect(service.received.map((request) => request.method)).toEqual(['GET', 'GET']);
  });

  it('is sent again after a cut connection, and its failure says nothing was left undone', async () => {
    const service = mockService([{ error: cutConnection() }, { status: 200, body: { data: { id: 's1' } } }]);
    const answer = await transport(service.agent).send(getSuite);
    expect(answer.body).toEqual({ data: { id: 's1' } });
    expect(service.calls()).toHaveLength(2);

    const cut = mockService([{ error: cutConnection() }, { error: cutConnection() }]);
    const failure = await transport(cut.agent, { retries: 1 })
      .send(getSuite)
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: 'network', mayHaveBeenProcessed: false });
    expect(cut.calls()).toHaveLength(2);
  });
});
