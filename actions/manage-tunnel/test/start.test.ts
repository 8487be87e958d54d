/**
 * `start` with a stand-in Sauce Connect: a good start whose process outlives the main step until
 * the post step stops it, retries, a start that never becomes ready, and the download into the
 * tool cache. Every test checks that no stand-in is left running.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { StepResult } from '@sauce-actions/action-harness';
import { SauceClient } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import * as toolCache from '@actions/tool-cache';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isRunning } from '../src/process.ts';
import { run } from '../src/run.ts';
import { StartError } from '../src/start.ts';
import { writeFakeSauceConnect } from './fake-sc.ts';
import { ACCESS_KEY, ACTION_DIR, allTunnels, errors, runAction, tunnelById, USERNAME } from './helpers.ts';

let emulator: RunningEmulator;
let dir: string;
let pidsDir: string;
let sc: string;
let statusAddress: string;
const steps: StepResult[] = [];

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeEach(async () => {
  emulator = await startEmulator({ port: 0 });
  dir = await mkdtemp(path.join(os.tmpdir(), 'manage-tunnel-start-'));
  pidsDir = path.join(dir, 'pids');
  await mkdir(pidsDir);
  await mkdir(path.join(dir, 'bin'));
  sc = await writeFakeSauceConnect(path.join(dir, 'bin'));
  statusAddress = `127.0.0.1:${await freePort()}`;
});

afterEach(async () => {
  const left: number[] = [];
  for (const name of await readdir(pidsDir)) {
    const pid = Number(name);
    if (!isRunning(pid)) continue;
    left.push(pid);
    process.kill(pid, 'SIGKILL');
  }
  await Promise.all(steps.splice(0).map((step) => step.cleanup()));
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
  expect(left, 'stand-in Sauce Connect processes left running').toEqual([]);
});

function fakeEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { FAKE_SC_EMULATOR: emulator.url, FAKE_SC_PIDS: pidsDir, ...extra };
}

async function launches(): Promise<number[]> {
  return (await readdir(pidsDir)).map(Number);
}

async function step(
  inputs: Record<string, string>,
  env: Record<string, string> = {},
  actionDir = ACTION_DIR,
): Promise<StepResult> {
  const result = await runAction(
    emulator.url,
    { operation: 'start', 'status-address': statusAddress, 'poll-interval': '200ms', ...inputs },
    { env: fakeEnv(env) },
    actionDir,
  );
  steps.push(result);
  return result;
}

/** A copy of the action whose action.yml runs only the main step, or only the bundle as given. */
async function actionVariant(name: string, yml: (text: string) => string): Promise<string> {
  const variant = path.join(dir, name);
  await mkdir(variant);
  await writeFile(
    path.join(variant, 'action.yml'),
    yml(await readFile(path.join(ACTION_DIR, 'action.yml'), 'utf8')),
  );
  await symlink(path.join(ACTION_DIR, 'dist'), path.join(variant, 'dist'));
  return variant;
}

