import { describe, expect, it } from 'vitest';
import { apiFailure, AUTOMATION_ORIGIN, onlyRequest, SAUCE_AUTH, useMock } from './helpers.ts';

describe('automation partner operations', () => {
  const mock = useMock();

  it('subscribe posts the plan for the sub-account', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'POST', '/rest/v1/users/carol/subscription', { body: { plan: 'team' } });
    expect(await setup.client.automation.partners.subscribe('carol', 'team')).toEqual({ plan: 'team' });
    const request = onlyRequest(setup);
    expect(request.method).toBe('POST');
    expect(request.json).toEqual({ plan: 'team' });
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('unsubscribe sends DELETE without a body', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'DELETE', '/rest/v1/users/carol/subscription');
    await expect(setup.client.automation.partners.unsubscribe('carol')).resolves.toBeUndefined();
    const request = onlyRequest(setup);
    expect(request.method).toBe('DELETE');
    expect(request.body).toBe('');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('subscribe failure gives the exact message', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'POST', '/rest/v1/users/carol/subscription', {
      status: 403,
      body: { message: 'not a partner account' },
    });
    const error = await apiFailure(setup.client.automation.partners.subscribe('carol', 'team'));
    expect(error.message).toBe(
      'subscribe: 403 not a partner account (POST /rest/v1/users/carol/subscription)',
    );
  });
});
