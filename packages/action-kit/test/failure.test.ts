import { ApiError, TransportError } from '@sauce-actions/api';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  abortReasonOf,
  ActionError,
  CancelledError,
  clearSecrets,
  describeFailure,
  InputError,
  registerSecret,
  StepTimeoutError,
} from '../src/index.ts';

beforeEach(() => clearSecrets());

const request = { operation: 'inviteTesters', method: 'POST', url: '/api/1/x' };

describe('describeFailure', () => {
  it('tells input mistakes, refusals, rate limits and service trouble apart', () => {
    const input = describeFailure(new InputError('file', 'is required but was empty'));
    expect(input).toEqual({
      kind: 'input',
      message: 'Input "file" is required but was empty. Fix the input and run the step again.',
    });
    const refused = describeFailure(new ApiError({ ...request, status: 404 }));
    expect(refused.kind).toBe('refused');
    expect(refused.message).toContain('check the ids');
    const limited = describeFailure(new ApiError({ ...request, status: 429 }));
    expect(limited.kind).toBe('rate-limited');
    expect(limited.message).toContain('429 Too Many Requests');
    expect(limited.message).toContain('max-parallel');
    const down = describeFailure(new ApiError({ ...request, status: 503 }));
    expect(down.kind).toBe('service');
    expect(down.message).toContain('run the job again later');
    const unreachable = new TransportError({ ...request, kind: 'connect', message: 'connect ECONNREFUSED' });
    expect(describeFailure(unreachable)).toMatchObject({ kind: 'service' });
    expect(describeFailure(unreachable).message).toContain('api-url');
    expect(describeFailure(new ActionError('tests-failed', 'Do this.'))).toEqual({
      kind: 'tests-failed',
      message: 'Do this.',
    });
    expect(describeFailure(new Error('boom')).kind).toBe('bug');
  });

  it('words an abort as the timeout or the cancellation that caused it', () => {
    const aborted = new TransportError({ ...request, kind: 'aborted', message: 'aborted' });
    const timedOut = new AbortController();
    timedOut.abort(new StepTimeoutError(90_000));
    expect(abortReasonOf(timedOut.signal)).toBe('timeout');
    expect(describeFailure(aborted, timedOut.signal)).toEqual({
      kind: 'timeout',
      message:
        'Timed out: the `timeout` of 90s passed during inviteTesters. Raise `timeout` if the step needs longer.',
    });
    const cancelled = new AbortController();
    cancelled.abort(new CancelledError('the run was cancelled (SIGTERM)'));
    expect(describeFailure(aborted, cancelled.signal)).toEqual({
      kind: 'cancelled',
      message: 'Cancelled: the run was cancelled (SIGTERM) during inviteTesters.',
    });
    // The client keeps the reason on the error: a step's own deadline reads as a timeout
    // even where the host only knows its cancellation signal.
    const ownDeadline = new TransportError({
      ...request,
      kind: 'aborted',
      message: 'request aborted',
      cause: new StepTimeoutError(60_000),
    });
    expect(describeFailure(ownDeadline, new AbortController().signal).kind).toBe('timeout');
    expect(describeFailure(new StepTimeoutError(1000)).kind).toBe('timeout');
    // An abort with no step signal behind it is still a cancellation, not service trouble.
    expect(describeFailure(aborted).kind).toBe('cancelled');
    // A service answer is its own failure even after the signal fired.
    expect(describeFailure(new ApiError({ ...request, status: 401 }), timedOut.signal).kind).toBe('refused');
  });

  it('never repeats a registered secret', () => {
    registerSecret('s3cret-value');
    const message = describeFailure(new Error('echoed s3cret-value back')).message;
    expect(message).not.toContain('s3cret-value');
    expect(message).toContain('***');
  });
});
