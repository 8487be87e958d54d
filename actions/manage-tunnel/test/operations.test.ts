/** `wait`, `list`, `stop` and the post step, run from the bundle through the harness against the emulator. */
import type { StepResult } from '@sauce-actions/action-harness';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ACCESS_KEY,
  allTunnels,
  changeAfterListing,
  createTunnel,
  errors,
  runAction,
  tunnelById,
  USERNAME,
  admin,
} from './helpers.ts';

let emulator: RunningEmulator;
const steps: StepResult[] = [];

beforeEach(async () => {
  emulator = await startEmulator({ port: 0, jobDurationMs: 60_000 });
});

afterEach(async () => {
  await Promise.all(steps.splice(0).map((step) => step.cleanup()));
  await emulator.close();
});

async function step(inputs: Record<string, string>): Promise<StepResult> {
  const result = await runAction(emulator.url, inputs);
  steps.push(result);
  return result;
}

async function demoTunnel(): Promise<{ id: string; status: string }> {
  const tunnel = (await allTunnels(emulator.url)).find((t) => t.tunnel_identifier === 'demo-tunnel');
  if (!tunnel) throw new Error('the seed has no demo-tunnel');
  return tunnel;
}

function expectNoKey(result: StepResult): void {
  for (const phase of [result, result.post]) {
    if (!phase) continue;
    expect(phase.unmaskedLog).not.toContain(ACCESS_KEY);
    expect(phase.summary).not.toContain(ACCESS_KEY);
    expect(JSON.stringify(phase.outputs)).not.toContain(ACCESS_KEY);
  }
}

