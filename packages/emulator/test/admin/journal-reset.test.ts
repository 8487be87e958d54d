import { describe, expect, it } from 'vitest';
import { basic, DEMO_ACCESS_KEY, DEMO_USER, withEmulator } from '../support/emulator.ts';
import { call } from '../support/http.ts';

interface Entry {
  method: string;
  path: string;
  query: Record<string, unknown>;
  status: number;
  time: string;
}

describe('admin journal, reset and tunnel control', () => {
  const handle = withEmulator();
  const journal = async () =>
    ((await call(`${handle.url}/_emulator/requests`, { auth: null })).json as { requests: Entry[] }).requests;

  it('records method, path, query, status and time, and holds no credential', async () => {
    await call(`${handle.url}/rest/v1/${DEMO_USER}/jobs?limit=1&api_key=hidden-key&token=t0k`);
    await call(`${handle.url}/rest/v1/${DEMO_USER}/jobs`, { auth: basic(DEMO_USER, 'wrong-secret') });
    await call(`${handle.url}/_emulator/health`, { auth: null });
    const entries = await journal();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      method: 'GET',
      path: `/rest/v1/${DEMO_USER}/jobs`,
      query: { limit: '1' },
      status: 200,
    });
    expect(entries[1]!.status).toBe(401);
    expect(Number.isNaN(Date.parse(entries[0]!.time))).toBe(false);
    const text = JSON.stringify(entries);
    for (const secret of ['hidden-key', 't0k', 'wrong-secret', DEMO_ACCESS_KEY, 'authorization', 'Basic']) {
      expect(text).not.toContain(secret);
    }
  });

  it('resets state, files, faults and the journal back to the seed', async () => {
    const ctx = handle.emulator.context;
    const id = ctx.automation.createJob({
      name: 'j',
      build: 'b',
      browser: 'chrome',
      os: 'Linux',
      passes: true,
    }).id;
    await call(`${handle.url}/rest/v1/storage/${DEMO_USER}/f.txt`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: 'x',
    });
    await call(`${handle.url}/rest/v1/users/${DEMO_USER}/accesskey/change`, { method: 'POST' });
    await call(`${handle.url}/_emulator/faults`, {
      method: 'POST',
      auth: null,
      json: { path: '/nowhere', status: 500 },
    });
    expect((await call(`${handle.url}/_emulator/reset`, { method: 'POST', auth: null })).status).toBe(200);
    expect(await journal()).toEqual([]);
    expect((await call(`${handle.url}/rest/v1/${DEMO_USER}/jobs/${id}`)).status).toBe(404);
    expect((await call(`${handle.url}/rest/v1/storage/${DEMO_USER}`)).json).toEqual({ files: [] });
    const faults = (await call(`${handle.url}/_emulator/faults`, { auth: null })).json as {
      faults: unknown[];
    };
    expect(faults.faults).toEqual([]);
  });

  it('creates and changes tunnels, and lists every job', async () => {
    const created = await call(`${handle.url}/_emulator/tunnels`, {
      method: 'POST',
      auth: null,
      json: { owner: DEMO_USER, tunnel_identifier: 'ci-tunnel', status: 'booting' },
    });
    expect(created.status).toBe(201);
    const { id } = created.json as { id: string };
    const store = handle.emulator.context.automation;
    expect(store.hasRunningTunnel(DEMO_USER, 'ci-tunnel')).toBe(false);
    const patched = await call(`${handle.url}/_emulator/tunnels/${id}`, {
      method: 'PATCH',
      auth: null,
      json: { status: 'running' },
    });
    expect(patched.json).toMatchObject({ status: 'running' });
    expect(store.hasRunningTunnel(DEMO_USER, 'ci-tunnel')).toBe(true);
    expect(
      (
        await call(`${handle.url}/_emulator/tunnels/${id}`, {
          method: 'PATCH',
          auth: null,
          json: { status: 'gone' },
        })
      ).status,
    ).toBe(400);
    const jobs = (await call(`${handle.url}/_emulator/jobs`, { auth: null })).json as { jobs: unknown[] };
    expect(jobs.jobs.length).toBeGreaterThanOrEqual(2);
  });
});
