import { describe, expect, it } from 'vitest';
import { DEMO_USER, withEmulator } from '../support/emulator.ts';
import { call } from '../support/http.ts';

describe('admin fault rules', () => {
  const handle = withEmulator();
  const addFault = (rule: Record<string, unknown>) =>
    call(`${handle.url}/_emulator/faults`, { method: 'POST', auth: null, json: rule });
  const tunnels = () => call(`${handle.url}/rest/v1/${DEMO_USER}/tunnels`);

  it('answers a status with Retry-After once, then serves normally', async () => {
    expect(
      (await addFault({ path: `/rest/v1/${DEMO_USER}/tunnels`, status: 503, retryAfter: 2 })).status,
    ).toBe(201);
    const faulted = await tunnels();
    expect(faulted.status).toBe(503);
    expect(faulted.headers.get('retry-after')).toBe('2');
    expect((await tunnels()).status).toBe(200);
  });

  it('applies a rule the given number of times, by method and regular expression, with a custom body', async () => {
    await addFault({ method: 'GET', path: '/\\/tunnels$/', status: 500, body: { boom: true }, times: 2 });
    await addFault({ method: 'POST', path: '/.*/', status: 418 });
    const first = await tunnels();
    expect(first.status).toBe(500);
    expect(first.json).toEqual({ boom: true });
    expect((await tunnels()).status).toBe(500);
    expect((await tunnels()).status).toBe(200);
    const listed = (await call(`${handle.url}/_emulator/faults`, { auth: null })).json as {
      faults: unknown[];
    };
    expect(listed.faults).toHaveLength(1);
    expect((await call(`${handle.url}/_emulator/faults`, { method: 'DELETE', auth: null })).json).toEqual({
      removed: 1,
    });
    expect(
      (await call(`${handle.url}/rest/v1/users/${DEMO_USER}/accesskey/change`, { method: 'POST' })).status,
    ).toBe(200);
  });

  it('delays an answer', async () => {
    await addFault({ path: '/rest/v1/info/status', delayMs: 150 });
    const started = Date.now();
    const answer = await call(`${handle.url}/rest/v1/info/status`, { auth: null });
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('cuts the connection without an answer', async () => {
    await addFault({ path: '/rest/v1/info/status', drop: true });
    await expect(fetch(`${handle.url}/rest/v1/info/status`)).rejects.toThrow();
    expect((await call(`${handle.url}/rest/v1/info/status`, { auth: null })).status).toBe(200);
  });

  it('refuses invalid rules and never faults admin paths', async () => {
    expect((await addFault({ status: 500 })).status).toBe(400);
    expect((await addFault({ path: '/(/', status: 500 })).status).toBe(400);
    await addFault({ path: '/.*/', status: 500 });
    expect((await call(`${handle.url}/_emulator/health`, { auth: null })).status).toBe(200);
  });
});
