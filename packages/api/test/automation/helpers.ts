/** Shared test helpers for the automation operations. */
import { inspect } from 'node:util';
import { afterEach, beforeEach, expect } from 'vitest';
import { ApiError } from '../../src/index.ts';
import { mockClient, SAUCE_AUTH, type MockSetup, type RecordedRequest } from '../support/mock.ts';

export { AUTOMATION_ORIGIN, SAUCE_AUTH } from '../support/mock.ts';

/** A fresh mock client for every test, closed after it. */
export function useMock(): () => MockSetup {
  let setup: MockSetup | undefined;
  beforeEach(() => {
    setup = mockClient();
  });
  afterEach(async () => {
    await setup?.agent.close();
    setup = undefined;
  });
  return () => {
    if (!setup) throw new Error('mock client not ready');
    return setup;
  };
}

/** The only request recorded, checked to be the one expected. */
export function onlyRequest(setup: MockSetup): RecordedRequest {
  expect(setup.requests).toHaveLength(1);
  return setup.requests[0]!;
}

/** Awaits a failing call and returns its ApiError, checking that no secret shows anywhere in it. */
export async function apiFailure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  expectNoSecret(error);
  return error as ApiError;
}

export function expectNoSecret(value: unknown): void {
  const texts = [String(value), JSON.stringify(value), inspect(value, { depth: 5 })];
  if (value instanceof Error) texts.push(value.stack ?? '');
  for (const text of texts) {
    expect(text).not.toContain('secret-access-key');
    expect(text).not.toContain(SAUCE_AUTH.slice('Basic '.length));
  }
}
