import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { SauceClient, TransportError } from '../../src/index.ts';
import { BasicCredentials, BearerCredentials } from '../../src/core/values/credentials.ts';
import { accountKey, lowWater, RatePacer, rateWindowOf } from '../../src/core/timing/pacing.ts';

const T0 = Date.parse('2026-05-01T12:00:00.000Z');
const ORIGIN = 'https://api.us-west-1.saucelabs.com';
const MOBILE_ORIGIN = 'https://mobile.saucelabs.com';

/** Rate headers as the emulator sends them: the reset in seconds from now. */
function rate(limit: number, remaining: number, resetSeconds: number): Record<string, string> {
  return {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(resetSeconds),
  };
}

describe('rate headers', () => {
  it('reads the reset as seconds from now, or as a Unix time when it is one', () => {
    expect(rateWindowOf(rate(10, 4, 1), T0)).toEqual({
      limit: 10,
      remaining: 4,
      resetAt: T0 + 1000,
      resetInMs: 1000,
    });
    expect(rateWindowOf(rate(10, 4, 0.25), T0)?.resetInMs).toBe(250);
    expect(rateWindowOf(rate(3500, 12, T0 / 1000 + 600), 5000, T0)).toMatchObject({
      // The window lives on the clock of `now` (the monotonic one), its reset on the wall clock's.
      resetAt: 5000 + 600_000,
      resetInMs: 600_000,
    });
  });

  it('reads nothing unless all three headers are there and make sense', () => {
    expect(rateWindowOf({}, T0)).toBeUndefined();
    expect(rateWindowOf({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '3' }, T0)).toBeUndefined();
    expect(rateWindowOf({ ...rate(10, 3, 1), 'x-ratelimit-limit': '0' }, T0)).toBeUndefined();
    expect(rateWindowOf({ ...rate(10, 3, 1), 'x-ratelimit-remaining': 'many' }, T0)).toBeUndefined();
    expect(rateWindowOf({ ...rate(10, 3, 1), 'x-ratelimit-reset': '' }, T0)).toBeUndefined();
  });

  it('counts a window low from a quarter of the limit, at least two, always below the limit', () => {
    expect([1, 2, 3, 4, 10, 12, 100, 3500].map(lowWater)).toEqual([0, 1, 2, 2, 2, 3, 25, 875]);
  });

  it('keeps one window per account and origin, never a secret', () => {
    const alice = new BasicCredentials('alice', 'secret-one');
    expect(accountKey(ORIGIN, alice)).toBe(accountKey(ORIGIN, new BasicCredentials('alice', 'other')));
    expect(accountKey(ORIGIN, alice)).not.toBe(accountKey(ORIGIN, new BasicCredentials('bob', 'secret-one')));
    expect(accountKey(ORIGIN, alice)).not.toBe(accountKey(MOBILE_ORIGIN, alice));
    const token = new BearerCredentials('secret-token', 'config');
    expect(accountKey(MOBILE_ORIGIN, token)).toBe(accountKey(MOBILE_ORIGIN, token));
    expect(accountKey(MOBILE_ORIGIN, token)).not.toContain('secret-token');
    expect(accountKey(MOBILE_ORIGIN, token)).not.toBe(
      accountKey(MOBILE_ORIGIN, new BearerCredentials('secret-token-2', 'config')),
    );
  });
});

