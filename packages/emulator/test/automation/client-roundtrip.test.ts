import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SauceClient } from '@sauce-actions/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ACCESS_KEY, DEMO_USER, withEmulator } from '../support/emulator.ts';

describe('automation round trips through SauceClient', () => {
  let now = Date.now();
  const handle = withEmulator({ clock: () => now });
  let client: SauceClient;
  let dir: string;

  beforeEach(async () => {
    client = new SauceClient({ username: DEMO_USER, accessKey: DEMO_ACCESS_KEY, apiUrl: handle.url });
    dir = await mkdtemp(path.join(os.tmpdir(), 'emulator-client-'));
    now = Date.now();
  });
  afterEach(async () => {
    await client.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists, updates, stops and deletes jobs and their assets', async () => {
    const store = handle.emulator.context.automation;
    const running = store.jobs.create({
      name: 'run',
      build: 'b',
      browser: 'chrome',
      os: 'Linux',
      passes: true,
    }).id;
    const refs = await client.automation.jobs.list({ limit: 10 });
    expect(refs.map((ref) => ref.id)).toContain(running);
    const full = await client.automation.jobs.list({ full: true, limit: 1 });
    expect(full[0]).toMatchObject({ id: running, status: 'queued' });

    const updated = await client.automation.jobs.update(running, { name: 'renamed', customData: { a: 1 } });
    expect(updated).toMatchObject({ name: 'renamed', 'custom-data': { a: 1 } });
    const stopped = await client.automation.jobs.stop(running);
    expect(stopped).toMatchObject({ status: 'error' });

    const finished = store.jobs.create({
      name: 'done',
      build: 'b',
      browser: 'chrome',
      os: 'Linux',
      passes: false,
    }).id;
    now += 10_000;
    expect(await client.automation.jobs.get(finished)).toMatchObject({ status: 'complete', passed: false });
    const assets = await client.automation.assets.list(finished);
    expect(assets['selenium-log']).toBe('selenium-server.log');
    const saved = await client.automation.assets.download(finished, 'selenium-server.log', dir);
    expect(await readFile(saved.path, 'utf8')).toContain(finished);
    await client.automation.assets.delete(finished);
    expect((await client.automation.assets.list(finished))['selenium-log']).toBeNull();
    await client.automation.jobs.delete(finished);
    await expect(client.automation.jobs.get(finished)).rejects.toMatchObject({ status: 404 });
  });

  it('reads accounts and tunnels, and shuts a tunnel down with a reason', async () => {
    expect(await client.automation.users.get()).toMatchObject({ username: DEMO_USER });
    const concurrency = await client.automation.users.getConcurrency();
    expect(concurrency).toHaveProperty('concurrency');
    const [id] = await client.automation.tunnels.list();
    expect(await client.automation.tunnels.get(id!)).toMatchObject({ tunnel_identifier: 'demo-tunnel' });
    expect(await client.automation.tunnels.delete(id!, { reason: 'test over' })).toEqual({
      result: true,
      id,
      jobs_running: 0,
    });
    expect(await client.automation.tunnels.list()).toEqual([]);
  });

  it('reads the account’s activity over the duration it asks for, 90 days when it names none', async () => {
    expect(await client.automation.users.getUserActivity({ duration: 7 })).toMatchObject({
      username: DEMO_USER,
      duration_days: 7,
    });
    expect(await client.automation.users.getUserActivity()).toMatchObject({ duration_days: 90 });
  });

  it('uploads to temporary storage and runs JS unit tests', async () => {
    const file = path.join(dir, 'page.zip');
    await writeFile(file, 'zip bytes');
    expect(await client.automation.storage.upload(file)).toMatchObject({ filename: 'page.zip', size: 9 });
    await expect(client.automation.storage.upload(file)).rejects.toMatchObject({ status: 409 });
    expect((await client.automation.storage.list()).files.map((entry) => entry.name)).toEqual(['page.zip']);

    const started = await client.automation.jsTests.start({
      platforms: [['Linux', 'chrome', 'latest']],
      url: 'https://example.com/fail.html',
      framework: 'jasmine',
    });
    const ids = started['js tests'];
    now += 10_000;
    const status = await client.automation.jsTests.getStatus(ids);
    expect(status.completed).toBe(true);
    expect(status['js tests'][0]).toMatchObject({ result: { passed: false } });
  });

  it('reads public information and bugs', async () => {
    expect(await client.automation.info.getStatus()).toMatchObject({ service_operational: true });
    expect((await client.automation.info.listPlatforms('webdriver')).length).toBeGreaterThan(0);
    expect((await client.automation.bugs.listTypes()).length).toBeGreaterThan(0);
    const bugs = await client.automation.bugs.query(['b0000000000000000000000000000001']);
    expect(bugs).toHaveLength(1);
  });
});
