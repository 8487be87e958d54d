import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { DEMO_USER, withEmulator } from '../support/emulator.ts';
import { call } from '../support/http.ts';

describe('automation storage, JS unit tests and bugs', () => {
  const handle = withEmulator({ jobDurationMs: 50 });
  const rest = (path: string) => `${handle.url}/rest/v1${path}`;
  const octets = { 'content-type': 'application/octet-stream' };

  it('stores raw uploads, refuses to overwrite unless asked, and lists them', async () => {
    const bytes = Buffer.alloc(256 * 1024, 7);
    const stored = await call(rest(`/storage/${DEMO_USER}/app.zip`), {
      method: 'POST',
      headers: octets,
      body: bytes,
    });
    expect(stored.status).toBe(200);
    const md5 = createHash('md5').update(bytes).digest('hex');
    expect(stored.json).toMatchObject({ filename: 'app.zip', size: bytes.length, md5 });
    const store = handle.emulator.context.automation;
    expect(await readFile(store.storage.path(DEMO_USER, 'app.zip'))).toEqual(bytes);

    const refused = await call(rest(`/storage/${DEMO_USER}/app.zip`), {
      method: 'POST',
      headers: octets,
      body: 'x',
    });
    expect(refused.status).toBe(409);
    expect(await readFile(store.storage.path(DEMO_USER, 'app.zip'))).toEqual(bytes);
    const replaced = await call(rest(`/storage/${DEMO_USER}/app.zip?overwrite=true`), {
      method: 'POST',
      headers: octets,
      body: 'new',
    });
    expect(replaced.json).toMatchObject({ size: 3 });
    const list = (await call(rest(`/storage/${DEMO_USER}`))).json as {
      files: { name: string; size: number }[];
    };
    expect(list.files).toEqual([expect.objectContaining({ name: 'app.zip', size: 3 })]);
    const dotted = await call(rest(`/storage/${DEMO_USER}/a%5Cb`), {
      method: 'POST',
      headers: octets,
      body: 'x',
    });
    expect(dotted.status).toBe(400);
  });

  it('runs JS unit tests, one job per platform, with placeholder job ids until assigned', async () => {
    const ctx = handle.emulator.context;
    let now = Date.now();
    ctx.now = () => now;
    const platforms = [
      ['Windows 10', 'chrome', 'latest'],
      ['Linux', 'firefox', '128'],
    ];
    const started = await call(rest(`/${DEMO_USER}/js-tests`), {
      method: 'POST',
      json: { platforms, url: 'https://example.com/tests.html', framework: 'qunit', build: 'js-1' },
    });
    expect(started.status).toBe(200);
    const ids = (started.json as { 'js tests': string[] })['js tests'];
    expect(ids).toHaveLength(2);
    const status = () =>
      call(rest(`/${DEMO_USER}/js-tests/status`), { method: 'POST', json: { 'js tests': ids } }).then(
        (answer) =>
          answer.json as {
            completed: boolean;
            'js tests': { job_id: string; result: unknown; platform: string[] }[];
          },
      );
    const queued = await status();
    expect(queued.completed).toBe(false);
    expect(queued['js tests'].every((test) => test.job_id === 'job not ready' && test.result === null)).toBe(
      true,
    );
    expect(queued['js tests'][1]!.platform).toEqual(platforms[1]);
    now += 100;
    const done = await status();
    expect(done.completed).toBe(true);
    for (const test of done['js tests']) {
      expect(test.job_id).toMatch(/^[0-9a-f]{32}$/);
      expect(test.result).toMatchObject({ passed: 3, total: 3, failed: 0 });
      expect(ctx.automation.jobs.get(test.job_id)?.build).toBe('js-1');
    }
  });

  it('fails every platform for a URL containing "fail", in the framework shape', async () => {
    const ctx = handle.emulator.context;
    let now = Date.now();
    ctx.now = () => now;
    const started = await call(rest(`/${DEMO_USER}/js-tests`), {
      method: 'POST',
      json: {
        platforms: [['Linux', 'chrome', 'latest']],
        url: 'https://example.com/fail.html',
        framework: 'mocha',
      },
    });
    const ids = (started.json as { 'js tests': string[] })['js tests'];
    now += 100;
    const done = (
      await call(rest(`/${DEMO_USER}/js-tests/status`), { method: 'POST', json: { 'js tests': ids } })
    ).json as { 'js tests': { result: { failures: number } }[] };
    expect(done['js tests'][0]!.result.failures).toBeGreaterThan(0);
  });

  it('refuses invalid JS test input and unknown tunnels', async () => {
    const bad = await call(rest(`/${DEMO_USER}/js-tests`), { method: 'POST', json: { url: 'https://x' } });
    expect(bad.status).toBe(400);
    const tunnel = await call(rest(`/${DEMO_USER}/js-tests`), {
      method: 'POST',
      json: {
        platforms: [['Linux', 'chrome', '1']],
        url: 'https://x',
        framework: 'custom',
        tunnelIdentifier: 'nope',
      },
    });
    expect(tunnel.status).toBe(400);
    const unknown = await call(rest(`/${DEMO_USER}/js-tests/status`), {
      method: 'POST',
      json: { 'js tests': ['x'] },
    });
    expect(unknown.status).toBe(404);
  });

  it('serves bug types publicly and lets the owner read, query and update bugs', async () => {
    const types = (await call(rest('/bugs/types'), { auth: null })).json as { id: string }[];
    expect(types.map((type) => type.id)).toContain('functional');
    expect((await call(rest('/bugs/types/functional'), { auth: null })).json).toHaveProperty('fields');
    expect((await call(rest('/bugs/detail/b0000000000000000000000000000001'), { auth: null })).status).toBe(
      401,
    );
    const id = 'b0000000000000000000000000000001';
    expect((await call(rest(`/bugs/detail/${id}`))).json).toMatchObject({ id, Title: expect.any(String) });
    const query = await call(rest(`/bugs/query/?ids=${encodeURIComponent(JSON.stringify([id, 'other']))}`));
    expect(query.json).toHaveLength(1);
    expect((await call(rest('/bugs/query?ids=not-json'))).status).toBe(400);
    const update = (patch: unknown) =>
      call(rest(`/bugs/update/${id}?update=${encodeURIComponent(JSON.stringify(patch))}`), { method: 'PUT' });
    const changed = await update({ Title: 'New title' });
    expect(changed.json).toMatchObject({ Title: 'New title' });
    expect((await update({ Severity: 'high' })).status).toBe(400);
  });
});
