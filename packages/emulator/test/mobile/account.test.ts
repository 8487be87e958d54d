import { afterEach, describe, expect, it } from 'vitest';
import { defaultMobileSeed } from '../../src/mobile/seed.ts';
import { OIDC, basic, call, start, uploadApk, type Harness } from './helpers.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('authentication', () => {
  it('accepts Basic email:api-key and OIDC bearer, refuses anything else with 401', async () => {
    h = await start();
    expect((await call(h, 'GET', '/api/1/projects/')).status).toBe(200);
    expect((await call(h, 'GET', '/api/1/projects/', { auth: null, headers: OIDC })).status).toBe(200);

    const none = await call(h, 'GET', '/api/1/projects/', { auth: null });
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ status: 'fail', code: 5 });
    const wrongKey = await call(h, 'GET', '/api/2/projects', { auth: basic('demo@example.com', 'nope-key') });
    expect(wrongKey.status).toBe(401);
    expect(JSON.stringify(wrongKey.body)).not.toContain('nope-key');
    const wrongEmail = await call(h, 'GET', '/api/2/projects', {
      auth: basic('x@example.com', 'demo-api-key'),
    });
    expect(wrongEmail.status).toBe(401);
    const noConfigKey = await call(h, 'GET', '/api/1/testers', { auth: 'Bearer demo-oidc-token' });
    expect(noConfigKey.status).toBe(401);
    const wrongToken = await call(h, 'GET', '/api/1/testers', {
      auth: null,
      headers: { ...OIDC, authorization: 'Bearer other' },
    });
    expect(wrongToken.status).toBe(401);
    const wrongConfig = await call(h, 'GET', '/api/1/testers', {
      auth: null,
      headers: { ...OIDC, 'x-oidc-config-key': 'other' },
    });
    expect(wrongConfig.status).toBe(401);
  });
});

describe('feedbacks, permissions, audits', () => {
  it('lists the latest 100 feedbacks, newest first', async () => {
    const feedbacks = Array.from({ length: 120 }, (_, i) => ({
      text: `feedback ${i}`,
      buildId: 1,
      projectId: 1,
      recordedAt: Date.UTC(2024, 0, 1) + i * 60_000,
    }));
    h = await start({ feedbacks });
    const answer = await call(h, 'GET', '/api/1/feedbacks/');
    const list = answer.body.feedbacks as Record<string, unknown>[];
    expect(list).toHaveLength(100);
    expect(list[0]).toMatchObject({
      text: 'feedback 119',
      recorded_at: '2024-01-01 01:59:00',
      recordedAt: '2024-01-01 01:59:00',
      buildId: 1,
      projectId: 1,
      source: 'shake',
    });
    for (const field of ['feedbackId', 'screenshotUrl', 'reported_by', 'session_id'])
      expect(list[0]).toHaveProperty(field);
    expect(list[99]!.text).toBe('feedback 20');
  });

  it('lists admins with roles and permissions', async () => {
    h = await start({
      accounts: [
        ...defaultMobileSeed().accounts,
        { email: 'admin@example.com', apiKey: 'k2', role: 'admin', permissions: ['7:rw', '8:r'] },
        { email: 't@example.com', apiKey: 'k3', role: 'tester', permissions: [] },
      ],
    });
    const answer = await call(h, 'GET', '/api/1/cpanel/permissions/');
    expect(answer.body).toEqual({
      status: 'ok',
      admins: [
        { email: 'demo@example.com', role: 'account-owner', permissions: ['*:rw'] },
        { email: 'admin@example.com', role: 'admin', permissions: ['7:rw', '8:r'] },
      ],
    });
    const limited = await call(h, 'GET', '/api/2/audits/', { auth: basic('admin@example.com', 'k2') });
    expect(limited.status).toBe(403);
  });

  it('records v1 download events and filters v2 trails by type, date and site', async () => {
    h = await start();
    const { projectId, buildId } = await uploadApk(h);
    await fetch(`${h.url}/api/1/projects/${projectId}/builds/${buildId}/download/`, {
      headers: { authorization: basic('demo@example.com', 'demo-api-key') },
    }).then((r) => r.arrayBuffer());
    const v1 = await call(h, 'GET', '/api/1/audits');
    expect(v1.body.audits).toContainEqual(
      expect.objectContaining({
        eventType: 'download_app',
        eventData: expect.objectContaining({
          projectId,
          buildId,
          appName: 'Demo App',
          testerEmail: 'demo@example.com',
        }),
      }),
    );

    await call(h, 'POST', '/api/1/webhook/', {
      form: { 'webhook-name': 'ci', 'webhook-url': 'http://127.0.0.1:9/hook' },
    });
    const all = await call(h, 'GET', '/api/2/audits/');
    const types = (all.body.audits as { actionType: number }[]).map((a) => a.actionType);
    expect(types).toEqual([1910, 1300]);
    expect(all.body.audits).toContainEqual(
      expect.objectContaining({
        siteName: 'demo',
        enterpriseId: '1001',
        userEmail: 'demo@example.com',
        userId: 1,
      }),
    );
    const admin = await call(h, 'GET', '/api/2/audits/admin-trail/');
    expect((admin.body.audits as { actionType: number }[]).map((a) => a.actionType)).toEqual([1910]);
    const tester = await call(h, 'GET', '/api/2/audits/tester-trail/');
    expect((tester.body.audits as { actionType: number }[]).map((a) => a.actionType)).toEqual([1300]);

    const today = new Date().toISOString().slice(0, 10);
    const inRange = await call(h, 'GET', `/api/2/audits/?start_date=${today}&end_date=${today}`);
    expect(inRange.body.pagination).toMatchObject({ total: 2, per_page: 50 });
    const before = await call(h, 'GET', '/api/2/audits/?end_date=2000-01-01');
    expect(before.body.pagination).toMatchObject({ total: 0 });
    expect((await call(h, 'GET', '/api/2/audits/?start_date=yesterday')).status).toBe(400);
    expect(
      ((await call(h, 'GET', '/api/2/audits/?per_page=900')).body.pagination as { per_page: number })
        .per_page,
    ).toBe(200);
    expect((await call(h, 'GET', '/api/2/audits/?site=demo')).body.pagination).toMatchObject({ total: 2 });
    expect((await call(h, 'GET', '/api/2/audits/?site=1001')).body.pagination).toMatchObject({ total: 2 });
    expect((await call(h, 'GET', '/api/2/audits/?site=elsewhere')).status).toBe(403);
  });
});

