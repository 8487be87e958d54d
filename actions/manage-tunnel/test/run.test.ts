/** `wait`, `list` and `stop` through `run` and its deps, against the emulator in this process. */
import { CancelledError } from '@sauce-actions/action-kit';
import { testStepDeps } from '@sauce-actions/action-kit/testing';
import type { SauceClient, Tunnel } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FindInputs } from '../src/inputs.ts';
import { run, type TunnelDeps } from '../src/run.ts';
import { STATE_KEY } from '../src/state.ts';
import {
  ACCESS_KEY,
  allTunnels,
  changeAfterListing,
  createTunnel,
  emulatorClient,
  tunnelById,
  USERNAME,
} from './helpers.ts';

let emulator: RunningEmulator;
let client: SauceClient;

beforeEach(async () => {
  emulator = await startEmulator({ port: 0, jobDurationMs: 60_000 });
  client = emulatorClient(emulator.url);
});

afterEach(async () => {
  await client.close();
  await emulator.close();
});

function inputs(operation: FindInputs['operation'], overrides: Partial<FindInputs> = {}): FindInputs {
  return {
    connection: { service: 'sauce', region: 'us-west-1', username: USERNAME, accessKey: ACCESS_KEY },
    operation,
    target: {},
    stopOnExit: 'started',
    timeoutMs: 10_000,
    pollIntervalMs: 100,
    ...overrides,
  };
}

function deps(overrides: Parameters<typeof testStepDeps>[0] = {}) {
  return { ...testStepDeps(overrides), client };
}

async function demoTunnel(): Promise<Tunnel> {
  const tunnel = (await allTunnels(emulator.url)).find((t) => t.tunnel_identifier === 'demo-tunnel');
  if (!tunnel) throw new Error('the seed has no demo-tunnel');
  return tunnel;
}

describe('wait', () => {
  it('waits until the named tunnel runs, and by default leaves it to whoever started it', async () => {
    const tunnel = await createTunnel(emulator.url, { tunnel_identifier: 'ci-tunnel', status: 'booting' });
    const started = changeAfterListing(emulator.url, tunnel.id, 'running');
    const step = deps();
    const result = await run(inputs('wait', { target: { name: 'ci-tunnel' } }), step);
    await started;

    expect(result.failure).toBeUndefined();
    expect(result.outputs['tunnel-id']).toBe(tunnel.id);
    expect(result.outputs['log-file']).toBe('');
    expect(JSON.parse(result.outputs.tunnels)).toEqual([
      expect.objectContaining({ id: tunnel.id, status: 'running' }),
    ]);
    const lines = step.logger.lines('info');
    expect(lines[0]).toBe(`Waiting for the tunnel named "ci-tunnel": ${tunnel.id} booting`);
    // One line per change of what is seen, not one per check.
    expect(lines.filter((line) => line.includes('booting'))).toHaveLength(1);
    expect(lines).toContain(`Tunnel ${tunnel.id} ("ci-tunnel") is running.`);
    // `stop-on-exit: started`: a tunnel this step only waited for is not the post step's to delete.
    expect(step.state.saved.size).toBe(0);
    expect(result.summary).toContain('<h2>Tunnel ci-tunnel is running</h2>');
    expect(result.summary).toContain(`<td>${tunnel.id}</td>`);
    expect(result.summary).toContain(
      'The tunnel stays up after the job: this step only waited for it, and others may be using it (`stop-on-exit: started`).',
    );
    expect(result.annotations).toEqual([]);
  });

  it('saves the tunnel it waited for, for the post step, only with stop-on-exit true', async () => {
    const demo = await demoTunnel();
    const step = deps();
    const result = await run(inputs('wait', { target: { name: 'demo-tunnel' }, stopOnExit: 'true' }), step);
    expect(result.outputs['tunnel-id']).toBe(demo.id);
    expect(JSON.parse(step.state.get(STATE_KEY))).toEqual({
      tunnels: [{ id: demo.id, name: 'demo-tunnel', origin: 'waited' }],
    });
    expect(result.summary).toContain(
      'The post step of this action deletes the tunnel at the end of the job, whatever its outcome (`stop-on-exit: true`): other jobs using it lose it then.',
    );
  });

  it('finds a tunnel by id, saving nothing with stop-on-exit false', async () => {
    const demo = await demoTunnel();
    const step = deps();
    const result = await run(inputs('wait', { target: { id: demo.id }, stopOnExit: 'false' }), step);
    expect(result.outputs['tunnel-id']).toBe(demo.id);
    expect(step.state.saved.size).toBe(0);
    expect(result.summary).toContain('The tunnel stays up after the job (`stop-on-exit: false`).');
  });

  it('picks the newest of several running tunnels with the name, and says so', async () => {
    await demoTunnel();
    const newer = await createTunnel(emulator.url, { tunnel_identifier: 'demo-tunnel', status: 'running' });
    const step = deps();
    const result = await run(inputs('wait', { target: { name: 'demo-tunnel' } }), step);
    expect(result.outputs['tunnel-id']).toBe(newer.id);
    expect(step.logger.lines('info').join('\n')).toMatch(
      new RegExp(
        `2 running tunnels match the tunnel named "demo-tunnel" \\(.*\\); using the newest, ${newer.id}\\.`,
      ),
    );
  });

  it('fails of kind timeout, naming what it last saw and the input to raise', async () => {
    await createTunnel(emulator.url, {
      tunnel_identifier: 'theirs',
      status: 'running',
      owner: 'someone-else',
    });
    const mine = await createTunnel(emulator.url, { tunnel_identifier: 'theirs', status: 'booting' });
    const step = deps();
    const result = await run(inputs('wait', { target: { name: 'theirs' }, timeoutMs: 1000 }), step);

    expect(result.failure).toEqual({
      kind: 'timeout',
      message: `The tunnel named "theirs" of user demo was not running within 1s (${mine.id} booting). Check that the tunnel is started with this name and by this user, or raise \`timeout\`.`,
    });
    expect(result.outputs).toEqual({ 'tunnel-id': '', tunnels: '[]', 'log-file': '' });
    expect(result.summary).toBe('');
    expect(step.state.saved.size).toBe(0);
  });

  it('is cancelled when the run is', async () => {
    const controller = new AbortController();
    const step = deps({ signal: controller.signal });
    setTimeout(() => controller.abort(new CancelledError('the run was cancelled (SIGINT)')), 300);
    const result = await run(inputs('wait', { target: { name: 'never' } }), step);
    expect(result.failure).toEqual({
      kind: 'cancelled',
      message: 'The run was cancelled during `wait`; the post step stops whatever this step had started.',
    });
  });
});

