import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.ts';
import { DEMO_USER } from '../support/emulator.ts';
import { call } from '../support/http.ts';

describe('--data-dir', () => {
  let dir: string | undefined;
  let running: RunningEmulator | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps state and stored files across a restart', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'emulator-data-'));
    running = await startEmulator({ port: 0, dataDir: dir, jobDurationMs: 20 });
    const jobId = running.context.automation.jobs.create({
      name: 'kept',
      build: 'b',
      browser: 'chrome',
      os: 'Linux',
      passes: true,
    }).id;
    await call(`${running.url}/rest/v1/storage/${DEMO_USER}/kept.txt`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: 'kept bytes',
    });
    const changed = await call(`${running.url}/rest/v1/users/${DEMO_USER}/accesskey/change`, {
      method: 'POST',
    });
    const { access_key: key } = changed.json as { access_key: string };
    await running.close();
    running = undefined;
    const state = JSON.parse(await readFile(path.join(dir, 'state.json'), 'utf8'));
    expect(Object.keys(state.automation.jobs)).toContain(jobId);

    running = await startEmulator({ port: 0, dataDir: dir });
    const auth = `Basic ${Buffer.from(`${DEMO_USER}:${key}`).toString('base64')}`;
    const job = await call(`${running.url}/rest/v1/${DEMO_USER}/jobs/${jobId}`, { auth });
    expect(job.json).toMatchObject({ id: jobId, name: 'kept', status: 'complete' });
    expect((await call(`${running.url}/rest/v1/storage/${DEMO_USER}`, { auth })).json).toMatchObject({
      files: [{ name: 'kept.txt', size: 10 }],
    });
    expect(await readFile(running.context.automation.storage.path(DEMO_USER, 'kept.txt'), 'utf8')).toBe(
      'kept bytes',
    );
  });

  it('writes state shortly after a change, before close', async () => {
    const here = await mkdtemp(path.join(os.tmpdir(), 'emulator-data-'));
    dir = here;
    running = await startEmulator({ port: 0, dataDir: here });
    running.context.automation.tunnels.create({ owner: DEMO_USER, tunnel_identifier: 'saved' });
    // Written in its own time, without the emulator closing: looked for until it is there.
    const names = async (): Promise<string[]> => {
      const text = await readFile(path.join(here, 'state.json'), 'utf8').catch(() => '');
      if (text === '') return [];
      const state = JSON.parse(text);
      return Object.values(state.automation.tunnels).map(
        (tunnel) => (tunnel as { tunnel_identifier: string }).tunnel_identifier,
      );
    };
    while (!(await names()).includes('saved')) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await names()).toContain('saved');
  });
});
