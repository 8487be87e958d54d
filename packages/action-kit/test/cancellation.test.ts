import { afterEach, describe, expect, it, vi } from 'vitest';
import { startCancellation } from '../src/cancellation.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('startCancellation', () => {
  it('aborts with reason timeout at the deadline', async () => {
    vi.useFakeTimers();
    const onAbort = vi.fn();
    const cancellation = startCancellation({ timeoutMs: 1000, onAbort });
    try {
      await vi.advanceTimersByTimeAsync(999);
      expect(cancellation.signal.aborted).toBe(false);
      expect(cancellation.reason()).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(cancellation.signal.aborted).toBe(true);
      expect(cancellation.reason()).toBe('timeout');
      expect((cancellation.signal.reason as Error).name).toBe('TimeoutError');
      expect(onAbort).toHaveBeenCalledExactlyOnceWith('timeout');
    } finally {
      cancellation.dispose();
    }
  });

  it('aborts with reason cancelled on SIGINT and on SIGTERM, and keeps the first reason', () => {
    for (const name of ['SIGINT', 'SIGTERM'] as const) {
      const before = process.listenerCount(name);
      const cancellation = startCancellation({ timeoutMs: 60_000 });
      try {
        expect(process.listenerCount(name)).toBe(before + 1);
        process.emit(name, name);
        expect(cancellation.signal.aborted).toBe(true);
        expect(cancellation.reason()).toBe('cancelled');
        expect((cancellation.signal.reason as Error).name).toBe('AbortError');
      } finally {
        cancellation.dispose();
      }
      expect(process.listenerCount(name)).toBe(before);
    }
  });

  it('a signal after the deadline does not change the reason', async () => {
    vi.useFakeTimers();
    const cancellation = startCancellation({ timeoutMs: 10, signals: ['SIGUSR2'] });
    try {
      await vi.advanceTimersByTimeAsync(10);
      process.emit('SIGUSR2', 'SIGUSR2');
      expect(cancellation.reason()).toBe('timeout');
    } finally {
      cancellation.dispose();
    }
  });

  it('dispose clears the timer and the listeners, and can be called twice', async () => {
    vi.useFakeTimers();
    const before = process.listenerCount('SIGINT');
    const cancellation = startCancellation({ timeoutMs: 10 });
    cancellation.dispose();
    cancellation.dispose();
    expect(process.listenerCount('SIGINT')).toBe(before);
    await vi.advanceTimersByTimeAsync(100);
    expect(cancellation.signal.aborted).toBe(false);
  });

  it('no deadline when the timeout is 0', async () => {
    vi.useFakeTimers();
    const cancellation = startCancellation({ timeoutMs: 0, signals: [] });
    await vi.advanceTimersByTimeAsync(1e9);
    expect(cancellation.signal.aborted).toBe(false);
    cancellation.dispose();
  });
});
