import { describe, expect, it } from 'vitest';
import { DEMO_USER, withEmulator } from '../support/emulator.ts';
import { call } from '../support/http.ts';

describe('automation tunnels and information', () => {
  const handle = withEmulator();
  const rest = (path: string) => `${handle.url}/rest/v1${path}`;

  it('lists tunnel ids, whole tunnels with full=true, and reads one', async () => {
    const ids = (await call(rest(`/${DEMO_USER}/tunnels`))).json as string[];
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(/^[0-9a-f]{32}$/);
    const full = (await call(rest(`/${DEMO_USER}/tunnels?full=true`))).json as Record<string, unknown>[];
    expect(full[0]).toMatchObject({
      id: ids[0],
      owner: 'demo',
      status: 'running',
      tunnel_identifier: 'demo-tunnel',
    });
    for (const field of [
      'creation_time',
      'launch_time',
      'shutdown_time',
      'host',
      'metadata',
      'domain_names',
    ]) {
      expect(full[0]).toHaveProperty(field);
    }
    expect((await call(rest(`/${DEMO_USER}/tunnels/${ids[0]}`))).json).toMatchObject({ id: ids[0] });
    expect((await call(rest(`/${DEMO_USER}/tunnels/nope`))).status).toBe(404);
  });

  it('shuts a tunnel down with a JSON reason body, counting the jobs running through it', async () => {
    const ctx = handle.emulator.context;
    const [id] = (await call(rest(`/${DEMO_USER}/tunnels`))).json as string[];
    const job = ctx.automation.jobs.create({
      name: 'j',
      build: 'b',
      browser: 'chrome',
      os: 'Linux',
      passes: true,
      tunnelIdentifier: 'demo-tunnel',
    });
    // Still running when the tunnel is shut, however slow the machine: not the file's 40 ms jobs.
    ctx.automation.jobs.get(job.id)!.durationMs = 600_000;
    const deleted = await call(rest(`/${DEMO_USER}/tunnels/${id}`), {
      method: 'DELETE',
      json: { reason: 'done' },
    });
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ result: true, id, jobs_running: 1 });
    expect((await call(rest(`/${DEMO_USER}/tunnels/${id}`))).json).toMatchObject({
      status: 'terminated',
      user_shutdown: true,
    });
    expect((await call(rest(`/${DEMO_USER}/tunnels`))).json).toEqual([]);
    expect(ctx.automation.tunnels.hasRunning(DEMO_USER, 'demo-tunnel')).toBe(false);
  });

  it('serves status and platforms without credentials', async () => {
    const status = await call(rest('/info/status'), { auth: null });
    expect(status.json).toMatchObject({ service_operational: true });
    const webdriver = (await call(rest('/info/platforms/webdriver'), { auth: null })).json as {
      api_name: string;
    }[];
    expect(webdriver.map((platform) => platform.api_name)).toContain('chrome');
    const appium = (await call(rest('/info/platforms/appium'), { auth: null })).json as {
      automation_backend: string;
    }[];
    expect(appium.every((platform) => platform.automation_backend === 'appium')).toBe(true);
    expect((await call(rest('/info/platforms/unknown'), { auth: null })).status).toBe(404);
  });
});
