import { describe, expect, it } from 'vitest';
import { basic, DEMO_USER, withEmulator } from '../support/emulator.ts';
import { call } from '../support/http.ts';

describe('--rate-limit', () => {
  const handle = withEmulator({ rateLimit: 3 });

  it('answers 429 with Retry-After and rate headers once an account spends its second', async () => {
    const url = `${handle.url}/rest/v1/users/${DEMO_USER}`;
    const answers = [];
    for (let index = 0; index < 4; index++) answers.push(await call(url));
    expect(answers.slice(0, 3).map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers[0]!.headers.get('x-ratelimit-limit')).toBe('3');
    expect(answers[0]!.headers.get('x-ratelimit-remaining')).toBe('2');
    expect(Number(answers[0]!.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(
      Math.floor(Date.now() / 1000),
    );
    const refused = answers[3]!;
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    // Another account has its own budget; admin endpoints are never limited.
    expect((await call(`${handle.url}/rest/v1/info/status`, { auth: basic('someone', 'k') })).status).toBe(
      200,
    );
    expect((await call(`${handle.url}/_emulator/health`, { auth: null })).status).toBe(200);
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