describe('webhooks', () => {
  it('creates, reads, updates and deletes webhooks, with changes in the admin trail', async () => {
    h = await start();
    const created = await call(h, 'POST', '/api/1/webhook/', {
      form: {
        'webhook-name': 'builds',
        'webhook-url': 'https://hooks.example.com/x',
        'webhook-status': 'true',
        actions: 'upload,crash',
        'webhook-project-ids': '3,4',
      },
    });
    expect(created.body.status).toBe('ok');
    const id = created.body.id as number;
    const single = await call(h, 'GET', `/api/1/webhook/${id}/`);
    expect(single.body.webhook).toEqual({
      id,
      status: '1',
      name: 'builds',
      url: 'https://hooks.example.com/x',
      actions: 'upload,crash',
      projectIds: '3,4',
    });
    const missingName = await call(h, 'POST', '/api/1/webhook/', {
      form: { 'webhook-url': 'https://x.example.com' },
    });
    expect(missingName.body).toMatchObject({ status: 'fail', code: 1 });
    expect(missingName.body.message).toContain('webhook-name');
    const badAction = await call(h, 'POST', '/api/1/webhook/', {
      form: { 'webhook-name': 'x', 'webhook-url': 'https://x.example.com', actions: 'explode' },
    });
    expect(badAction.status).toBe(400);

    const updated = await call(h, 'POST', `/api/1/webhook/${id}/`, {
      form: { 'webhook-name': 'renamed', 'webhook-url': 'https://hooks.example.com/y' },
    });
    expect(updated.body).toEqual({ status: 'ok' });
    const list = await call(h, 'GET', '/api/1/webhooks/');
    expect(list.body.webhooks).toEqual([
      { id, status: '0', name: 'renamed', url: 'https://hooks.example.com/y', actions: '', projectIds: '' },
    ]);
    expect((await call(h, 'DELETE', `/api/1/webhook/${id}/`)).body).toEqual({ status: 'ok' });
    expect((await call(h, 'GET', `/api/1/webhook/${id}/`)).status).toBe(404);
    const trail = await call(h, 'GET', '/api/2/audits/admin-trail/');
    const entries = trail.body.audits as { actionType: number; actionData: Record<string, unknown> }[];
    expect(entries.map((a) => a.actionType)).toEqual([1912, 1911, 1910]);
    expect(entries[1]!.actionData).toMatchObject({ from: { name: 'builds' }, to: { name: 'renamed' } });
  });
});

describe('sites', () => {
  it('lists the account site, creates sites with valid names and deletes them', async () => {
    h = await start();
    const initial = await call(h, 'GET', '/api/1/site/');
    expect(initial.body).toEqual({
      status: 'ok',
      site: {
        accounts: [
          {
            id: '1001',
            name: 'demo',
            buildsCount: 0,
            users: [{ email: 'demo@example.com', role: 'account-owner' }],
          },
        ],
        managers: [{ email: 'demo@example.com' }],
      },
    });
    for (const name of ['abc', 'has space', 'dot.name']) {
      const refused = await call(h, 'POST', '/api/1/site/', { form: { name } });
      expect(refused.status, name).toBe(400);
      expect(refused.body.code).toBe(1);
    }
    const created = await call(h, 'POST', '/api/1/site/', { form: { name: 'team-eu_2', loginMethod: '0' } });
    expect(created.body.status).toBe('ok');
    const list = await call(h, 'GET', '/api/1/site/');
    const accounts = (list.body.site as { accounts: { id: string; name: string }[] }).accounts;
    expect(accounts.map((a) => a.name)).toEqual(['demo', 'team-eu_2']);
    expect((await call(h, 'GET', `/api/2/audits/?site=team-eu_2`)).status).toBe(200);
    expect((await call(h, 'DELETE', `/api/1/site/${created.body.id as string}/`)).body).toEqual({
      status: 'ok',
    });
    expect((await call(h, 'DELETE', `/api/1/site/${created.body.id as string}/`)).status).toBe(404);
    const types = (
      (await call(h, 'GET', '/api/2/audits/admin-trail/')).body.audits as { actionType: number }[]
    ).map((a) => a.actionType);
    expect(types).toEqual([1921, 1920]);
  });
});