describe('RatePacer', () => {
  const half = () => 0.5;
  const none = () => 0;
  /** The end of the window the tests' answers speak of. */
  const END = T0 + 1000;
  const answer = (pacer: RatePacer, at: number, limit: number, remaining: number, status = 200) =>
    pacer.observe('k', status, rate(limit, remaining, (END - at) / 1000), { now: at, random: half });

  it('never delays an account it has no rate headers for', () => {
    const pacer = new RatePacer();
    expect(pacer.observe('k', 200, {}, { now: T0 })).toBeUndefined();
    for (let index = 0; index < 50; index++) expect(pacer.schedule('k', { now: T0 }).delayMs).toBe(0);
    expect(pacer.windowOf('k')).toBeUndefined();
  });

  it('counts its own requests sent in parallel before any rate header as its own, not as contention', () => {
    const pacer = new RatePacer();
    // Eight requests at once (stopping eight jobs), before the first answer tells of the window.
    for (let index = 0; index < 8; index++) expect(pacer.schedule('k', { now: T0 }).delayMs).toBe(0);
    // The account spent eight of ten: all of them this client's.
    answer(pacer, T0 + 50, 10, 2);
    expect(pacer.windowOf('k')?.gapMs).toBe(0);
  });

  it('alone, sends at once while the budget is ample, then spreads the last of it until the reset', () => {
    const pacer = new RatePacer();
    // Met a window earlier, so the first-window rule below does not apply.
    pacer.observe('k', 200, rate(10, 9, 1), { now: T0 - 1500 });
    const delays: number[] = [];
    let at = T0;
    for (let remaining = 9; remaining >= 1; remaining--) {
      const delay = pacer.schedule('k', { now: at, random: half }).delayMs;
      delays.push(delay);
      at += delay;
      expect(answer(pacer, at, 10, remaining)).toEqual({ limited: false, low: remaining <= 2 });
    }
    delays.push(pacer.schedule('k', { now: at, random: half }).delayMs);
    // Two left (the low mark of 10): half way to the reset, then the last one at it.
    expect(delays).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 500, 500]);
    expect(pacer.windowOf('k')?.gapMs).toBe(0);
  });

  it('spreads the first short window it sees, leaving room for others starting at the same time', () => {
    const pacer = new RatePacer();
    pacer.observe('k', 200, rate(4, 3, 1), { now: T0 });
    // 3 left, 2 of them the low mark: the one above it goes at the reset.
    expect(pacer.schedule('k', { now: T0 }).delayMs).toBe(1000);
    // With a larger limit it hardly shows: 9 left, 7 above the low mark, over one second.
    const larger = new RatePacer();
    larger.observe('k', 200, rate(10, 9, 1), { now: T0 });
    expect(larger.schedule('k', { now: T0 }).delayMs).toBe(143);
    // A long window is not spread: its budget has room for clients starting together.
    const hourly = new RatePacer();
    hourly.observe('k', 200, rate(3500, 3499, 3600), { now: T0 });
    expect(hourly.schedule('k', { now: T0 }).delayMs).toBe(0);
  });

  it('spaces its requests once others spend the same window', () => {
    const pacer = new RatePacer();
    // One request of this client, yet the window is half spent: others share the account.
    expect(answer(pacer, T0, 4, 2)).toEqual({ limited: false, low: true });
    // Sixteen fair spacings (16 × 1000 ms / 4), jittered around the mean.
    expect(pacer.windowOf('k')?.gapMs).toBe(4000);
    expect(pacer.schedule('k', { now: T0, random: half }).delayMs).toBe(4000);
    expect(pacer.schedule('k', { now: T0 + 4000, random: none }).delayMs).toBe(2000);
  });

  it('after a 429, waits for the reset and a random part of its spacing', () => {
    const pacer = new RatePacer();
    expect(pacer.observe('k', 429, rate(4, 0, 1), { now: T0, random: none })).toEqual({
      limited: true,
      low: true,
    });
    expect(pacer.windowOf('k')).toEqual({ limit: 4, remaining: 0, resetAt: END, gapMs: 4000 });
    // The turn after the reset (random 0: at it) is within the spacing from the refused request.
    expect(pacer.schedule('k', { now: T0 + 1000, random: none }).delayMs).toBe(1000);

    const other = new RatePacer();
    other.observe('k', 429, rate(4, 0, 1), { now: T0, random: () => 0.9 });
    expect(other.schedule('k', { now: T0, random: none }).delayMs).toBe(1000 + 3600);
  });

  it('grows the spacing once a window while contention lasts, and shrinks it once it is over', () => {
    const pacer = new RatePacer();
    const gap = () => pacer.windowOf('k')?.gapMs;
    const observe = (at: number, remaining: number, status = 200) =>
      pacer.observe('k', status, rate(4, remaining, 1), { now: T0 + at, random: half });
    observe(0, 0, 429);
    expect(gap()).toBe(4000);
    // The same window (it ends 1 s after the 429): no second growth.
    observe(500, 0, 429);
    expect(gap()).toBe(4000);
    observe(1500, 1);
    expect(gap()).toBe(6000);
    // The bound: 24 fair spacings.
    observe(3000, 0, 429);
    expect(gap()).toBe(6000);
    // Ample, but contention was seen less than a spacing ago: it stays.
    observe(8000, 3);
    expect(gap()).toBe(6000);
    // A whole spacing without contention and half the budget left: three quarters of it.
    observe(9001, 3);
    expect(gap()).toBe(4500);
    // And so on with each such answer, until it is under the fair spacing, and gone.
    observe(9002, 3);
    expect(gap()).toBe(3375);
    for (let at = 9003; at < 9020; at++) observe(at, 3);
    expect(gap()).toBe(0);
  });

  it('does not start a wait past the latest start it is given', () => {
    const pacer = new RatePacer();
    pacer.observe('k', 429, rate(10, 0, 30), { now: T0, random: none });
    expect(pacer.schedule('k', { now: T0, random: none, latestStart: T0 + 5000 }).delayMs).toBe(0);
    expect(pacer.schedule('k', { now: T0, random: none, latestStart: T0 + 60_000 }).delayMs).toBe(30_000);
  });

  it('forgets a window not heard of for long', () => {
    const pacer = new RatePacer();
    pacer.observe('k', 200, rate(10, 1, 1), { now: T0, random: none });
    expect(pacer.schedule('k', { now: T0 + 60_000 }).delayMs).toBe(0);
    expect(pacer.windowOf('k')).toBeUndefined();
  });

  it('keeps the windows of accounts apart', () => {
    const pacer = new RatePacer();
    pacer.observe('a', 429, rate(10, 0, 1), { now: T0, random: none });
    expect(pacer.schedule('b', { now: T0 }).delayMs).toBe(0);
    expect(pacer.schedule('a', { now: T0, random: none }).delayMs).toBeGreaterThanOrEqual(1000);
  });
});

