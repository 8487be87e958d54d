import { describe, expect, it } from 'vitest';
import { basic, DEMO_USER, withEmulator } from '../support/emulator.ts';
import { call, type RawAnswer } from '../support/http.ts';

const MOBILE = basic('demo@example.com', 'demo-api-key');

/** The three rate headers of an answer, as numbers. */
function rateOf(answer: RawAnswer): { limit: number; remaining: number; reset: number } {
  return {
    limit: Number(answer.headers.get('x-ratelimit-limit')),
    remaining: Number(answer.headers.get('x-ratelimit-remaining')),
    reset: Number(answer.headers.get('x-ratelimit-reset')),
  };
}

describe('--rate-limit', () => {
  const handle = withEmulator({ rateLimit: 3 });

  it('answers 429 with Retry-After and rate headers once an account spends its second', async () => {
    const url = `${handle.url}/rest/v1/users/${DEMO_USER}`;
    const answers = [];
    for (let index = 0; index < 4; index++) answers.push(await call(url));
    expect(answers.slice(0, 3).map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers[0]!.headers.get('x-ratelimit-limit')).toBe('3');
    expect(answers[0]!.headers.get('x-ratelimit-remaining')).toBe('2');
    // Seconds until the window ends, rounded up: a window of one second always says 1.
    expect(answers[0]!.headers.get('x-ratelimit-reset')).toBe('1');
    const refused = answers[3]!;
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-reset')).toBe('1');
    // Another account has its own budget; admin endpoints are never limited.
    expect((await call(`${handle.url}/rest/v1/info/status`, { auth: basic('someone', 'k') })).status).toBe(
      200,
    );
    expect((await call(`${handle.url}/_emulator/health`, { auth: null })).status).toBe(200);
  });
});

describe('--rate-limit on every interface', () => {
  const handle = withEmulator({ rateLimit: 50 });

  it('sends the rate headers with every answer: each interface, refusals, unknown routes and injected faults', async () => {
    const fault = await call(`${handle.url}/_emulator/faults`, {
      method: 'POST',
      auth: null,
      json: { path: '/rest/v1/demo/tunnels', status: 503 },
    });
    expect(fault.status).toBe(201);
    const answers = [
      await call(`${handle.url}/rest/v1/${DEMO_USER}/jobs`),
      await call(`${handle.url}/rest/v1.1/${DEMO_USER}/jobs`),
      await call(`${handle.url}/v1/ai-authoring/testsuites`),
      await call(`${handle.url}/rest/v1/${DEMO_USER}/jobs`, { auth: basic(DEMO_USER, 'wrong-key') }),
      await call(`${handle.url}/v1/ai-authoring/no-such-route`),
      await call(`${handle.url}/rest/v1/${DEMO_USER}/tunnels`),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 401, 404, 503]);
    // One account, whatever the interface: the budget goes down by one with each answer.
    expect(answers.map((answer) => rateOf(answer))).toEqual(
      [49, 48, 47, 46, 45, 44].map((remaining) => ({ limit: 50, remaining, reset: 1 })),
    );

    const mobile = [
      await call(`${handle.url}/api/2/projects/`, { auth: MOBILE }),
      await call(`${handle.url}/api/1/testers`, { auth: MOBILE }),
    ];
    expect(mobile.map((answer) => answer.status)).toEqual([200, 200]);
    // The mobile account is another account, with a budget of its own.
    expect(mobile.map((answer) => rateOf(answer).remaining)).toEqual([49, 48]);
    expect(rateOf(mobile[0]!).limit).toBe(50);
  });

  it('leaves the admin endpoints and the dashboard pages out', async () => {
    for (const path of ['/_emulator/health', '/_emulator/requests', '/tests/unknown-job']) {
      const answer = await call(`${handle.url}${path}`, { auth: null });
      expect(answer.headers.get('x-ratelimit-limit'), path).toBeNull();
    }
    // None of them spent the account's budget, nor the unauthenticated caller's.
    expect(rateOf(await call(`${handle.url}/rest/v1/info/status`, { auth: null })).remaining).toBe(49);
  });
});

describe('--rate-limit windows', () => {
  let nowMs = Date.parse('2026-05-01T12:00:00.250Z');
  const handle = withEmulator({ rateLimit: 2, clock: () => nowMs });

  it('opens a new window one second after the first request of the last, with the whole budget', async () => {
    const url = `${handle.url}/rest/v1/${DEMO_USER}/jobs`;
    expect(rateOf(await call(url))).toEqual({ limit: 2, remaining: 1, reset: 1 });
    nowMs += 600;
    expect(rateOf(await call(url)).remaining).toBe(0);
    nowMs += 300;
    const refused = await call(url);
    expect(refused.status).toBe(429);
    // 100 ms left: both round up to a whole second.
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(rateOf(refused)).toEqual({ limit: 2, remaining: 0, reset: 1 });
    nowMs += 100;
    const next = await call(url);
    expect(next.status).toBe(200);
    expect(rateOf(next)).toEqual({ limit: 2, remaining: 1, reset: 1 });
    // Only the answers the limit refused are 429s in the journal.
    const journal = (await call(`${handle.url}/_emulator/requests`, { auth: null })).json as {
      requests: { status: number }[];
    };
    expect(journal.requests.map((entry) => entry.status)).toEqual([200, 200, 429, 200]);
  });
});

describe('without --rate-limit', () => {
  const handle = withEmulator();

  it('sends no rate headers and never refuses', async () => {
    for (let index = 0; index < 5; index++) {
      const answer = await call(`${handle.url}/rest/v1/info/status`, { auth: null });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });
});
