import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SMOKE_CASE_IDS } from '../../src/authoring/seed.ts';
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
    const script = { testCase: 'Login works', outcomes: ['failed', 'passed'] };
    await call(`${running.url}/_emulator/outcomes`, { method: 'POST', auth: null, json: script });
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
    expect((await call(`${running.url}/_emulator/outcomes`, { auth: null })).json).toEqual({
      outcomes: [
        { testCaseId: SMOKE_CASE_IDS[0], testCaseName: 'Login works', outcomes: ['failed', 'passed'] },
      ],
    });
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

  it('lists jobs in the same order after a restart, and goes on numbering build names', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'emulator-data-'));
    let now = Date.UTC(2026, 0, 1, 12);
    const clock = () => now;
    running = await startEmulator({ port: 0, dataDir: dir, clock, jobDurationMs: 60_000 });
    const create = (name: string, at: number) => {
      now = at;
      return running!.context.automation.jobs.create({
        name,
        build: 'b',
        browser: 'chrome',
        os: 'Linux',
        passes: true,
      }).id;
    };
    const start = now;
    // Three of one millisecond, then one older than the newest (a clock set back), then the
    // case runs' jobs in that same older millisecond.
    for (const name of ['tie 1', 'tie 2', 'tie 3']) create(name, start + 1000);
    create('older', start + 500);
    const build = async (base: string) => {
      const run = await call(`${base}/v1/ai-authoring/testcases/${SMOKE_CASE_IDS[0]}/run`, {
        method: 'POST',
        json: { buildName: 'Nightly' },
      });
      return (run.json as { data: { build: string } }).data.build;
    };
    expect([await build(running.url), await build(running.url)]).toEqual(['Nightly', 'Nightly - 1']);
    const list = async () => {
      const answer = await call(`${running!.url}/rest/v1/${DEMO_USER}/jobs?full=true&limit=1000`);
      return (answer.json as { name: string }[]).map((job) => job.name);
    };
    const before = await list();
    expect(before.slice(0, 6)).toEqual(['tie 1', 'tie 2', 'tie 3', 'older', 'Login works', 'Login works']);
    const records = structuredClone(running.context.snapshot());
    await running.close();
    running = undefined;
    // The kept state is the records themselves, nothing derived from them.
    const state = JSON.parse(await readFile(path.join(dir, 'state.json'), 'utf8'));
    expect(state).toEqual(JSON.parse(JSON.stringify(records)));
    expect(state.authoring.buildNames).toEqual(['Nightly', 'Nightly - 1']);

    running = await startEmulator({ port: 0, dataDir: dir, clock, jobDurationMs: 60_000 });
    expect(await list()).toEqual(before);
    const tie2 = Object.values(running.context.automation.data.jobs).find((job) => job.name === 'tie 2')!;
    expect(
      (await call(`${running.url}/rest/v1/${DEMO_USER}/jobs/${tie2.id}`, { method: 'DELETE' })).status,
    ).toBe(200);
    expect(await list()).toEqual(before.filter((name) => name !== 'tie 2'));
    expect(await build(running.url)).toBe('Nightly - 2');
  });
});
