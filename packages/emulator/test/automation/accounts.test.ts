import { describe, expect, it } from 'vitest';
import { basic, DEMO_USER, withEmulator } from '../support/emulator.ts';
import { call } from '../support/http.ts';

describe('automation accounts', () => {
  const handle = withEmulator();
  const rest = (path: string, version = 'v1') => `${handle.url}/rest/${version}${path}`;

  it('reads the profile without its access key', async () => {
    const user = await call(rest(`/users/${DEMO_USER}`));
    expect(user.status).toBe(200);
    expect(user.json).toMatchObject({ username: 'demo', email: 'demo@example.com', parent: null });
    expect(user.text).not.toContain('demo-access-key');
  });

  it('creates a sub-account that can call for itself, and the parent may act for it', async () => {
    const created = await call(rest(`/users/${DEMO_USER}`), {
      method: 'POST',
      json: { username: 'demo-sub', password: 'secret-pass', name: 'Sub Account', email: 'sub@example.com' },
    });
    expect(created.status).toBe(200);
    const { access_key: key } = created.json as { access_key: string };
    expect(created.json).toMatchObject({ username: 'demo-sub', parent: 'demo' });
    expect(created.text).not.toContain('secret-pass');
    expect((await call(rest('/users/demo-sub'), { auth: basic('demo-sub', key) })).status).toBe(200);
    expect((await call(rest('/demo-sub/jobs'))).status).toBe(200);
    // A sub-account may not act for its parent.
    expect((await call(rest(`/users/${DEMO_USER}`), { auth: basic('demo-sub', key) })).status).toBe(403);
    const again = await call(rest(`/users/${DEMO_USER}`), {
      method: 'POST',
      json: { username: 'demo-sub', password: 'secret-pass', name: 'Sub', email: 'sub@example.com' },
    });
    expect(again.status).toBe(409);
    const invalid = await call(rest(`/users/${DEMO_USER}`), { method: 'POST', json: { username: 'x' } });
    expect(invalid.status).toBe(400);
    expect(invalid.json).toHaveProperty('fields');
  });

  it('reads concurrency on v1 and on the client path v1.2', async () => {
    handle.emulator.context.automation.jobs.create({
      name: 'j',
      build: 'b',
      browser: 'chrome',
      os: 'Linux',
      passes: true,
    });
    const v1 = (await call(rest(`/users/${DEMO_USER}/concurrency`))).json as {
      concurrency: Record<string, { current: { overall: number } }>;
    };
    expect(v1.concurrency['demo']!.current.overall).toBeGreaterThanOrEqual(0);
    const v12 = await call(rest(`/users/${DEMO_USER}/concurrency`, 'v1.2'));
    expect(v12.status).toBe(200);
    expect(v12.json).toHaveProperty('concurrency.organization.allowed.overall', 10);
  });

  it('reports live activity, activity over a duration and daily usage', async () => {
    const ctx = handle.emulator.context;
    const now = Date.now();
    ctx.now = () => now;
    ctx.automation.jobs.create({ name: 'j', build: 'b', browser: 'chrome', os: 'Linux', passes: true });
    const live = (await call(rest(`/${DEMO_USER}/activity`))).json as {
      subaccounts: Record<string, { queued: number }>;
      totals: { queued: number; all: number };
    };
    expect(live.subaccounts['demo']!.queued).toBe(1);
    expect(live.totals).toMatchObject({ queued: 1, all: 1, 'in progress': 0 });
    const summary = await call(rest(`/users/${DEMO_USER}/activity?duration=7`));
    expect(summary.json).toMatchObject({ username: 'demo', duration_days: 7, jobs: 3 });
    expect(summary.json).toHaveProperty('concurrency.peak');
    const usage = (await call(rest(`/users/${DEMO_USER}/usage`))).json as {
      usage: [string, [number, number]][];
    };
    const total = usage.usage.reduce((sum, [, [jobs]]) => sum + jobs, 0);
    expect(total).toBe(3);
    expect((await call(rest(`/users/${DEMO_USER}/usage?start=yesterday`))).status).toBe(400);
  });

  it('changes the access key and refuses the old one at once', async () => {
    const changed = await call(rest(`/users/${DEMO_USER}/accesskey/change`), { method: 'POST' });
    expect(changed.status).toBe(200);
    const { access_key: key } = changed.json as { access_key: string };
    expect(key).not.toBe('demo-access-key');
    expect((await call(rest(`/users/${DEMO_USER}`))).status).toBe(401);
    expect((await call(rest(`/users/${DEMO_USER}`), { auth: basic(DEMO_USER, key) })).status).toBe(200);
  });

  it('lets a partner subscribe and unsubscribe its sub-account', async () => {
    await call(rest(`/users/${DEMO_USER}`), {
      method: 'POST',
      json: { username: 'client1', password: 'secret-pass', name: 'Client', email: 'c@example.com' },
    });
    const sub = await call(rest('/users/client1/subscription'), { method: 'POST', json: { plan: 'team' } });
    expect(sub.json).toMatchObject({ username: 'client1', plan: 'team' });
    expect((await call(rest('/users/client1'))).json).toMatchObject({ plan: 'team', subscribed: true });
    expect((await call(rest('/users/client1/subscription'), { method: 'POST', json: {} })).status).toBe(400);
    const gone = await call(rest('/users/client1/subscription'), { method: 'DELETE' });
    expect(gone.json).toMatchObject({ plan: null });
    expect((await call(rest(`/users/${DEMO_USER}/subscription`), { method: 'DELETE' })).status).toBe(403);
  });
});
