/** A refused start names the input behind it: a row per service error, the input and the words. */
import { ActionError } from '@sauce-actions/action-kit';
import { ApiError } from '@sauce-actions/api';
import { describe, expect, it } from 'vitest';
import { refusedStart } from '../src/refusals.ts';

const refusal = (serviceMessage: string, fields?: Record<string, string>, status = 400): ApiError =>
  new ApiError({
    operation: 'startJsTests',
    method: 'POST',
    url: '/rest/v1/demo/js-tests',
    status,
    serviceMessage,
    ...(fields ? { body: { message: serviceMessage, code: 'invalid_request', fields } } : {}),
  });

const sent = {
  url: 'https://example.com/t.html',
  tunnelName: 'tunnel-7',
  build: 'b-1',
  capabilities: { screenResolution: '1x1' },
};

describe('refusedStart', () => {
  it.each([
    ['No running tunnel named tunnel-7', undefined, 'Check `tunnel-name` ("tunnel-7")'],
    [
      'Invalid request: body/platforms/0 must NOT have fewer than 2 items',
      { 'body.platforms.0': 'x' },
      'Check `platforms`',
    ],
    [
      'Invalid request',
      { 'body.framework': 'must be equal to one of the allowed values' },
      'Check `framework`',
    ],
    ['Invalid request', { 'body.maxDuration': 'must be >= 1' }, 'Check `max-duration`'],
    ['Invalid request', { 'body.url': 'must match pattern' }, 'Check `url` ("https://example.com/t.html")'],
    [
      'screenResolution is not supported',
      undefined,
      'Check `capabilities`: the service refused "screenResolution".',
    ],
    [
      'nope',
      undefined,
      'Check the inputs the start sent: `url`, `framework`, `platforms`, `tunnel-name`, `capabilities`.',
    ],
  ])('maps "%s" to its input', (said, fields, check) => {
    const error = refusedStart(refusal(said, fields), sent);
    expect(error).toBeInstanceOf(ActionError);
    expect(error).toMatchObject({ kind: 'refused' });
    expect((error as ActionError).message).toMatch(
      new RegExp(`^Sauce Labs refused to start the JS tests \\(startJsTests: 400 `),
    );
    expect((error as ActionError).message).toContain(check);
  });

  it.each([401, 403, 429, 503])('leaves a %i to the common wording', (status) => {
    const error = refusal('no', undefined, status);
    expect(refusedStart(error, sent)).toBe(error);
  });
});
