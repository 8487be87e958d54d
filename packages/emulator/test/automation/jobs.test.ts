import { describe, expect, it } from 'vitest';
import { basic, DEMO_USER, withEmulator } from '../support/emulator.ts';
import { call } from '../support/http.ts';

describe('automation jobs', () => {
  const handle = withEmulator({ jobDurationMs: 60 });
  const rest = (path: string) => `${handle.url}/rest/v1${path}`;
  const newJob = (passes = true, name = 'job') =>
    handle.emulator.context.automation.jobs.create({
      name,
      build: 'b1',
      browser: 'chrome',
      os: 'Linux',
      passes,
    }).id;

  it('moves a job from queued through in progress to complete with its outcome', async () => {
    // Time is moved by hand so that the transitions are checked without racing the clock.
    const ctx = handle.emulator.context;
    let now = Date.now();
    ctx.now = () => now;
    const id = newJob(false);
    const first = await call(rest(`/${DEMO_USER}/jobs/${id}`));
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      id,
      status: 'queued',
      passed: null,
      start_time: null,
      end_time: null,
    });
    now += 30;
    expect((await call(rest(`/${DEMO_USER}/jobs/${id}`))).json).toMatchObject({
      status: 'in progress',
      passed: null,
    });
    now += 40;
    const done = (await call(rest(`/${DEMO_USER}/jobs/${id}`))).json as Record<string, unknown>;
    expect(done).toMatchObject({
      status: 'complete',
      passed: false,
      consolidated_status: 'failed',
      owner: 'demo',
    });
    for (const field of ['creation_time', 'start_time', 'end_time', 'modification_time']) {
      expect(Number.isInteger(done[field])).toBe(true);
    }
    expect(done['log_url']).toMatch(new RegExp(`/jobs/${id}/assets/`));
    expect(done).toHaveProperty('custom-data');
    expect(newJob(true)).not.toBe(id);
    now += 100;
    const passing = (await call(rest(`/${DEMO_USER}/jobs?full=true&limit=1`))).json as Record<
      string,
      unknown
    >[];
    expect(passing[0]).toMatchObject({ status: 'complete', passed: true, consolidated_status: 'passed' });
  });

  it('lists ids by default, whole jobs with full=true, honouring limit and skip', async () => {
    const ids = [newJob(), newJob(), newJob()];
    const list = await call(rest(`/${DEMO_USER}/jobs?limit=2`));
    expect(list.status).toBe(200);
    expect(list.json).toHaveLength(2);
    expect((list.json as { id: string }[]).every((job) => Object.keys(job).length === 1)).toBe(true);
    const all = (await call(rest(`/${DEMO_USER}/jobs`))).json as { id: string }[];
    expect(all.map((job) => job.id)).toEqual(expect.arrayContaining(ids));
    const skipped = (await call(rest(`/${DEMO_USER}/jobs?skip=1&limit=100`))).json as { id: string }[];
    expect(skipped).toHaveLength(all.length - 1);
    const full = (await call(rest(`/${DEMO_USER}/jobs?full=true&limit=1`))).json as Record<string, unknown>[];
    expect(full[0]).toHaveProperty('status');
    expect(full[0]).toHaveProperty('browser', 'chrome');
  });

  it('filters by inclusive creation-time bounds and answers csv', async () => {
    const seeded = (await call(rest(`/${DEMO_USER}/jobs?full=true`))).json as {
      id: string;
      creation_time: number;
    }[];
    const oldest = seeded.at(-1)!;
    const exact = (
      await call(rest(`/${DEMO_USER}/jobs?from=${oldest.creation_time}&to=${oldest.creation_time}`))
    ).json as { id: string }[];
    expect(exact.map((job) => job.id)).toContain(oldest.id);
    const none = (await call(rest(`/${DEMO_USER}/jobs?to=${oldest.creation_time - 1}`))).json;
    expect(none).toEqual([]);
    const csv = await call(rest(`/${DEMO_USER}/jobs?format=csv`));
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toMatch(/^id,name,build,status/);
    expect(lines).toHaveLength(seeded.length + 1);
  });

  it('answers the official client: v1.1 list wrapped in jobs', async () => {
    newJob();
    const wrapped = await call(`${handle.url}/rest/v1.1/${DEMO_USER}/jobs?limit=5`);
    expect(wrapped.status).toBe(200);
    expect(Array.isArray((wrapped.json as { jobs: unknown[] }).jobs)).toBe(true);
  });

  it('updates tags, name, custom-data and refuses invalid input', async () => {
    const id = newJob();
    const updated = await call(rest(`/${DEMO_USER}/jobs/${id}`), {
      method: 'PUT',
      json: { tags: ['a', 'b'], name: 'renamed', 'custom-data': { ticket: 7 } },
    });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ name: 'renamed', tags: ['a', 'b'], 'custom-data': { ticket: 7 } });
    const bad = await call(rest(`/${DEMO_USER}/jobs/${id}`), {
      method: 'PUT',
      json: { tags: [{ not: 'text' }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'invalid_request' });
    expect(typeof (bad.json as { message: string }).message).toBe('string');
  });

  it('stops a running job as error, with an empty JSON-typed body', async () => {
    const ctx = handle.emulator.context;
    let now = Date.now();
    ctx.now = () => now;
    const id = newJob();
    const stopped = await call(rest(`/${DEMO_USER}/jobs/${id}/stop`), {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
    });
    expect(stopped.status).toBe(200);
    expect(stopped.json).toMatchObject({ id, status: 'error', consolidated_status: 'error', passed: null });
    now += 1000;
    expect((await call(rest(`/${DEMO_USER}/jobs/${id}`))).json).toMatchObject({ status: 'error' });
  });

  it('lists, downloads and deletes assets of a finished job', async () => {
    const ctx = handle.emulator.context;
    let now = Date.now();
    ctx.now = () => now;
    const id = newJob(true);
    const early = (await call(rest(`/${DEMO_USER}/jobs/${id}/assets`))).json as Record<string, unknown>;
    expect(early['sauce-log']).toBeNull();
    now += 100;
    const assets = (await call(rest(`/${DEMO_USER}/jobs/${id}/assets`))).json as Record<string, unknown>;
    expect(assets).toMatchObject({
      'sauce-log': 'log.json',
      'selenium-log': 'selenium-server.log',
      video: null,
    });
    const log = await call(rest(`/${DEMO_USER}/jobs/${id}/assets/selenium-server.log`));
    expect(log.status).toBe(200);
    expect(log.text).toContain(id);
    const screenshot = await fetch(rest(`/${DEMO_USER}/jobs/${id}/assets/0000screenshot.png`), {
      headers: { authorization: basic() },
    });
    expect(screenshot.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await screenshot.arrayBuffer());
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect((await call(rest(`/${DEMO_USER}/jobs/${id}/assets/video.mp4`))).status).toBe(404);
    expect((await call(rest(`/${DEMO_USER}/jobs/${id}/assets`), { method: 'DELETE' })).status).toBe(200);
    const after = (await call(rest(`/${DEMO_USER}/jobs/${id}/assets`))).json as Record<string, unknown>;
    expect(after['sauce-log']).toBeNull();
    expect((await call(rest(`/${DEMO_USER}/jobs/${id}/assets/log.json`))).status).toBe(404);
  });

  it('deletes a job with its assets', async () => {
    const id = newJob();
    expect((await call(rest(`/${DEMO_USER}/jobs/${id}`), { method: 'DELETE' })).status).toBe(200);
    expect((await call(rest(`/${DEMO_USER}/jobs/${id}`))).status).toBe(404);
    expect((await call(rest(`/${DEMO_USER}/jobs/${id}/assets`))).status).toBe(404);
  });

  it('answers 401 without or with wrong credentials, 403 for another account, 404 for unknown jobs', async () => {
    expect((await call(rest(`/${DEMO_USER}/jobs`), { auth: null })).status).toBe(401);
    const wrong = await call(rest(`/${DEMO_USER}/jobs`), { auth: basic(DEMO_USER, 'nope') });
    expect(wrong.status).toBe(401);
    expect(wrong.text).not.toContain('nope');
    expect((await call(rest(`/someone-else/jobs`))).status).toBe(403);
    expect((await call(rest(`/${DEMO_USER}/jobs/0123456789abcdef0123456789abcdef`))).status).toBe(404);
  });
});