describe('pacing in the client', () => {
  const agents: MockAgent[] = [];
  const clients: SauceClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await Promise.all(agents.splice(0).map((agent) => agent.close()));
  });

  /** A client on a MockAgent answering every GET of `origin` with `headers`, and its debug lines. */
  function setup(
    answers: { origin: string; headers: () => Record<string, string> }[],
    options: { pacing?: boolean } = {},
  ) {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agents.push(agent);
    for (const { origin, headers } of answers) {
      agent
        .get(origin)
        .intercept({ path: () => true, method: 'GET' })
        .reply(() => ({
          statusCode: 200,
          data: '[]',
          responseOptions: { headers: { 'content-type': 'application/json', ...headers() } },
        }))
        .persist();
    }
    const debug: string[] = [];
    const client = new SauceClient({
      username: 'alice',
      accessKey: 'secret-access-key',
      email: 'alice@example.com',
      apiKey: 'secret-api-key',
      dispatcher: agent,
      retry: {
        retries: 0,
        random: () => 0,
        ...(options.pacing !== undefined ? { pacing: options.pacing } : {}),
      },
      logger: { debug: (message) => debug.push(message), warn: () => {} },
    });
    clients.push(client);
    return { client, debug };
  }

  it('sends at once, paced never, when answers carry no rate headers', async () => {
    const { client, debug } = setup([{ origin: ORIGIN, headers: () => ({}) }]);
    for (let index = 0; index < 30; index++) await client.automation.jobs.list();
    expect(debug.filter((line) => line.includes('paced'))).toEqual([]);
  });

  it('holds the next request until the reset when the window is spent, across the interfaces of one account', async () => {
    let remaining = 2;
    const { client, debug } = setup([
      { origin: ORIGIN, headers: () => rate(3, Math.max(0, remaining--), 0.3) },
      { origin: MOBILE_ORIGIN, headers: () => ({}) },
    ]);
    await client.automation.jobs.list();
    await client.automation.jobs.list();
    await client.automation.jobs.list();
    // Automation spent the account's window: authoring, on the same origin and account, waits (as
    // its line says: how long depends on how fast the machine got there, not what is checked).
    await client.authoring.testSuites.list().catch(() => undefined);
    expect(debug.some((line) => /^listTestSuites: paced \d+ ms \(0 request\(s\) left/.test(line))).toBe(true);
    // Mobile distribution is another origin and account: not held.
    const before = debug.length;
    await client.mobile.projects.list().catch(() => undefined);
    expect(debug.slice(before).filter((line) => line.includes('paced'))).toEqual([]);
  });

  it('sends at once with pacing off, whatever the headers say', async () => {
    const { client, debug } = setup([{ origin: ORIGIN, headers: () => rate(3, 0, 0.5) }], { pacing: false });
    for (let index = 0; index < 5; index++) await client.automation.jobs.list();
    expect(debug.filter((line) => line.includes('paced'))).toEqual([]);
  });

  it('stops a pacing wait when the call is aborted', async () => {
    const { client } = setup([{ origin: ORIGIN, headers: () => rate(3, 0, 30) }]);
    await client.automation.jobs.list();
    const controller = new AbortController();
    // The window resets in 30 s: only the abort can end the wait with a failure.
    setTimeout(() => controller.abort(new Error('cancelled')), 100);
    const failure = await client.automation.jobs
      .list({}, { signal: controller.signal })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).kind).toBe('aborted');
  });

  it('does not start a pacing wait that would end after the call’s deadline', async () => {
    const { client, debug } = setup([{ origin: ORIGIN, headers: () => rate(3, 0, 30) }]);
    await client.automation.jobs.list();
    await client.automation.jobs.list({}, { deadline: performance.now() + 2000 });
    expect(debug.filter((line) => line.includes('paced'))).toEqual([]);
  });
});
