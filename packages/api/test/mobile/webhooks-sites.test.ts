import { afterEach, describe, expect, it } from 'vitest';
import { MOBILE_ORIGIN, mockClient, type MockSetup } from '../support/mock.ts';
import { apiErrorOf, formOf, onlyRequest } from './helpers.ts';

describe('mobile webhooks', () => {
  let setup: MockSetup;
  afterEach(async () => {
    await setup.agent.close();
  });

  const webhook = {
    id: 3,
    status: '0',
    name: 'ci',
    url: 'https://hooks.example/ci',
    actions: 'crash,upload',
    projectIds: '7,8',
  };

  it('listWebhooks reads every webhook', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/webhooks/', { body: { status: 'ok', webhooks: [webhook] } });
    expect((await setup.client.mobile.webhooks.list()).webhooks).toEqual([webhook]);
    expect(onlyRequest(setup.requests).method).toBe('GET');
  });

  it('createWebhook sends the webhook fields, actions comma-separated', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'POST', '/api/1/webhook/', { body: { status: 'ok' } });
    const answer = await setup.client.mobile.webhooks.create({
      name: 'ci',
      url: 'https://hooks.example/ci',
      enabled: true,
      actions: ['crash', 'feedback', 'upload', 'new-udid'],
      projectIds: [7, '8'],
    });
    expect(answer.status).toBe('ok');
    const request = onlyRequest(setup.requests);
    expect(request.method).toBe('POST');
    expect(formOf(request)).toEqual({
      'webhook-name': 'ci',
      'webhook-url': 'https://hooks.example/ci',
      'webhook-status': 'true',
      actions: 'crash,feedback,upload,new-udid',
      'webhook-project-ids': '7,8',
    });
  });

  it('getWebhook reads one webhook', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/webhook/3/', { body: { status: 'ok', webhook } });
    expect((await setup.client.mobile.webhooks.get(3)).webhook).toEqual(webhook);
    expect(onlyRequest(setup.requests).path).toBe('/api/1/webhook/3/');
  });

  it('updateWebhook posts the fields to the webhook', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'POST', '/api/1/webhook/3/', { body: { status: 'ok' } });
    await setup.client.mobile.webhooks.update(3, {
      name: 'ci',
      url: 'https://hooks.example/v2',
      enabled: false,
    });
    expect(formOf(onlyRequest(setup.requests))).toEqual({
      'webhook-name': 'ci',
      'webhook-url': 'https://hooks.example/v2',
      'webhook-status': 'false',
    });
  });

  it('deleteWebhook sends DELETE', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'DELETE', '/api/1/webhook/3/', { body: { status: 'ok' } });
    expect(await setup.client.mobile.webhooks.delete(3)).toEqual({ status: 'ok' });
    expect(onlyRequest(setup.requests).method).toBe('DELETE');
  });

  it('reads a webhook failure as an ApiError', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'POST', '/api/1/webhook/', {
      status: 400,
      body: { status: 'fail', code: 1, message: 'webhook-url is missing' },
    });
    const error = await apiErrorOf(setup.client.mobile.webhooks.create({ name: 'ci', url: '' }));
    expect(error.message).toBe('createWebhook: 400 code 1 webhook-url is missing (POST /api/1/webhook/)');
    expect(error.code).toBe(1);
  });
});

describe('mobile sites', () => {
  let setup: MockSetup;
  afterEach(async () => {
    await setup.agent.close();
  });

  it('getSite reads accounts and managers', async () => {
    setup = mockClient();
    const site = {
      accounts: [
        { id: 'a1', name: 'Acme', buildsCount: 4, users: [{ email: 'u@example.com', role: 'admin' }] },
      ],
      managers: [{ email: 'm@example.com' }],
    };
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/site/', { body: { status: 'ok', site } });
    expect((await setup.client.mobile.sites.get()).site).toEqual(site);
    expect(onlyRequest(setup.requests).method).toBe('GET');
  });

  it('createSite posts name and login method', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'POST', '/api/1/site/', { body: { status: 'ok' } });
    setup.reply(MOBILE_ORIGIN, 'POST', '/api/1/site/', { body: { status: 'ok' } });
    await setup.client.mobile.sites.create({ name: 'acme-eu_2', loginMethod: 'sso' });
    await setup.client.mobile.sites.create({ name: 'acme', loginMethod: 'credentials' });
    expect(formOf(onlyRequest(setup.requests.slice(0, 1)))).toEqual({ name: 'acme-eu_2', loginMethod: '0' });
    expect(formOf(setup.requests[1]!)).toEqual({ name: 'acme', loginMethod: '1' });
  });

  it('createSite rejects a name the service would refuse, before sending', async () => {
    setup = mockClient();
    await expect(setup.client.mobile.sites.create({ name: 'abc' })).rejects.toThrow(TypeError);
    await expect(setup.client.mobile.sites.create({ name: 'a b c d' })).rejects.toThrow(TypeError);
    expect(setup.requests).toHaveLength(0);
  });

  it('deleteSite sends DELETE', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'DELETE', '/api/1/site/a1/', { body: { status: 'ok' } });
    expect(await setup.client.mobile.sites.delete('a1')).toEqual({ status: 'ok' });
    expect(onlyRequest(setup.requests).method).toBe('DELETE');
  });

  it('reads a site failure as an ApiError', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'DELETE', '/api/1/site/a1/', {
      body: { status: 'fail', message: 'Site not found' },
    });
    const error = await apiErrorOf(setup.client.mobile.sites.delete('a1'));
    expect(error.message).toBe('deleteSite: failed Site not found (DELETE /api/1/site/a1/)');
  });
});