describe('start', () => {
  it('starts Sauce Connect, which outlives the main step until the post step stops it', async () => {
    // The harness runs the post step right after the main step; these copies run them apart.
    const mainOnly = await actionVariant('main-only', (yml) => yml.replace(/^\s+post: .*$/m, ''));
    const result = await step(
      { 'tunnel-name': 'ci-start', 'sc-path': sc, 'sc-args': '--verbose "--metadata" build=42' },
      {},
      mainOnly,
    );

    expect(errors(result)).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.post).toBeUndefined();
    const tunnelId = result.outputs['tunnel-id'] as string;
    expect(await tunnelById(emulator.url, tunnelId)).toMatchObject({
      tunnel_identifier: 'ci-start',
      status: 'running',
    });
    const state = JSON.parse(result.state.cleanup as string);
    expect(state.tunnels).toEqual([{ id: tunnelId, name: 'ci-start' }]);
    expect(state.process.executable).toBe(sc);
    expect(isRunning(state.process.pid)).toBe(true);
    expect(await launches()).toEqual([state.process.pid]);

    const logFile = result.outputs['log-file'] as string;
    expect(state.process.logFile).toBe(logFile);
    const log = await readFile(logFile, 'utf8');
    expect(log).toContain(
      JSON.stringify([
        'run',
        '--username',
        USERNAME,
        '--region',
        'us-west',
        '--tunnel-name',
        'ci-start',
        '--api-address',
        statusAddress,
        '--verbose',
        '--metadata',
        'build=42',
      ]),
    );
    expect(log).toContain('access key from the environment: yes');
    expect(log).toContain('inputs in the environment: 0');
    expect(log).not.toContain(ACCESS_KEY);
    expect(result.unmaskedLog).not.toContain(ACCESS_KEY);
    expect(result.summary).toContain('ci-start');

    const postOnly = await actionVariant('post-only', (yml) => yml.replace(/^\s+post: .*$/m, ''));
    const post = await runAction(
      emulator.url,
      { operation: 'start', 'tunnel-name': 'ci-start', 'sc-path': sc },
      { env: { ...fakeEnv(), STATE_isPost: 'true', STATE_cleanup: result.state.cleanup as string } },
      postOnly,
    );
    steps.push(post);
    expect(errors(post)).toBe('');
    expect(post.log).toContain(`Stopping Sauce Connect (pid ${state.process.pid}) with SIGINT`);
    expect(isRunning(state.process.pid)).toBe(false);
    expect(await readFile(logFile, 'utf8')).toContain('SIGINT, shutting down');
    expect((await tunnelById(emulator.url, tunnelId))?.status).toBe('terminated');
    expect(post.log).toContain(`Tunnel ${tunnelId} ("ci-start") is already shut down`);
  });

  it('retries a start that fails twice, then stops the tunnel in the post step', async () => {
    const result = await step(
      { 'tunnel-name': 'flaky', 'sc-path': sc, 'start-retries': '2' },
      { FAKE_SC_FAILURES: '2', FAKE_SC_COUNTER: path.join(dir, 'count') },
    );

    expect(errors(result)).toBe('');
    expect(result.exitCode).toBe(0);
    expect(await launches()).toHaveLength(3);
    const warnings = result.annotations.filter((a) => a.level === 'warning').map((a) => a.message);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('start 1 of 3 failed: Sauce Connect exited (code 1) before it was ready');
    const log = await readFile(result.outputs['log-file'] as string, 'utf8');
    expect(log).toContain('start 3 of 3');
    expect(log.match(/could not reach the tunnel service/g)).toHaveLength(2);
    expect(result.summary).toContain('Starts needed');

    const tunnelId = result.outputs['tunnel-id'] as string;
    expect(result.post?.exitCode).toBe(0);
    expect((await tunnelById(emulator.url, tunnelId))?.status).toBe('terminated');
  });

  it('fails a start that never becomes ready at the timeout, keeping the log and its path', async () => {
    const started = Date.now();
    const result = await step(
      { 'tunnel-name': 'stuck', 'sc-path': sc, 'start-retries': '0', timeout: '2s' },
      { FAKE_SC_MODE: 'never-ready' },
    );

    expect(result.exitCode).toBe(1);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(errors(result)).toContain(`did not answer ready at http://${statusAddress}/readyz within 2s`);
    const logFile = result.outputs['log-file'] as string;
    expect(logFile).not.toBe('');
    expect(existsSync(logFile)).toBe(true);
    expect(await readFile(logFile, 'utf8')).toContain('status server on');
    expect(errors(result)).toContain(logFile);
    // Outside a runner there is no artifact service: the upload is tried and only warns.
    expect(
      result.annotations.some(
        (a) => a.level === 'warning' && a.message.includes('Could not upload the Sauce Connect log'),
      ),
    ).toBe(true);
    const [pid] = await launches();
    expect(isRunning(pid as number)).toBe(false);
    expect(result.post?.log).toContain('Nothing to clean up');
    expect((await allTunnels(emulator.url)).map((t) => t.tunnel_identifier)).toEqual(['demo-tunnel']);
  });

  it('uploads the log through the injected uploader when every start fails', async () => {
    const client = new SauceClient({ apiUrl: emulator.url, username: USERNAME, accessKey: ACCESS_KEY });
    const uploads: string[][] = [];
    const saved: string[] = [];
    try {
      const failing = run(
        {
          operation: 'start',
          tunnelName: 'broken',
          stopOnExit: true,
          timeoutMs: 5000,
          pollIntervalMs: 100,
          start: { scPath: sc, scVersion: '5.4.1', scArgs: [], startRetries: 1, statusAddress },
        },
        {
          api: client.automation.tunnels,
          username: USERNAME,
          log: () => {},
          warn: () => {},
          saveCleanup: (state) => saved.push(JSON.stringify(state)),
          start: {
            accessKey: ACCESS_KEY,
            region: 'eu-central-1',
            tools: toolCache,
            uploadLog: async (file, name) => {
              uploads.push([file, name]);
            },
            logDir: dir,
            env: {
              ...process.env,
              ...fakeEnv({ FAKE_SC_FAILURES: '9', FAKE_SC_COUNTER: path.join(dir, 'count') }),
            },
          },
        },
      );
      const error = await failing.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StartError);
      const logFile = (error as StartError).logFile;
      expect(uploads).toEqual([[logFile, 'broken']]);
      expect((error as StartError).message).toContain('attempt 2: Sauce Connect exited (code 1)');
      expect(await launches()).toHaveLength(2);
      // Once a launch has ended, the state no longer asks the post step to stop it.
      expect(saved.at(-1)).toBe('{"tunnels":[]}');
      expect(await readFile(logFile, 'utf8')).toContain('"--region","eu-central"');
    } finally {
      await client.close();
    }
  });

  it('downloads Sauce Connect once per version into the tool cache', async () => {
    // An archive like the official one: `sc` at its top.
    const archive = path.join(dir, 'sauce-connect.tar.gz');
    await promisify(execFile)('tar', ['-czf', archive, '-C', path.join(dir, 'bin'), 'sc']);
    const body = await readFile(archive);
    const requests: string[] = [];
    const server = http.createServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': body.length });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const cache = path.join(dir, 'tool-cache');
    try {
      const inputs = {
        'tunnel-name': 'downloaded',
        'sc-version': '5.0.1',
        'sc-download-url': `http://127.0.0.1:${port}/sc-{version}.tar.gz`,
      };
      const first = await step(inputs, { RUNNER_TOOL_CACHE: cache });
      expect(errors(first)).toBe('');
      expect(first.exitCode).toBe(0);
      expect(first.log).toContain(
        `Downloading Sauce Connect 5.0.1 from http://127.0.0.1:${port}/sc-5.0.1.tar.gz`,
      );
      const cached = path.join(cache, 'sauce-connect', '5.0.1', os.arch(), 'sc');
      expect(existsSync(cached)).toBe(true);
      expect(first.log).toContain(`Sauce Connect: ${cached}`);

      const second = await step(inputs, { RUNNER_TOOL_CACHE: cache });
      expect(second.exitCode).toBe(0);
      expect(second.log).toContain('Sauce Connect 5.0.1 found in the tool cache');
      expect(requests).toEqual(['/sc-5.0.1.tar.gz']);
      expect(await launches()).toHaveLength(2);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('needs a tunnel name, a valid status address and version', async () => {
    const noName = await step({ 'sc-path': sc });
    expect(errors(noName)).toContain('Input "tunnel-name" is required by `operation: start`');
    const badAddress = await step({ 'tunnel-name': 'x', 'sc-path': sc, 'status-address': 'localhost' });
    expect(errors(badAddress)).toContain('Input "status-address" has "localhost", which is not host:port');
    const badVersion = await step({ 'tunnel-name': 'x', 'sc-version': 'latest' });
    expect(errors(badVersion)).toContain('Input "sc-version" has "latest"');
    expect(await launches()).toEqual([]);
  });
});
