import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { poll, PollTimeoutError } from '../../src/index.ts';

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
});