describe('list', () => {
  it('outputs every tunnel newest first, the running ones as ids, and a table', async () => {
    const demo = await demoTunnel();
    const extra = await createTunnel(emulator.url, { tunnel_identifier: 'nightly', status: 'booting' });
    const step = deps();
    const result = await run(inputs('list'), step);

    expect(result.failure).toBeUndefined();
    const listed = JSON.parse(result.outputs.tunnels) as Tunnel[];
    expect(listed.map((t) => t.id)).toEqual([extra.id, demo.id]);
    expect(result.outputs['tunnel-id']).toBe(demo.id);
    expect(step.logger.lines('info')).toEqual(['2 tunnel(s) listed.']);
    expect(result.summary).toContain('<h2>Tunnels of demo</h2>');
    expect(result.summary).toContain(
      '<tr><th>Name</th><th>Id</th><th>Status</th><th>Owner</th><th>Started</th><th>Host</th></tr>',
    );
    expect(result.summary).toContain(`<td>nightly</td><td>${extra.id}</td><td>booting</td>`);
    expect(step.state.saved.size).toBe(0);
  });

  it('filters by name, and says when nothing is listed', async () => {
    const step = deps();
    const none = await run(inputs('list', { target: { name: 'nightly' } }), step);
    expect(none.outputs).toEqual({ 'tunnel-id': '', tunnels: '[]', 'log-file': '' });
    expect(none.summary).toContain('<p>No tunnel is listed.</p>');
  });

  it('fails of kind timeout when the service does not answer within `timeout`', async () => {
    const hanging: TunnelDeps['client'] = {
      automation: {
        tunnels: {
          list: ((_params: unknown, options?: { signal?: AbortSignal }) =>
            new Promise((_resolve, reject) => {
              options?.signal?.addEventListener('abort', () => reject(options.signal?.reason));
            })) as TunnelDeps['client']['automation']['tunnels']['list'],
          get: client.automation.tunnels.get.bind(client.automation.tunnels),
          delete: client.automation.tunnels.delete.bind(client.automation.tunnels),
        },
        info: client.automation.info,
      },
    };
    const result = await run(inputs('list', { timeoutMs: 1000 }), { ...testStepDeps(), client: hanging });
    expect(result.failure?.kind).toBe('timeout');
    expect(result.failure?.message).toContain('the `timeout` of 1s passed');
    expect(result.failure?.message).toContain('Raise `timeout`');
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
    const step = deps();
    const result = await run(inputs('stop', { target: { name: 'gone' } }), step);

    expect(result.failure).toBeUndefined();
    const stopped = JSON.parse(result.outputs.tunnels) as {
      id: string;
      name: string;
      jobs_running: number;
    }[];
    expect(stopped.map((t) => t.id).sort()).toEqual([one.id, two.id].sort());
    expect(stopped.every((t) => t.name === 'gone' && t.jobs_running === 0)).toBe(true);
    expect(result.outputs['tunnel-id'].split(',').sort()).toEqual([one.id, two.id].sort());
    expect((await tunnelById(emulator.url, one.id))?.status).toBe('terminated');
    expect((await tunnelById(emulator.url, two.id))?.status).toBe('terminated');
    expect((await tunnelById(emulator.url, theirs.id))?.status).toBe('running');
    expect(step.logger.lines('info')).toContain(
      `Stopped tunnel ${one.id} ("gone"); no job was running through it.`,
    );
    expect(result.summary).toContain('<h2>Stopped 2 tunnel(s) of demo</h2>');
    expect(result.summary).toContain('<th>Jobs still running</th>');
    // Stopping leaves nothing for the post step.
    expect(step.state.saved.size).toBe(0);
  });

  it('fails of kind refused on an unknown id', async () => {
    const step = deps();
    const result = await run(inputs('stop', { target: { id: 'no-such-tunnel' } }), step);
    expect(result.failure).toEqual({
      kind: 'refused',
      message:
        'Tunnel no-such-tunnel of user demo does not exist. Check `tunnel-id`, or stop by `tunnel-name`.',
    });
    expect(result.outputs).toEqual({ 'tunnel-id': '', tunnels: '[]', 'log-file': '' });
    expect(result.summary).toBe('');
  });

  it('only warns when no tunnel has the name', async () => {
    const step = deps();
    const result = await run(inputs('stop', { target: { name: 'never-started' } }), step);
    expect(result.failure).toBeUndefined();
    expect(result.outputs.tunnels).toBe('[]');
    expect(step.logger.lines('warning')).toEqual([
      'No tunnel named "never-started" of user demo is listed: nothing to stop.',
    ]);
    expect(result.summary).toContain('No matching tunnel was listed: nothing was stopped.');
  });

  it('reports the tunnels it stopped before a later stop failed', async () => {
    const one = await createTunnel(emulator.url, { tunnel_identifier: 'pair', status: 'running' });
    const two = await createTunnel(emulator.url, { tunnel_identifier: 'pair', status: 'running' });
    const tunnels = client.automation.tunnels;
    let deletions = 0;
    const flaky: TunnelDeps['client'] = {
      automation: {
        tunnels: {
          list: tunnels.list.bind(tunnels),
          get: tunnels.get.bind(tunnels),
          delete: async (id, params, options) => {
            if (++deletions === 2) throw new Error('connection reset');
            return tunnels.delete(id, params, options);
          },
        },
        info: client.automation.info,
      },
    };
    const result = await run(inputs('stop', { target: { name: 'pair' } }), {
      ...testStepDeps(),
      client: flaky,
    });

    expect(result.failure?.kind).toBe('bug');
    expect(result.failure?.message).toContain('connection reset');
    const stopped = JSON.parse(result.outputs.tunnels) as { id: string }[];
    expect(stopped).toHaveLength(1);
    expect([one.id, two.id]).toContain(stopped[0]?.id);
    expect(result.outputs['tunnel-id']).toBe(stopped[0]?.id);
    expect(result.summary).toContain('<h2>Stopped 1 tunnel(s) of demo</h2>');
  });
});
