import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { SCREENSHOT_ARTIFACT_ID, UNASSIGNED_CASE_IDS } from '../authoring/fixtures.ts';
import { API_KEY, BASIC as MOBILE_BASIC, OIDC } from '../mobile/helpers.ts';
import { basic, DEMO_ACCESS_KEY, DEMO_USER, withEmulator } from '../support/emulator.ts';
import { call } from '../support/http.ts';

/** Sends one request as written, request line included, and answers the status line. */
function rawRequest(baseUrl: string, requestLine: string): Promise<string> {
  const { port, host } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      socket.write(`${requestLine}\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    });
    let data = '';
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    socket.on('end', () => resolve(data.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

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

  it('takes credentials written in the request URL, and keeps them out of the journal', async () => {
    const { host } = new URL(handle.url);
    const line = await rawRequest(
      handle.url,
      `GET http://${DEMO_USER}:${DEMO_ACCESS_KEY}@${host}/rest/v1/${DEMO_USER}/jobs?limit=1 HTTP/1.1`,
    );
    expect(line).toBe('HTTP/1.1 200 OK');
    const [entry] = await journal();
    expect(entry).toMatchObject({ method: 'GET', path: `/rest/v1/${DEMO_USER}/jobs`, query: { limit: '1' } });
    expect(JSON.stringify(await journal())).not.toContain(DEMO_ACCESS_KEY);
  });

  it('masks a known secret wherever a request puts it, and records no header or upload field', async () => {
    // In a query member whose name does not say credential, and in the path.
    await call(`${handle.url}/rest/v1/${DEMO_USER}/jobs?note=${DEMO_ACCESS_KEY}&x=a${API_KEY}b`);
    await call(`${handle.url}/rest/v1/storage/${DEMO_USER}/${encodeURIComponent(`${DEMO_ACCESS_KEY}.txt`)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: 'x',
    });
    // Mobile credentials: Basic, bearer with its configuration key, a legacy query key, the upload form field.
    await call(`${handle.url}/api/1/testers`, { auth: MOBILE_BASIC });
    await call(`${handle.url}/api/1/groups/`, { auth: null, headers: OIDC });
    await call(`${handle.url}/api/1/feedbacks/?api_key=${API_KEY}`, { auth: null });
    const form = new FormData();
    form.append('api_key', API_KEY);
    await fetch(`${handle.url}/api/upload/`, { method: 'POST', body: form });

    const entries = await journal();
    expect(entries.map((entry) => entry.path)).toEqual([
      `/rest/v1/${DEMO_USER}/jobs`,
      `/rest/v1/storage/${DEMO_USER}/***.txt`,
      '/api/1/testers',
      '/api/1/groups/',
      '/api/1/feedbacks/',
      '/api/upload/',
    ]);
    expect(entries[0]!.query).toEqual({ note: '***', x: 'a***b' });
    expect(entries[4]!.query).toEqual({});
    const text = JSON.stringify(entries);
    for (const secret of [DEMO_ACCESS_KEY, API_KEY, OIDC.authorization, OIDC['x-oidc-config-key'], 'Basic']) {
      expect(text).not.toContain(secret);
    }
  });

  it('resets state, files, faults and the journal back to the seed', async () => {
    const ctx = handle.emulator.context;
    const id = ctx.automation.jobs.create({
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
    // The other interfaces' routes, which hold their own stores, see the seed again too.
    const testCase = `${handle.url}/v1/ai-authoring/testcases/${UNASSIGNED_CASE_IDS[0]}`;
    expect((await call(testCase, { method: 'DELETE', auth: basic() })).status).toBe(204);
    const groups = `${handle.url}/api/1/testers/groups`;
    const group = await call(groups, {
      method: 'POST',
      auth: MOBILE_BASIC,
      json: { groupName: 'before-reset' },
    });
    expect(group.status).toBe(200);
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
    // The seed's own stored files are back with it.
    const artifact = await call(`${handle.url}/v1/ai-authoring/storage/${SCREENSHOT_ARTIFACT_ID}`);
    expect(artifact.status).toBe(200);
    expect((await call(testCase, { auth: basic() })).status).toBe(200);
    expect((await call(groups, { auth: MOBILE_BASIC })).text).not.toContain('before-reset');
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
    expect(store.tunnels.hasRunning(DEMO_USER, 'ci-tunnel')).toBe(false);
    const patched = await call(`${handle.url}/_emulator/tunnels/${id}`, {
      method: 'PATCH',
      auth: null,
      json: { status: 'running' },
    });
    expect(patched.json).toMatchObject({ status: 'running' });
    expect(store.tunnels.hasRunning(DEMO_USER, 'ci-tunnel')).toBe(true);
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
