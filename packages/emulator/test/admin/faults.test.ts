import net from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SMOKE_SUITE_ID } from '../../src/authoring/seed.ts';
import { createSampleApk } from '../../src/mobile/samples.ts';
import { BASIC as MOBILE_BASIC, streamUpload } from '../mobile/helpers.ts';
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
    // A body or Retry-After goes out only with a status; a rule that changes nothing is a mistake.
    for (const rule of [{ body: { a: 1 } }, { retryAfter: 3 }, {}, { drop: false }, { delayMs: 0 }]) {
      const refused = await addFault({ path: '/rest/v1/info/status', ...rule });
      expect(refused.status).toBe(400);
    }
    expect(
      ((await call(`${handle.url}/_emulator/faults`, { auth: null })).json as { faults: [] }).faults,
    ).toEqual([]);
    await addFault({ path: '/.*/', status: 500 });
    expect((await call(`${handle.url}/_emulator/health`, { auth: null })).status).toBe(200);
  });

  it('applies to a JSON POST: the status with Retry-After, and the request is not carried out', async () => {
    const runPath = `/v1/ai-authoring/testsuites/${SMOKE_SUITE_ID}/run`;
    await addFault({ method: 'POST', path: runPath, status: 503, retryAfter: 7, body: { error: 'busy' } });
    const jobs = async () =>
      ((await call(`${handle.url}/_emulator/jobs`, { auth: null })).json as { jobs: unknown[] }).jobs.length;
    const before = await jobs();
    const refused = await call(`${handle.url}${runPath}`, { method: 'POST', json: { buildName: 'f' } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('7');
    expect(refused.json).toEqual({ error: 'busy' });
    expect(await jobs()).toBe(before);
    const served = await call(`${handle.url}${runPath}`, { method: 'POST', json: { buildName: 'f' } });
    expect(served.status).toBe(200);
    expect(await jobs()).toBe(before + 3);
  });

  it('applies to multipart uploads: a status before the body is read, a delay, and a cut connection', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'fault-upload-'));
    try {
      const apk = path.join(dir, 'big.apk');
      // Several megabytes, so that the answer comes while the client is still sending.
      await createSampleApk(apk, {
        packageId: 'com.example.fault',
        name: 'Fault',
        version: '1.0',
        versionCode: 1,
        padding: 8 * 1024 * 1024,
      });
      const projects = async () =>
        (
          (await call(`${handle.url}/api/1/projects/`, { auth: MOBILE_BASIC })).json as {
            projects: unknown[];
          }
        ).projects.length;

      await addFault({ method: 'POST', path: '/api/upload/', status: 503, retryAfter: 5 });
      const refused = await streamUpload(handle, apk);
      expect(refused.status).toBe(503);
      expect(await projects()).toBe(0);

      await addFault({ method: 'POST', path: '/api/upload/', drop: true });
      await expect(streamUpload(handle, apk)).rejects.toThrow();
      expect(await projects()).toBe(0);

      await addFault({ method: 'POST', path: '/api/upload/', delayMs: 150 });
      const started = Date.now();
      const delayed = await streamUpload(handle, apk);
      expect(delayed.body).toMatchObject({ status: 'ok' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
      expect(await projects()).toBe(1);

      const journal = (await call(`${handle.url}/_emulator/requests`, { auth: null })).json as {
        requests: { method: string; path: string; status: number }[];
      };
      const uploads = journal.requests.filter((entry) => entry.path === '/api/upload/');
      expect(uploads.map((entry) => entry.status)).toEqual([503, 0, 200]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('applies to every interface, to paths no route serves, and by method only when one is given', async () => {
    await addFault({ path: '/.*/', status: 418, times: 5 });
    const paths = [
      '/api/2/projects',
      '/v1/ai-authoring/testcases',
      `/rest/v1.1/${DEMO_USER}/jobs`,
      '/rest/v1.2/users/demo/concurrency',
      '/no/such/route',
    ];
    for (const target of paths) expect((await call(`${handle.url}${target}`)).status).toBe(418);
    expect((await call(`${handle.url}/rest/v1/info/status`)).status).toBe(200);

    await addFault({ method: 'DELETE', path: `/rest/v1/${DEMO_USER}/tunnels`, status: 500 });
    expect((await tunnels()).status).toBe(200);
  });

  it('matches a request target in absolute form by its path', async () => {
    await addFault({ path: '/rest/v1/info/status', status: 502 });
    const port = Number(new URL(handle.url).port);
    const statusLine = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(
          `GET http://127.0.0.1:${port}/rest/v1/info/status HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
        );
      });
      let data = '';
      socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
      socket.on('end', () => resolve(data.split('\r\n')[0] ?? ''));
      socket.on('error', reject);
    });
    expect(statusLine).toBe('HTTP/1.1 502 Bad Gateway');
  });
});
