/** Shared steps of the mobile distribution tests. */
import { expect } from 'vitest';
import { ApiError } from '../../src/index.ts';
import { MOBILE_AUTH, type RecordedRequest } from '../support/mock.ts';

/** The one request a test expects, checked to carry the mobile Basic header. */
export function onlyRequest(requests: readonly RecordedRequest[]): RecordedRequest {
  expect(requests).toHaveLength(1);
  const request = requests[0]!;
  expect(request.headers.authorization).toBe(MOBILE_AUTH);
  return request;
}

/** The form fields of a urlencoded request, as a plain object. */
export function formOf(request: RecordedRequest): Record<string, string> {
  expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
  return Object.fromEntries(request.form ?? []);
}

/** Awaits a promise that must fail with an ApiError holding no secret. */
export async function apiErrorOf(promise: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  const text = `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack ?? ''}`;
  expect(text).not.toContain('secret-api-key');
  expect(text).not.toContain(Buffer.from('alice@example.com:secret-api-key').toString('base64'));
  return error as ApiError;
}
