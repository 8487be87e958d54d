import { afterEach, describe, expect, it, vi } from 'vitest';
import { graceAfter, withDeadline } from '../../src/step/cancellation.ts';
import { abortReasonOf, CancelledError, describeFailure, StepTimeoutError } from '../../src/step/failure.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('withDeadline', () => {
  it('aborts with a timeout reason at the deadline, naming the input', async () => {
    vi.useFakeTimers();
    const cancel = new AbortController();
    const deadline = withDeadline(cancel.signal, 1000);
    try {
      await vi.advanceTimersByTimeAsync(999);
      expect(deadline.signal.aborted).toBe(false);
      expect(abortReasonOf(deadline.signal)).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(abortReasonOf(deadline.signal)).toBe('timeout');
      expect(deadline.signal.reason).toBeInstanceOf(StepTimeoutError);
      expect((deadline.signal.reason as Error).message).toBe('the `timeout` of 1s passed');
      const failure = describeFailure(deadline.signal.reason, deadline.signal);
      expect(failure.kind).toBe('timeout');
      expect(failure.message).toContain('Raise `timeout`');
    } finally {
      deadline.dispose();
    }
  });

  it('aborts with the host reason when the run is cancelled, and keeps the first reason', async () => {
    vi.useFakeTimers();
    const cancel = new AbortController();
    const deadline = withDeadline(cancel.signal, 10, 'max-wait');
    cancel.abort(new CancelledError('the run was cancelled (SIGINT)'));
    expect(abortReasonOf(deadline.signal)).toBe('cancelled');
    await vi.advanceTimersByTimeAsync(100);
    expect(abortReasonOf(deadline.signal)).toBe('cancelled');
    expect(describeFailure(deadline.signal.reason, deadline.signal).message).toBe(
      'Cancelled: the run was cancelled (SIGINT).',
    );
    deadline.dispose();
  });

  it('is aborted at once when the host signal already is', () => {
    const cancel = new AbortController();
    cancel.abort(new CancelledError());
    const deadline = withDeadline(cancel.signal, 60_000);
    expect(abortReasonOf(deadline.signal)).toBe('cancelled');
    deadline.dispose();
  });

  it('dispose clears the timer and the listener, and can be called twice', async () => {
    vi.useFakeTimers();
    const cancel = new AbortController();
    const deadline = withDeadline(cancel.signal, 10);
    deadline.dispose();
    deadline.dispose();
    await vi.advanceTimersByTimeAsync(100);
    cancel.abort();
    expect(deadline.signal.aborted).toBe(false);
  });

  it('has no deadline when the timeout is 0, and arms a long one in turns', async () => {
    vi.useFakeTimers();
    const none = withDeadline(new AbortController().signal, 0);
    await vi.advanceTimersByTimeAsync(1e9);
    expect(none.signal.aborted).toBe(false);
    none.dispose();
    // Longer than one Node timer can hold (about 24.8 days): it must not fire early.
    const long = withDeadline(new AbortController().signal, 30 * 86_400_000);
    await vi.advanceTimersByTimeAsync(25 * 86_400_000);
    expect(long.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(5 * 86_400_000);
    expect(abortReasonOf(long.signal)).toBe('timeout');
    long.dispose();
  });
});

describe('graceAfter', () => {
  it('aborts a grace period after the signal does, with its reason', async () => {
    vi.useFakeTimers();
    const cancel = new AbortController();
    const grace = graceAfter(cancel.signal, 2000);
    try {
      await vi.advanceTimersByTimeAsync(5000);
      expect(grace.signal.aborted).toBe(false);
      const reason = new CancelledError('the run was cancelled (SIGINT)');
      cancel.abort(reason);
      await vi.advanceTimersByTimeAsync(1999);
      expect(grace.signal.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(grace.signal.reason).toBe(reason);
    } finally {
      grace.dispose();
    }
  });

  it('starts counting at once when the signal has already aborted, and dispose clears it', async () => {
    vi.useFakeTimers();
    const cancel = new AbortController();
    cancel.abort(new CancelledError());
    const grace = graceAfter(cancel.signal, 100);
    grace.dispose();
    await vi.advanceTimersByTimeAsync(200);
    expect(grace.signal.aborted).toBe(false);
    const second = graceAfter(cancel.signal, 100);
    await vi.advanceTimersByTimeAsync(100);
    expect(abortReasonOf(second.signal)).toBe('cancelled');
    second.dispose();
  });
});

describe('a step deadline seen by the client', () => {
  it('makes a 429 that asks for a wait past the deadline fail at once, as rate limited', async () => {
    const { MockAgent } = await import('undici');
    const { SauceClient } = await import('@sauce-actions/api');
    const agent = new MockAgent({ enableCallHistory: true });
    agent.disableNetConnect();
    agent
      .get('https://api.us-west-1.saucelabs.com')
      .intercept({ path: () => true, method: 'POST' })
      .reply(429, { message: 'slow down' }, { headers: { 'retry-after': '60' } });
    const client = new SauceClient({ username: 'alice', accessKey: 'secret-access-key', dispatcher: agent });
    const deadline = withDeadline(new AbortController().signal, 5_000);
    const started = performance.now();
    try {
      const error = await client.authoring.testSuites
        .run('s1', {}, { signal: deadline.signal })
        .catch((failure: unknown) => failure);
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(agent.getCallHistory()?.calls()).toHaveLength(1);
      const failure = describeFailure(error, deadline.signal);
      expect(failure.kind).toBe('rate-limited');
      expect(failure.message).toMatch(/1m/);
    } finally {
      deadline.dispose();
      await client.close();
      await agent.close();
    }
  });
});
