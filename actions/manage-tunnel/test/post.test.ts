/** The post step on its own: what it deletes, what it leaves, how it stops a process, and its result. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { InputReader, inputSource, memoryState, systemClock } from '@sauce-actions/action-kit';
import { testStepDeps } from '@sauce-actions/action-kit/testing';
import { ApiError, type SauceClient, type Tunnel } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanUp } from '../src/cleanup.ts';
import { post, runPost } from '../src/post.ts';
import { isRunning, stopProcess } from '../src/process.ts';
import { parseCleanup, serializeCleanup, STATE_KEY, type CleanupState } from '../src/state.ts';
import {
  ACCESS_KEY,
  allTunnels,
  createTunnel,
  emulatorClient,
  tunnelById,
  until,
  USERNAME,
} from './helpers.ts';

const CONNECTION = {
  service: 'sauce' as const,
  region: 'us-west-1' as const,
  username: USERNAME,
  accessKey: ACCESS_KEY,
};

let emulator: RunningEmulator;
let client: SauceClient;
const pids: number[] = [];

beforeEach(async () => {
  emulator = await startEmulator({ port: 0 });
  client = emulatorClient(emulator.url);
});

afterEach(async () => {
  const left = pids.splice(0).filter((pid) => isRunning(pid));
  for (const pid of left) process.kill(pid, 'SIGKILL');
  for (const pid of left) await until(() => !isRunning(pid));
  await client.close();
  await emulator.close();
  expect(left, 'stand-in processes left running').toEqual([]);
});

/** A detached Node process running `code`; it answers nothing and ends on its own after 30 s. */
async function detached(code: string): Promise<number> {
  const child = spawn(process.execPath, ['-e', `${code}; setTimeout(() => {}, 30000)`], {
    detached: true,
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  // The child says when its signal handlers are in place.
  await once(child, 'message');
  child.disconnect();
  child.unref();
  pids.push(child.pid as number);
  // Reaped by this process when it ends, so isRunning sees it gone rather than a zombie.
  child.once('exit', () => {});
  return child.pid as number;
}

/** Deps of the cleanup, recording the log and the artifacts uploaded. */
function cleanupDeps() {
  const uploads: string[][] = [];
  const retention: (number | undefined)[] = [];
  const deps = testStepDeps({
    workflow: { job: 'e2e', runAttempt: '2' },
    artifacts: {
      upload: async (name, files, _root, options) => {
        uploads.push([name, ...files]);
        retention.push(options?.retentionDays);
        return { outcome: 'uploaded' as const, id: 7 };
      },
    },
  });
  return { deps: { ...deps, tunnels: client.automation.tunnels }, uploads, retention };
}

function postDeps(state: CleanupState) {
  return testStepDeps({ state: memoryState({ [STATE_KEY]: serializeCleanup(state) }) });
}

describe('post step cleanup', () => {
  it('deletes only the saved tunnels that are still up', async () => {
    const up = await createTunnel(emulator.url, { tunnel_identifier: 'mine', status: 'running' });
    const down = await createTunnel(emulator.url, { tunnel_identifier: 'mine-too', status: 'terminated' });
    const other = await createTunnel(emulator.url, { tunnel_identifier: 'mine', status: 'running' });
    const { deps } = cleanupDeps();
    const report = await cleanUp(
      {
        tunnels: [
          { id: up.id, name: 'mine', origin: 'started' },
          { id: down.id, name: 'mine-too', origin: 'started' },
          { id: 'unknown-id', name: null, origin: 'waited' },
        ],
      },
      deps,
      2000,
    );
    expect(report).toEqual({
      process: 'none',
      deleted: [up.id],
      alreadyGone: [down.id, 'unknown-id'],
      failed: [],
    });
    expect((await tunnelById(emulator.url, up.id))?.status).toBe('terminated');
    expect((await tunnelById(emulator.url, other.id))?.status).toBe('running');
    expect(deps.logger.lines('info')).toContain(`Deleted tunnel ${up.id} ("mine").`);
    expect(deps.logger.lines('info')).toContain(`Tunnel ${down.id} ("mine-too") is already shut down.`);
  });

  it('uploads the log when the launched process had already exited, named for the job, tunnel and attempt', async () => {
    const { deps, uploads, retention } = cleanupDeps();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await once(child, 'exit');
    const logFile = import.meta.filename;
    const report = await cleanUp(
      {
        tunnels: [],
        process: { pid: child.pid as number, executable: process.execPath, logFile, tunnelName: 't' },
      },
      deps,
      2000,
      3,
    );
    expect(report.process).toBe('exited-early');
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.[0]).toBe('sauce-connect-log-e2e-t-attempt-2');
    expect(retention).toEqual([3]);
    expect(uploads[0]?.slice(1)).toEqual([logFile]);
    expect(deps.logger.lines('warning').join('\n')).toContain('had already exited');
    expect(deps.logger.lines('info').join('\n')).toContain('Uploaded the Sauce Connect log as artifact');
  });

  it('leaves alone a process that no longer runs the saved executable', async () => {
    const pid = await detached('process.send("ready")');
    const { deps } = cleanupDeps();
    const report = await cleanUp(
      {
        tunnels: [],
        process: { pid, executable: '/opt/sauce-connect/sc', logFile: 'sc.log', tunnelName: 't' },
      },
      deps,
      2000,
    );
    expect(report.process).toBe('not-ours');
    expect(isRunning(pid)).toBe(true);
    process.kill(pid, 'SIGKILL');
    await until(() => !isRunning(pid));
  });

  it('stops a process with SIGINT, and kills one that ignores it after the grace period', async () => {
    const polite = await detached('process.on("SIGINT", () => process.exit(0)); process.send("ready")');
    expect(await stopProcess(polite, { graceMs: 5000, clock: systemClock })).toBe('stopped');
    expect(isRunning(polite)).toBe(false);

    const stubborn = await detached('process.on("SIGINT", () => {}); process.send("ready")');
    const started = Date.now();
    expect(await stopProcess(stubborn, { graceMs: 500, clock: systemClock })).toBe('killed');
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(isRunning(stubborn)).toBe(false);
  });

  it('reads back the saved state, and treats malformed state as nothing to clean up', () => {
    const state: CleanupState = {
      tunnels: [
        { id: 'abc', name: 'n', origin: 'started' },
        { id: 'def', name: null, origin: 'waited' },
      ],
      process: { pid: 42, executable: '/sc', logFile: '/sc.log', tunnelName: 'n' },
    };
    expect(parseCleanup(serializeCleanup(state))).toEqual(state);
    // A tunnel saved without its origin is worded as one others may share.
    expect(parseCleanup('{"tunnels":[{"id":"t1","name":"n"}]}')).toEqual({
      tunnels: [{ id: 't1', name: 'n', origin: 'waited' }],
    });
    expect(parseCleanup('not json')).toEqual({ tunnels: [] });
    expect(parseCleanup('{"tunnels":[{"id":""}],"process":{"pid":-1}}')).toEqual({ tunnels: [] });
  });
});

describe('post step', () => {
  it('has work only when the saved state names a tunnel or a process', () => {
    expect(post.hasLeftRunning(memoryState())).toBe(false);
    expect(post.hasLeftRunning(memoryState({ [STATE_KEY]: '{"tunnels":[]}' }))).toBe(false);
    expect(post.hasLeftRunning(memoryState({ [STATE_KEY]: 'garbage' }))).toBe(false);
    expect(
      post.hasLeftRunning(
        memoryState({ [STATE_KEY]: '{"tunnels":[{"id":"t1","name":null,"origin":"waited"}]}' }),
      ),
    ).toBe(true);
    const process = { pid: 42, executable: '/sc', logFile: '/sc.log', tunnelName: 'n' };
    expect(
      post.hasLeftRunning(memoryState({ [STATE_KEY]: serializeCleanup({ tunnels: [], process }) })),
    ).toBe(true);
  });

  it('stops the saved process and deletes the saved tunnel, and says so in its summary', async () => {
    const tunnel = await createTunnel(emulator.url, { tunnel_identifier: 'ci', status: 'running' });
    const pid = await detached('process.on("SIGINT", () => process.exit(0)); process.send("ready")');
    const deps = postDeps({
      tunnels: [{ id: tunnel.id, name: 'ci', origin: 'started' }],
      process: { pid, executable: process.execPath, logFile: '/sc.log', tunnelName: 'ci' },
    });
    const result = await runPost(
      {
        connection: {
          service: 'sauce',
          region: 'us-west-1',
          username: USERNAME,
          accessKey: ACCESS_KEY,
        },
      },
      { ...deps, client },
    );

    expect(result.failure).toBeUndefined();
    expect(result.outputs).toEqual({});
    expect(isRunning(pid)).toBe(false);
    expect((await tunnelById(emulator.url, tunnel.id))?.status).toBe('terminated');
    expect(result.summary).toContain('<h3>Tunnel cleanup</h3>');
    expect(result.summary).toContain('<p>Sauce Connect was stopped.</p>');
    expect(result.summary).toContain(`<li>Deleted tunnel ${tunnel.id}.</li>`);
    expect(deps.logger.lines('info')).toEqual([
      `Stopping Sauce Connect (pid ${pid}) with SIGINT.`,
      'Sauce Connect stopped.',
      `Deleted tunnel ${tunnel.id} ("ci").`,
    ]);
  });

  it('deletes a tunnel it waited for only as saved (stop-on-exit true), warning of the jobs still using it', async () => {
    const demo = (await allTunnels(emulator.url)).find((t) => t.tunnel_identifier === 'demo-tunnel');
    if (!demo) throw new Error('the seed has no demo-tunnel');
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
    const deps = postDeps({ tunnels: [{ id: demo.id, name: 'demo-tunnel', origin: 'waited' }] });
    const result = await runPost({ connection: CONNECTION }, { ...deps, client });

    expect(result.failure).toBeUndefined();
    expect((await tunnelById(emulator.url, demo.id))?.status).toBe('terminated');
    expect(deps.logger.lines('warning')).toEqual([
      `Deleted tunnel ${demo.id} ("demo-tunnel"), which this step waited for (\`stop-on-exit: true\`); 1 job(s) were still running through it.`,
    ]);
  });

  it('only notes a saved tunnel that no longer exists: never a failure', async () => {
    const deps = postDeps({ tunnels: [{ id: 'no-such-tunnel', name: 'ci', origin: 'waited' }] });
    const result = await runPost({ connection: CONNECTION }, { ...deps, client });
    expect(result.failure).toBeUndefined();
    expect(result.summary).toContain('<li>Tunnel no-such-tunnel was already shut down.</li>');
    expect(deps.logger.lines('info')).toEqual(['Tunnel no-such-tunnel ("ci") is already shut down.']);
  });

  it('reports a tunnel it could not delete as a failure, after cleaning up the others', async () => {
    const up = await createTunnel(emulator.url, { tunnel_identifier: 'ci', status: 'running' });
    const deps = postDeps({
      tunnels: [
        { id: 'broken', name: 'ci', origin: 'started' },
        { id: up.id, name: 'ci', origin: 'started' },
      ],
    });
    const tunnels = client.automation.tunnels;
    const result = await runPost(
      { connection: { service: 'sauce', region: 'us-west-1', username: USERNAME, accessKey: ACCESS_KEY } },
      {
        ...deps,
        client: {
          automation: {
            tunnels: {
              get: (id, params, options) =>
                id === 'broken'
                  ? Promise.resolve({ id, status: 'running' } as Tunnel)
                  : tunnels.get(id, params, options),
              delete: (id, params, options) =>
                id === 'broken'
                  ? Promise.reject(
                      new ApiError({
                        operation: 'deleteTunnel',
                        method: 'DELETE',
                        url: '/t/broken',
                        status: 503,
                      }),
                    )
                  : tunnels.delete(id, params, options),
            },
          },
        },
      },
    );

    expect(result.failure?.kind).toBe('service');
    expect(result.failure?.message).toContain(
      'Could not delete 1 tunnel(s) the step had started or waited for (broken)',
    );
    expect((await tunnelById(emulator.url, up.id))?.status).toBe('terminated');
    expect(result.summary).toContain(`<li>Deleted tunnel ${up.id}.</li>`);
    expect(result.summary).toContain('<li>Tunnel broken could not be deleted.</li>');
    expect(deps.logger.lines('warning').join('\n')).toContain('Could not delete tunnel broken');
  });

  it('reads only the connection', () => {
    const read = new InputReader(
      inputSource(
        { operation: 'restart', 'sc-version': 'latest', 'api-url': emulator.url },
        { env: { SAUCE_USERNAME: USERNAME, SAUCE_ACCESS_KEY: ACCESS_KEY } },
      ),
    );
    expect(post.readInputs(read)).toEqual({
      connection: {
        service: 'sauce',
        region: 'us-west-1',
        apiUrl: emulator.url,
        username: USERNAME,
        accessKey: ACCESS_KEY,
      },
    });
  });
});
