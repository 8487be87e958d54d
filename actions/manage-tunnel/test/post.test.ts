/** The post step's cleanup on its own: what it deletes, what it leaves, and how it stops a process. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { SauceClient } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanUp } from '../src/post.ts';
import { isRunning, stopProcess } from '../src/process.ts';
import { parseCleanup, serializeCleanup } from '../src/state.ts';
import { ACCESS_KEY, admin, createTunnel, tunnelById, USERNAME } from './helpers.ts';

let emulator: RunningEmulator;
let client: SauceClient;
const pids: number[] = [];

beforeEach(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new SauceClient({ apiUrl: emulator.url, username: USERNAME, accessKey: ACCESS_KEY });
});

afterEach(async () => {
  for (const pid of pids.splice(0)) {
    if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 40 && isRunning(pid); i++) await new Promise((r) => setTimeout(r, 50));
    expect(isRunning(pid)).toBe(false);
  }
  await client.close();
  await emulator.close();
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

function deps(lines: string[], uploads: string[] = []) {
  return {
    api: client.automation.tunnels,
    log: (line: string) => lines.push(line),
    warn: (line: string) => lines.push(`warning: ${line}`),
    uploadLog: async (file: string) => {
      uploads.push(file);
    },
    graceMs: 2000,
  };
}

describe('post step cleanup', () => {
  it('deletes only the saved tunnels that are still up', async () => {
    const up = await createTunnel(emulator.url, { tunnel_identifier: 'mine', status: 'running' });
    const down = await createTunnel(emulator.url, { tunnel_identifier: 'mine-too', status: 'terminated' });
    const other = await createTunnel(emulator.url, { tunnel_identifier: 'mine', status: 'running' });
    const lines: string[] = [];
    const report = await cleanUp(
      {
        tunnels: [
          { id: up.id, name: 'mine' },
          { id: down.id, name: 'mine-too' },
          { id: 'unknown-id', name: null },
        ],
      },
      deps(lines),
    );
    expect(report).toEqual({ process: 'none', deleted: [up.id], alreadyGone: [down.id, 'unknown-id'] });
    expect((await tunnelById(emulator.url, up.id))?.status).toBe('terminated');
    expect((await tunnelById(emulator.url, other.id))?.status).toBe('running');
  });

  it('uploads the log when the launched process had already exited', async () => {
    const lines: string[] = [];
    const uploads: string[] = [];
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await once(child, 'exit');
    const report = await cleanUp(
      {
        tunnels: [],
        process: {
          pid: child.pid as number,
          executable: process.execPath,
          logFile: '/nonexistent/sc.log',
          tunnelName: 't',
        },
      },
      deps(lines, uploads),
    );
    expect(report.process).toBe('exited-early');
    expect(uploads).toEqual(['/nonexistent/sc.log']);
    expect(lines.join('\n')).toContain('had already exited');
  });

  it('leaves alone a process that no longer runs the saved executable', async () => {
    const pid = await detached('process.send("ready")');
    const lines: string[] = [];
    const report = await cleanUp(
      {
        tunnels: [],
        process: { pid, executable: '/opt/sauce-connect/sc', logFile: 'sc.log', tunnelName: 't' },
      },
      deps(lines),
    );
    expect(report.process).toBe('not-ours');
    expect(isRunning(pid)).toBe(true);
  });

  it('stops a process with SIGINT, and kills one that ignores it after the grace period', async () => {
    const polite = await detached('process.on("SIGINT", () => process.exit(0)); process.send("ready")');
    expect(await stopProcess(polite, { graceMs: 5000 })).toBe('stopped');
    expect(isRunning(polite)).toBe(false);

    const stubborn = await detached('process.on("SIGINT", () => {}); process.send("ready")');
    const started = Date.now();
    expect(await stopProcess(stubborn, { graceMs: 500 })).toBe('killed');
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(isRunning(stubborn)).toBe(false);
  });

  it('reads back the saved state, and treats malformed state as nothing to clean up', async () => {
    const state = {
      tunnels: [{ id: 'abc', name: 'n' }],
      process: { pid: 42, executable: '/sc', logFile: '/sc.log', tunnelName: 'n' },
    };
    expect(parseCleanup(serializeCleanup(state))).toEqual(state);
    expect(parseCleanup('not json')).toEqual({ tunnels: [] });
    expect(parseCleanup('{"tunnels":[{"id":""}],"process":{"pid":-1}}')).toEqual({ tunnels: [] });
    await admin(emulator.url, 'GET', 'health');
  });
});
