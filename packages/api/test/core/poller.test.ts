import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { poll, PollTimeoutError } from '../../src/index.ts';
import { RatePacer } from '../../src/core/timing/pacing.ts';

/** A check that answers the given values in turn (the last one repeats), recording when it ran. */
function sequence<T>(values: T[]) {
  const times: number[] = [];
  let index = 0;
  const check = async () => {
    times.push(Date.now());
    return values[Math.min(index++, values.length - 1)] as T;
  };
  return { check, times };
}

const gaps = (times: number[]) => times.slice(1).map((time, index) => time - times[index]!);

describe('poll', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('returns at once when the first check is done, without waiting', async () => {
    const { check, times } = sequence(['done']);
    expect(await poll(check, (value) => value === 'done', { intervalMs: 1000, timeoutMs: 5000 })).toBe(
      'done',
    );
    expect(times).toEqual([0]);
  });

  it('checks at the interval until done', async () => {
    const { check, times } = sequence([1, 2, 3]);
    const result = poll(check, (value) => value === 3, { intervalMs: 100, timeoutMs: 10_000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(await result).toBe(3);
    expect(times).toEqual([0, 100, 200]);
  });

  it('grows the interval while nothing changes, up to the maximum, and resets it on a change', async () => {
    const { check, times } = sequence(['a', 'a', 'a', 'a', 'a', 'b', 'b', 'done']);
    const checks: boolean[] = [];
    const result = poll(check, (value) => value === 'done', {
      intervalMs: 100,
      timeoutMs: 60_000,
      backoffFactor: 2,
      maxIntervalMs: 500,
      hasChanged: (previous, next) => previous !== next,
      onCheck: (_value, info) => checks.push(info.changed),
    });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await result).toBe('done');
    // The wait after each check: a 100, a (no change) 200, a 400, a 500 (the cap), a 500,
    // b (a change resets it) 100, b 200, then done.
    expect(gaps(times)).toEqual([100, 200, 400, 500, 500, 100, 200]);
    expect(checks).toEqual([true, false, false, false, false, true, false, true]);
  });

  it('fails at the deadline with the last value seen, after one last check', async () => {
    const { check, times } = sequence([
      { state: 'running', n: 1 },
      { state: 'running', n: 2 },
      { state: 'queued', n: 3 },
    ]);
    const result = poll(check, (value) => value.state === 'done', { intervalMs: 400, timeoutMs: 1000 }).catch(
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(2000);
    const failure = await result;
    expect(failure).toBeInstanceOf(PollTimeoutError);
    expect((failure as PollTimeoutError<{ n: number }>).lastValue).toEqual({ state: 'queued', n: 3 });
    expect((failure as PollTimeoutError<unknown>).elapsedMs).toBe(1000);
    expect((failure as Error).message).toBe('condition not met within 1s');
    // The last wait is cut short so the last check falls on the deadline.
    expect(times).toEqual([0, 400, 800, 1000]);
  });

  it('counts a condition met at the deadline as met', async () => {
    const { check } = sequence(['no', 'yes']);
    const result = poll(check, (value) => value === 'yes', { intervalMs: 5000, timeoutMs: 100 });
    await vi.advanceTimersByTimeAsync(200);
    expect(await result).toBe('yes');
  });

  it('stops waiting as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const { check, times } = sequence(['never']);
    const result = poll(check, () => false, {
      intervalMs: 1000,
      timeoutMs: 60_000,
      signal: controller.signal,
    }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1500);
    controller.abort(new Error('cancelled'));
    await vi.advanceTimersByTimeAsync(0);
    expect(((await result) as Error).message).toBe('cancelled');
    expect(times).toEqual([0, 1000]);
  });

  it('hands the signal to each check', async () => {
    const controller = new AbortController();
    const signals: (AbortSignal | undefined)[] = [];
    await poll(
      async (signal) => {
        signals.push(signal);
        return true;
      },
      (value) => value,
      { intervalMs: 1, timeoutMs: 10, signal: controller.signal },
    );
    expect(signals).toEqual([controller.signal]);
  });

  describe('when the service signals contention', () => {
    /** What each check's request was answered: a status and the window's requests left (of 10). */
    function answered(answers: { status?: number; remaining?: number }[]) {
      const pacer = new RatePacer();
      const times: number[] = [];
      const contended: boolean[] = [];
      let index = 0;
      const check = async () => {
        times.push(Date.now());
        const answer = answers[Math.min(index++, answers.length - 1)]!;
        // What the transport does with every answer it gets during the check.
        pacer.observe('k', answer.status ?? 200, {
          ...(answer.remaining !== undefined
            ? {
                'x-ratelimit-limit': '10',
                'x-ratelimit-remaining': String(answer.remaining),
                'x-ratelimit-reset': '1',
              }
            : {}),
        });
        return index;
      };
      return { check, times, contended };
    }

    it('doubles the wait while checks meet 429s or a low window, up to the bound, and comes back down', async () => {
      const { check, times, contended } = answered([
        { status: 429 },
        { remaining: 1 },
        { remaining: 0, status: 429 },
        { remaining: 9 },
        { remaining: 9 },
        { remaining: 9 },
      ]);
      const result = poll(check, (value) => value === 6, {
        intervalMs: 100,
        timeoutMs: 60_000,
        maxContendedIntervalMs: 400,
        random: () => 0.5,
        onCheck: (_value, info) => contended.push(info.contended === true),
      });
      await vi.advanceTimersByTimeAsync(10_000);
      expect(await result).toBe(6);
      expect(contended).toEqual([true, true, true, false, false, false]);
      // 200, 400, then the bound; down by half with each check that met none, to the interval.
      expect(gaps(times)).toEqual([200, 400, 400, 200, 100]);
    });

    it('jitters a contended wait, so that processes polling one account fall out of step', async () => {
      const waits = [];
      for (const random of [0, 0.999]) {
        vi.setSystemTime(0);
        const { check, times } = answered([{ status: 429 }, { remaining: 9 }]);
        const result = poll(check, (value) => value === 2, {
          intervalMs: 1000,
          timeoutMs: 60_000,
          random: () => random,
        });
        await vi.advanceTimersByTimeAsync(10_000);
        await result;
        waits.push(gaps(times)[0]);
      }
      expect(waits).toEqual([1500, 2499]);
    });

    it('keeps the interval when answers carry ample windows, or no rate headers', async () => {
      const { check, times } = answered([{ remaining: 9 }, {}, { remaining: 8 }, {}]);
      const result = poll(check, (value) => value === 4, { intervalMs: 100, timeoutMs: 60_000 });
      await vi.advanceTimersByTimeAsync(10_000);
      await result;
      expect(gaps(times)).toEqual([100, 100, 100]);
    });

    it('does not back off when the bound is the interval itself', async () => {
      const { check, times } = answered([{ status: 429 }]);
      const result = poll(check, (value) => value === 3, {
        intervalMs: 100,
        timeoutMs: 60_000,
        maxContendedIntervalMs: 100,
      });
      await vi.advanceTimersByTimeAsync(10_000);
      await result;
      expect(gaps(times)).toEqual([100, 100]);
    });
  });
});