describe('wait', () => {
  it('waits until the named tunnel runs, outputs its id, and by default leaves it up after the job', async () => {
    const tunnel = await createTunnel(emulator.url, { tunnel_identifier: 'ci-tunnel', status: 'booting' });
    const started = changeAfterListing(emulator.url, tunnel.id, 'running');
    const result = await step({ 'tunnel-name': 'ci-tunnel', 'poll-interval': '1s', timeout: '15s' });
    await started;

    expect(errors(result)).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.outputs['tunnel-id']).toBe(tunnel.id);
    expect(JSON.parse(result.outputs.tunnels as string)[0]).toMatchObject({
      id: tunnel.id,
      status: 'running',
    });
    expect(result.log).toContain(`${tunnel.id} booting`);
    expect(result.summary).toContain('ci-tunnel');
    expect(result.summary).toContain('`stop-on-exit: started`');
    // A tunnel the step only waited for may be shared: the post step leaves it alone.
    expect(result.state.cleanup).toBeUndefined();
    expect(result.post?.exitCode).toBe(0);
    expect(result.post?.log).toContain('Nothing to clean up');
    expect((await tunnelById(emulator.url, tunnel.id))?.status).toBe('running');
    expectNoKey(result);
  });

  it('deletes the tunnel it waited for in the post step with stop-on-exit true', async () => {
    const tunnel = await createTunnel(emulator.url, { tunnel_identifier: 'ci-tunnel', status: 'running' });
    const result = await step({ 'tunnel-name': 'ci-tunnel', 'stop-on-exit': 'true', 'poll-interval': '1s' });

    expect(errors(result)).toBe('');
    expect(result.outputs['tunnel-id']).toBe(tunnel.id);
    expect(JSON.parse(result.state.cleanup as string)).toEqual({
      tunnels: [{ id: tunnel.id, name: 'ci-tunnel', origin: 'waited' }],
    });
    expect(result.post?.exitCode).toBe(0);
    expect(result.post?.log).toContain(
      `Deleted tunnel ${tunnel.id} ("ci-tunnel"), which this step waited for (\`stop-on-exit: true\`).`,
    );
    expect(await tunnelById(emulator.url, tunnel.id)).toMatchObject({
      status: 'terminated',
      user_shutdown: true,
    });
    // Only what the step waited for is deleted.
    expect((await demoTunnel()).status).toBe('running');
    expectNoKey(result);
  });

  it('refuses a stop-on-exit that is not started, true or false, before any request', async () => {
    const result = await step({ 'tunnel-name': 'demo-tunnel', 'stop-on-exit': 'yes' });
    expect(result.exitCode).toBe(1);
    expect(errors(result)).toContain('Input "stop-on-exit" has "yes". Allowed: `started`');
    expect(result.post?.log).toContain('Nothing to clean up');
    const journal = await admin<{ requests: unknown[] }>(emulator.url, 'GET', 'requests');
    expect(journal.requests).toEqual([]);
  });

  it('finds a tunnel by id', async () => {
    const demo = await demoTunnel();
    const result = await step({ 'tunnel-id': demo.id, 'stop-on-exit': 'false', 'poll-interval': '1s' });
    expect(result.exitCode).toBe(0);
    expect(result.outputs['tunnel-id']).toBe(demo.id);
  });

  it('picks the newest of several running tunnels with the name, and says so', async () => {
    const demo = await demoTunnel();
    const newer = await createTunnel(emulator.url, { tunnel_identifier: 'demo-tunnel', status: 'running' });
    const result = await step({ 'tunnel-name': 'demo-tunnel', 'stop-on-exit': 'false' });

    expect(result.exitCode).toBe(0);
    expect(result.outputs['tunnel-id']).toBe(newer.id);
    expect(result.log).toContain(`2 running tunnels match`);
    expect(result.log).toContain(`using the newest, ${newer.id}`);
    // stop-on-exit false: the post step leaves both up.
    expect(result.state.cleanup).toBeUndefined();
    expect(result.post?.log).toContain('Nothing to clean up');
    expect((await tunnelById(emulator.url, newer.id))?.status).toBe('running');
    expect((await tunnelById(emulator.url, demo.id))?.status).toBe('running');
  });

  it('ignores tunnels of other users and fails at the timeout, naming the tunnel', async () => {
    await createTunnel(emulator.url, {
      tunnel_identifier: 'theirs',
      status: 'running',
      owner: 'someone-else',
    });
    await createTunnel(emulator.url, { tunnel_identifier: 'theirs', status: 'booting' });
    const started = Date.now();
    const result = await step({ 'tunnel-name': 'theirs', timeout: '1s', 'poll-interval': '1s' });

    expect(result.exitCode).toBe(1);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(errors(result)).toContain('tunnel named "theirs" of user demo was not running within 1s');
    expect(errors(result)).toContain('booting');
    expect(result.summary).toContain('<h2>Manage tunnel: timed out</h2>');
    expect(result.post?.exitCode).toBe(0);
    expect(result.post?.log).toContain('Nothing to clean up');
    expect((await allTunnels(emulator.url)).filter((t) => t.status === 'terminated')).toEqual([]);
  });

  it('refuses a wait without a name or id, and an unknown operation, listing the allowed ones', async () => {
    const noName = await step({});
    expect(noName.exitCode).toBe(1);
    expect(errors(noName)).toContain('Input "tunnel-name" is required by `operation: wait`');
    expect(noName.summary).toContain('<h2>Manage tunnel: bad input</h2>');

    const unknown = await step({ operation: 'restart', 'tunnel-name': 'x' });
    expect(unknown.exitCode).toBe(1);
    expect(errors(unknown)).toContain('Input "operation" has "restart"');
    expect(errors(unknown)).toMatch(/`wait`, `list`, `stop`/);
  });
});

