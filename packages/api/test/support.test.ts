import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../src/index.ts';
import { HttpTransport } from '../src/core/transport/transport.ts';
import { AUTOMATION_ORIGIN, mockClient, SAUCE_AUTH, type MockSetup } from './support/mock.ts';

describe('mock client support', () => {
  let setup: MockSetup | undefined;
  afterEach(async () => {
    await setup?.agent.close();
  });

  it('records the request a transport sends and reads a JSON answer', async () => {
    setup = mockClient();
    setup.reply(AUTOMATION_ORIGIN, 'POST', '/rest/v1/alice/thing', { body: { ok: true } });
    const http = setup.client.automation.http;
    const answer = await http.send({
      operation: 'probe',
      method: 'POST',
      path: '/rest/v1/alice/thing',
      query: { a: 1, b: ['x', 'y'], c: undefined, d: null },
      body: { kind: 'json', value: { hello: 'world' } },
    });
    expect(answer.body).toEqual({ ok: true });
    const [request] = setup.requests;
    expect(request?.method).toBe('POST');
    expect(request?.query.getAll('b')).toEqual(['x', 'y']);
    expect(request?.query.get('d')).toBe('null');
    expect(request?.query.has('c')).toBe(false);
    expect(request?.headers.authorization).toBe(SAUCE_AUTH);
    expect(request?.json).toEqual({ hello: 'world' });
    expect(http).toBeInstanceOf(HttpTransport);
  });

  it('turns an error answer into an ApiError without credentials', async () => {
    setup = mockClient();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/alice/jobs/x', {
      status: 404,
      body: { message: 'job not found' },
    });
    const failure = await setup.client.automation.http
      .send({ operation: 'getJob', method: 'GET', path: '/rest/v1/alice/jobs/x' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).toBe('getJob: 404 job not found (GET /rest/v1/alice/jobs/x)');
    expect(JSON.stringify(failure)).not.toContain('secret');
  });
});
