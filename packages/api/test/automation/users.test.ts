import { describe, expect, it } from 'vitest';
import { mockClient } from '../support/mock.ts';
import {
  apiFailure,
  expectNoSecret,
  AUTOMATION_ORIGIN,
  onlyRequest,
  SAUCE_AUTH,
  useMock,
} from './helpers.ts';

describe('automation users', () => {
  const mock = useMock();

  it('getUser reads the client account, or another one', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/users/alice', {
      body: { id: 'alice', email: 'alice@example.com', extra: 1 },
    });
    const user = await setup.client.automation.users.get();
    expect(user).toEqual({ id: 'alice', email: 'alice@example.com', extra: 1 });
    const request = onlyRequest(setup);
    expect(request.method).toBe('GET');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);

    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/users/bob%20b', { body: { id: 'bob b' } });
    expect(await setup.client.automation.users.get({ username: 'bob b' })).toEqual({ id: 'bob b' });
    expect(setup.requests[1]?.path).toBe('/rest/v1/users/bob%20b');
  });

  it('createSubAccount posts the new account under the parent, with a plan for partners', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'POST', '/rest/v1/users/alice', { body: { id: 'carol' } });
    const created = await setup.client.automation.users.createSubAccount({
      username: 'carol',
      password: 'pw-123456',
      name: 'Carol',
      email: 'carol@example.com',
      plan: 'team',
    });
    expect(created).toEqual({ id: 'carol' });
    const request = onlyRequest(setup);
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
    expect(request.json).toEqual({
      username: 'carol',
      password: 'pw-123456',
      name: 'Carol',
      email: 'carol@example.com',
      plan: 'team',
    });

    setup.reply(AUTOMATION_ORIGIN, 'POST', '/rest/v1/users/parent', { body: { id: 'dave' } });
    await setup.client.automation.users.createSubAccount({
      parent: 'parent',
      username: 'dave',
      password: 'pw',
      name: 'Dave',
      email: 'dave@example.com',
    });
    expect(setup.requests[1]?.json).toEqual({
      username: 'dave',
      password: 'pw',
      name: 'Dave',
      email: 'dave@example.com',
    });
  });

  it('createSubAccount failure names the operation and never the password', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'POST', '/rest/v1/users/alice', {
      status: 400,
      body: { code: 'invalid', message: 'username taken' },
    });
    const error = await apiFailure(
      setup.client.automation.users.createSubAccount({
        username: 'carol',
        password: 'hidden-password',
        name: 'Carol',
        email: 'carol@example.com',
      }),
    );
    expect(error.message).toBe('createSubAccount: 400 username taken (POST /rest/v1/users/alice)');
    expect(JSON.stringify(error) + String(error)).not.toContain('hidden-password');
  });

  it('getConcurrency reads the limits', async () => {
    const setup = mock();
    const body = { concurrency: { alice: { remaining: { overall: 5 }, current: { overall: 1 } } } };
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/users/alice/concurrency', { body });
    expect(await setup.client.automation.users.getConcurrency()).toEqual(body);
    const request = onlyRequest(setup);
    expect(request.method).toBe('GET');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('getActivity reads real-time counts at /{username}/activity', async () => {
    const setup = mock();
    const body = {
      subaccounts: { alice: { 'in progress': 1, all: 3, queued: 2 } },
      totals: { 'in progress': 1, all: 3, queued: 2 },
    };
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/alice/activity', { body });
    const activity = await setup.client.automation.users.getActivity();
    expect(activity.totals.queued).toBe(2);
    expect(activity.subaccounts.alice?.['in progress']).toBe(1);
    const request = onlyRequest(setup);
    expect(request.pathname).toBe('/rest/v1/alice/activity');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('getUserActivity reads /users/{username}/activity', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/users/bob/activity', { body: { peak: 4 } });
    expect(await setup.client.automation.users.getUserActivity({ username: 'bob' })).toEqual({ peak: 4 });
    const request = onlyRequest(setup);
    expect(request.method).toBe('GET');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('getUserActivity sends the duration in days, and no duration when not given', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/users/alice/activity', { body: { peak: 1 } });
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/users/alice/activity', { body: { peak: 2 } });
    await setup.client.automation.users.getUserActivity({ duration: 7 });
    await setup.client.automation.users.getUserActivity();
    expect(setup.requests.map((request) => request.query.get('duration'))).toEqual(['7', null]);
  });

  it('getUsage sends start, end and free-form query parameters', async () => {
    const setup = mock();
    const body = { usage: [['2026-1-2', [3, 120]]], username: 'alice' };
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/users/alice/usage', { body });
    const usage = await setup.client.automation.users.getUsage({
      start: new Date(Date.UTC(2026, 0, 2, 23, 0)),
      end: '2026-01-31',
      query: { team: 'qa' },
    });
    expect(usage.usage[0]?.[1]).toEqual([3, 120]);
    const request = onlyRequest(setup);
    expect(Object.fromEntries(request.query)).toEqual({ start: '2026-01-02', end: '2026-01-31', team: 'qa' });
    expect(request.headers.authorization).toBe(SAUCE_AUTH);

    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/users/alice/usage', { body });
    await setup.client.automation.users.getUsage();
    expect(setup.requests[1]?.path).toBe('/rest/v1/users/alice/usage');
  });

  it('changeAccessKey posts with no body and returns the answer', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'POST', '/rest/v1/users/alice/accesskey/change', {
      body: { access_key: 'new-key' },
    });
    const answer = await setup.client.automation.users.changeAccessKey();
    expect(answer.access_key).toBe('new-key');
    const request = onlyRequest(setup);
    expect(request.method).toBe('POST');
    expect(request.body).toBe('');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('a missing account gives an exact error', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/users/alice', {
      status: 404,
      body: { message: 'user not found' },
    });
    const error = await apiFailure(setup.client.automation.users.get());
    expect(error.message).toBe('getUser: 404 user not found (GET /rest/v1/users/alice)');
    expect(error.status).toBe(404);
  });

  it('refuses a call without any username', async () => {
    const setup = mockClient({ username: '' });
    try {
      await expect(setup.client.automation.users.get()).rejects.toThrow(/no username/);
      expect(setup.requests).toHaveLength(0);
    } finally {
      await setup.agent.close();
    }
  });

  it('the client and its groups never show the access key', () => {
    const { automation } = mock().client;
    expectNoSecret(automation);
    for (const group of [automation.users, automation.jobs, automation.tunnels, automation.jsTests]) {
      expectNoSecret(group);
    }
  });
});