describe('list', () => {
  it('outputs the tunnels as JSON and writes a table', async () => {
    const extra = await createTunnel(emulator.url, { tunnel_identifier: 'nightly', status: 'booting' });
    const result = await step({ operation: 'list' });

    expect(result.exitCode).toBe(0);
    const listed = JSON.parse(result.outputs.tunnels as string) as {
      id: string;
      tunnel_identifier: string;
    }[];
    expect(listed.map((t) => t.tunnel_identifier).sort()).toEqual(['demo-tunnel', 'nightly']);
    // Newest first.
    expect(listed[0]?.id).toBe(extra.id);
    expect(result.outputs['tunnel-id']).toBe((await demoTunnel()).id);
    for (const header of ['Name', 'Id', 'Status', 'Owner', 'Started', 'Host'])
      expect(result.summary).toContain(`<th>${header}</th>`);
    expect(result.summary).toContain('nightly');
    expect(result.summary).toContain('booting');
    // Listing starts nothing the post step would clean up.
    expect(result.post?.log).toContain('Nothing to clean up');
    expectNoKey(result);
  });

  it('filters by name', async () => {
    await createTunnel(emulator.url, { tunnel_identifier: 'nightly' });
    const result = await step({ operation: 'list', 'tunnel-name': 'nightly' });
    const listed = JSON.parse(result.outputs.tunnels as string) as { tunnel_identifier: string }[];
    expect(listed.map((t) => t.tunnel_identifier)).toEqual(['nightly']);
  });
});

describe('stop', () => {
  it('stops every tunnel of the user with the name, and no other', async () => {
    const one = await createTunnel(emulator.url, { tunnel_identifier: 'gone', status: 'running' });
    const two = await createTunnel(emulator.url, { tunnel_identifier: 'gone', status: 'booting' });
    const theirs = await createTunnel(emulator.url, {
      tunnel_identifier: 'gone',
      status: 'running',
      owner: 'someone-else',
    });
    const result = await step({ operation: 'stop', 'tunnel-name': 'gone' });

    expect(result.exitCode).toBe(0);
    const stopped = JSON.parse(result.outputs.tunnels as string) as { id: string; jobs_running: number }[];
    expect(stopped.map((t) => t.id).sort()).toEqual([one.id, two.id].sort());
    expect(stopped.every((t) => t.jobs_running === 0)).toBe(true);
    expect(result.outputs['tunnel-id']?.split(',').sort()).toEqual([one.id, two.id].sort());
    expect((await tunnelById(emulator.url, one.id))?.status).toBe('terminated');
    expect((await tunnelById(emulator.url, two.id))?.status).toBe('terminated');
    expect((await tunnelById(emulator.url, theirs.id))?.status).toBe('running');
    expect((await demoTunnel()).status).toBe('running');
    expect(result.summary).toContain('Jobs still running');
  });

  it('reports the jobs still running through a stopped tunnel', async () => {
    const demo = await demoTunnel();
    const started = await fetch(`${emulator.url}/rest/v1/${USERNAME}/js-tests`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${USERNAME}:${ACCESS_KEY}`).toString('base64')}`,
      },
      body: JSON.stringify({
        platforms: [['Windows 11', 'chrome', 'latest']],
        url: 'https://example.com/tests.html',
        framework: 'custom',
        tunnelIdentifier: 'demo-tunnel',
      }),
    });
    expect(started.status).toBe(200);
    const result = await step({ operation: 'stop', 'tunnel-id': demo.id });

    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.outputs.tunnels as string)).toEqual([
      { id: demo.id, name: null, jobs_running: 1 },
    ]);
    expect(
      result.annotations.some((a) => a.level === 'warning' && a.message.includes('1 job(s) still ran')),
    ).toBe(true);
  });

  it('fails on an unknown id, and only warns when no tunnel has the name', async () => {
    const unknown = await step({ operation: 'stop', 'tunnel-id': 'no-such-tunnel' });
    expect(unknown.exitCode).toBe(1);
    expect(errors(unknown)).toContain('Tunnel no-such-tunnel of user demo does not exist');
    expect(unknown.summary).toContain('<h2>Manage tunnel: refused by Sauce Labs</h2>');
    expect(unknown.outputs).toEqual({ 'tunnel-id': '', tunnels: '[]', 'log-file': '' });

    const none = await step({ operation: 'stop', 'tunnel-name': 'never-started' });
    expect(none.exitCode).toBe(0);
    expect(none.outputs.tunnels).toBe('[]');
    expect(none.annotations.some((a) => a.level === 'warning' && a.message.includes('nothing to stop'))).toBe(
      true,
    );
  });
});
