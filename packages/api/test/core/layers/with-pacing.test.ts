/**
 * The pacing layer on scripted attempts: the wait the account's window asks before an attempt,
 * bounded by the call's deadline, skipped once after a 429's wait took it, and the window learnt
 * from each answer's headers as they come.
 */
import { describe, expect, it } from 'vitest';
import { sendAttempt, settle } from '../../../src/core/layers/layer.ts';
import { transportLayers } from '../../../src/core/layers/stack.ts';
import { withPacing } from '../../../src/core/layers/with-pacing.ts';
import { RatePacer } from '../../../src/core/timing/pacing.ts';
import { answered, callOf, policyOf, recordingLogger, refused, script } from './calls.ts';

/** Rate headers: `remaining` of `limit` left, the window resetting in `resetSeconds`. */
function rate(limit: number, remaining: number, resetSeconds: number): Record<string, string> {
  return {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(resetSeconds),
  };
}

const PACED = /^probe: paced (\d+) ms \(1 request\(s\) left in the rate window, which resets in \d+ ms\)$/;

describe('the wait before an attempt', () => {
  it.each<{
    name: string;
    /** The window the account's last answer told, if any. */
    window?: Record<string, string>;
    pacedAhead?: boolean;
    deadlineInMs?: number;
    paced: boolean;
  }>([
    { name: 'no window known: sent at once', paced: false },
    // One of two left in the first window seen: this client's turn is after the reset.
    { name: 'few left: waits for the reset', window: rate(2, 1, 0.05), paced: true },
    { name: 'few left, already paced after a 429', window: rate(2, 1, 0.05), pacedAhead: true, paced: false },
    {
      name: 'few left, the deadline sooner: sent at once',
      window: rate(2, 1, 0.05),
      deadlineInMs: 20,
      paced: false,
    },
    { name: 'plenty left in a long window: sent at once', window: rate(100, 99, 60), paced: false },
  ])('$name', async ({ window, pacedAhead, deadlineInMs, paced }) => {
    const policy = policyOf({ random: () => 0 });
    const logger = recordingLogger();
    const pacer = new RatePacer();
    const attempts = script([answered()]);
    const call = callOf(deadlineInMs !== undefined ? { deadline: performance.now() + deadlineInMs } : {});
    if (window) pacer.observe(call.rateKey, 200, window, { random: policy.random });
    call.pacedAhead = pacedAhead ?? false;
    const started = performance.now();
    await withPacing(pacer, policy, logger)(sendAttempt(attempts.transmit, logger))(call, () => {});
    const waitedMs = performance.now() - started;
    expect(call.pacedAhead).toBe(false);
    expect(attempts.sent()).toBe(1);
    const told = logger.debugs.filter((line) => line.includes('paced'));
    if (paced) {
      expect(told).toEqual([expect.stringMatching(PACED)]);
      const toldMs = Number(PACED.exec(told[0] ?? '')?.[1]);
      expect(toldMs).toBeGreaterThan(0);
      expect(waitedMs).toBeGreaterThanOrEqual(toldMs - 5);
    } else {
      expect(told).toEqual([]);
      expect(waitedMs).toBeLessThan(20);
    }
  });

  it("learns the account's window from each answer's headers, before its body is read", async () => {
    const policy = policyOf();
    const pacer = new RatePacer();
    const call = callOf();
    const attempts = script([answered({ ok: true }, rate(50, 42, 30))]);
    const seen: number[] = [];
    await withPacing(pacer, policy, recordingLogger())(sendAttempt(attempts.transmit, recordingLogger()))(
      call,
      (status) => {
        // The window is known when the outer layers hear of the answer.
        seen.push(status, pacer.windowOf(call.rateKey)?.remaining ?? -1);
      },
    );
    expect(seen).toEqual([200, 42]);
    expect(pacer.windowOf(call.rateKey)).toMatchObject({ limit: 50, remaining: 42 });
  });

  it('after a 429, waits once: the retry is paced with the wait for it, and told so', async () => {
    const policy = policyOf({ random: () => 0 });
    const logger = recordingLogger();
    const pacer = new RatePacer();
    const call = callOf();
    const attempts = script([refused(429, 1), answered()]);
    // The first short window seen: what is above its low mark is spread until its reset, which
    // comes long after the retry however slow the machine.
    pacer.observe(call.rateKey, 200, rate(10, 9, 3), { random: policy.random });
    const send = transportLayers({ policy, logger, pacer, transmit: attempts.transmit });
    const answer = settle(call, await send(call, () => {}));
    expect(answer.body).toEqual({ ok: true });
    expect(attempts.sent()).toBe(2);
    // The first attempt was paced; the retry only by the 429's wait, which told the whole of it.
    expect(logger.debugs.filter((line) => line.includes('paced'))).toHaveLength(1);
    expect(logger.warnings).toEqual([
      expect.stringMatching(
        /^probe: 429 Too Many Requests; retrying in \d+ ms, the 1 ms the service asked and a share of the account's rate \(retry 1 of 3 for the rate limit\)$/,
      ),
    ]);
  });
});
