/**
 * `start` through `run`, in process, with a stand-in Sauce Connect: what it saves for the post
 * step by `stop-on-exit`, a Sauce Connect without an /info page, every start failing and its log
 * uploaded, a failed download, and a cancel while waiting. Every test checks that no stand-in is
 * left running.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CancelledError, memoryState, type ToolCache } from '@sauce-actions/action-kit';
import { testStepDeps } from '@sauce-actions/action-kit/testing';
import type { SauceClient } from '@sauce-actions/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StartInputs, StartSettings } from '../src/inputs.ts';
import { post, runPost } from '../src/post.ts';
import { isRunning } from '../src/process.ts';
import { run } from '../src/run.ts';
import { STATE_KEY } from '../src/state.ts';
import {
  ACCESS_KEY,
  admin,
  emulatorClient,
  tunnelById,
  until,
  USERNAME,
  useStandInSauceConnect,
} from './helpers.ts';

const setup = useStandInSauceConnect('manage-tunnel-start-');
const { fakeEnv, launches } = setup;

describe('start through run', () => {
  let client: SauceClient;

  beforeEach(() => {
    client = emulatorClient(setup.emulator.url);
  });

  afterEach(async () => {
    await client.close();
  });

  function startInputs(
    tunnelName: string,
    settings: Partial<StartSettings> = {},
    overrides: Partial<StartInputs> = {},
  ): StartInputs {
    return {
      connection: {
        service: 'sauce',
        region: 'eu-central-1',
        apiUrl: setup.emulator.url,
        username: USERNAME,
        accessKey: ACCESS_KEY,
      },
      operation: 'start',
      tunnelName,
      stopOnExit: 'started',
      timeoutMs: 5000,
      pollIntervalMs: 100,
      start: {
        scPath: setup.sc,
        scVersion: '5.4.1',
        scArgs: [],
        startRetries: 0,
        statusAddress: setup.statusAddress,
        ...settings,
      },
      ...overrides,
    };
  }

  /** Deps of the step: the stand-in's environment, its log in the test folder, uploads recorded. */
  function startDeps(
    extraEnv: Record<string, string> = {},
    overrides: Parameters<typeof testStepDeps>[0] = {},
  ) {
    const uploads: string[][] = [];
    const deps = testStepDeps({
      tempDir: setup.dir,
      artifacts: {
        upload: async (name, files) => {
          uploads.push([name, ...files]);
          return { outcome: 'uploaded' as const, id: 1 };
        },
      },
      ...overrides,
    });
    return { deps: { ...deps, client, env: { PATH: process.env.PATH, ...fakeEnv(extraEnv) } }, uploads };
  }

  it('starts Sauce Connect, saves what to stop, and the post step stops it', async () => {
    const { deps } = startDeps();
    const result = await run(startInputs('unit-start', { scArgs: ['--verbose'] }), deps);

    expect(result.failure).toBeUndefined();
    const tunnelId = result.outputs['tunnel-id'];
    expect(await tunnelById(setup.emulator.url, tunnelId)).toMatchObject({
      tunnel_identifier: 'unit-start',
      status: 'running',
    });
    expect(JSON.parse(result.outputs.tunnels)).toEqual([expect.objectContaining({ id: tunnelId })]);
    const logFile = result.outputs['log-file'];
    expect(path.dirname(logFile)).toBe(setup.dir);
    const log = await readFile(logFile, 'utf8');
    expect(log).toContain('"--region","eu-central"');
    expect(log).toContain('"--verbose"');
    expect(log).toContain('access key from the environment: yes');
    expect(log).not.toContain(ACCESS_KEY);
    expect(result.summary).toContain('<h2>Tunnel unit-start is running</h2>');
    expect(result.summary).toContain('<td>Starts needed</td><td>1</td>');
    expect(result.summary).toContain(
      'The post step of this action stops Sauce Connect and the tunnel at the end of the job, whatever its outcome.',
    );
    expect(deps.logger.lines('info')).toContain(`Tunnel ${tunnelId} ("unit-start") is running.`);
    expect(deps.logger.lines('warning')).toEqual([]);

    const state = JSON.parse(deps.state.get(STATE_KEY));
    expect(state.tunnels).toEqual([{ id: tunnelId, name: 'unit-start', origin: 'started' }]);
    expect(state.process).toMatchObject({ executable: setup.sc, logFile, tunnelName: 'unit-start' });
    expect(isRunning(state.process.pid)).toBe(true);

    // The post step, in a new process on the runner, finds everything in the state.
    expect(post.hasLeftRunning(deps.state)).toBe(true);
    const postDeps = testStepDeps({ state: memoryState({ [STATE_KEY]: deps.state.get(STATE_KEY) }) });
    const cleaned = await runPost(
      { connection: startInputs('unit-start').connection },
      { ...postDeps, client },
    );
    expect(cleaned.failure).toBeUndefined();
    expect(isRunning(state.process.pid)).toBe(false);
    expect(await readFile(logFile, 'utf8')).toContain('SIGINT, shutting down');
    expect((await tunnelById(setup.emulator.url, tunnelId))?.status).toBe('terminated');
    expect(cleaned.summary).toContain(`<li>Tunnel ${tunnelId} was already shut down.</li>`);
  });

  it('finds its tunnel by name when Sauce Connect has no /info page, and says so when that is ambiguous', async () => {
    const { deps } = startDeps({ FAKE_SC_MODE: 'no-info' });
    const result = await run(startInputs('no-info'), deps);
    expect(result.failure).toBeUndefined();
    expect(await tunnelById(setup.emulator.url, result.outputs['tunnel-id'])).toMatchObject({
      tunnel_identifier: 'no-info',
      status: 'running',
    });
    const state = JSON.parse(deps.state.get(STATE_KEY));
    const postDeps = testStepDeps({ state: memoryState({ [STATE_KEY]: deps.state.get(STATE_KEY) }) });
    await runPost({ connection: startInputs('no-info').connection }, { ...postDeps, client });
    expect(isRunning(state.process.pid)).toBe(false);

    // A pool member started elsewhere while this one starts: two new tunnels, and no way to tell.
    const { deps: poolDeps } = startDeps({ FAKE_SC_MODE: 'no-info' });
    const ambiguous = run(startInputs('pool', { scArgs: ['--tunnel-pool'] }, { timeoutMs: 3000 }), poolDeps);
    await until(() => poolDeps.state.get(STATE_KEY).includes('"pid"'));
    await admin(setup.emulator.url, 'POST', 'tunnels', {
      owner: USERNAME,
      tunnel_identifier: 'pool',
      tunnel_pool: true,
    });
    const result2 = await ambiguous;
    expect(result2.failure?.kind).toBe('service');
    expect(result2.failure?.message).toContain('new tunnels of the name are running');
    expect(result2.failure?.message).toContain('does not say which is its own at /info');
    expect(poolDeps.state.get(STATE_KEY)).toBe('{"tunnels":[]}');
  });

  it('saves what it started for the post step with stop-on-exit true as well', async () => {
    const { deps } = startDeps();
    const result = await run(startInputs('also-started', {}, { stopOnExit: 'true' }), deps);
    expect(result.failure).toBeUndefined();
    const state = JSON.parse(deps.state.get(STATE_KEY));
    expect(state.tunnels).toEqual([
      { id: result.outputs['tunnel-id'], name: 'also-started', origin: 'started' },
    ]);
    const postDeps = testStepDeps({ state: memoryState({ [STATE_KEY]: deps.state.get(STATE_KEY) }) });
    const cleaned = await runPost(
      { connection: startInputs('also-started').connection },
      { ...postDeps, client },
    );
    expect(cleaned.failure).toBeUndefined();
    expect(isRunning(state.process.pid)).toBe(false);
  });

  it('saves nothing for the post step with stop-on-exit false', async () => {
    const { deps } = startDeps();
    const result = await run(startInputs('kept', {}, { stopOnExit: 'false' }), deps);
    expect(result.failure).toBeUndefined();
    expect(deps.state.saved.size).toBe(0);
    expect(result.summary).toContain('The tunnel stays up after the job');
    const [pid] = await launches();
    expect(isRunning(pid as number)).toBe(true);
    // The test stops it itself, as a later step would.
    process.kill(pid as number, 'SIGINT');
    await until(() => !isRunning(pid as number));
    expect(isRunning(pid as number)).toBe(false);
  });

  it('fails of kind service when every start fails, keeping the log file and uploading it', async () => {
    const { deps, uploads } = startDeps({
      FAKE_SC_FAILURES: '9',
      FAKE_SC_COUNTER: path.join(setup.dir, 'count'),
    });
    const result = await run(startInputs('broken', { startRetries: 1 }), deps);

    expect(result.failure?.kind).toBe('service');
    expect(result.failure?.message).toContain('Sauce Connect did not start the tunnel "broken"');
    expect(result.failure?.message).toContain('attempt 2: Sauce Connect exited (code 1)');
    expect(result.failure?.message).toContain('raise `timeout` or `start-retries`');
    const logFile = result.outputs['log-file'];
    expect(result.outputs).toEqual({ 'tunnel-id': '', tunnels: '[]', 'log-file': logFile });
    expect(existsSync(logFile)).toBe(true);
    expect(result.failure?.message).toContain(logFile);
    expect(result.summary).toContain('Sauce Connect did not start');
    expect(result.summary).toContain(logFile);
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.[0]).toBe('sauce-connect-log-broken');
    expect(uploads[0]?.slice(1)).toEqual([logFile]);
    expect(await launches()).toHaveLength(2);
    expect(deps.logger.lines('warning')).toEqual([
      'Sauce Connect start 1 of 2 failed: Sauce Connect exited (code 1) before it was ready.',
      'Sauce Connect start 2 of 2 failed: Sauce Connect exited (code 1) before it was ready.',
    ]);
    // Once a launch has ended, the state no longer asks the post step to stop it.
    expect(deps.state.get(STATE_KEY)).toBe('{"tunnels":[]}');
    expect(post.hasLeftRunning(deps.state)).toBe(false);
    expect(await readFile(logFile, 'utf8')).toContain('"--region","eu-central"');
  });

  it('does not start again over a tunnel of the name that another run started after its first try', async () => {
    let other: { id: string } | undefined;
    const { deps } = startDeps(
      { FAKE_SC_FAILURES: '1', FAKE_SC_COUNTER: path.join(setup.dir, 'count') },
      {
        clock: {
          now: () => Date.now(),
          monotonic: () => performance.now(),
          // The pause between two tries: another run's start of the name comes up meanwhile.
          sleep: async () => {
            other = await admin(setup.emulator.url, 'POST', 'tunnels', {
              owner: USERNAME,
              tunnel_identifier: 'contested',
              tunnel_pool: false,
            });
          },
        },
      },
    );
    const result = await run(startInputs('contested', { startRetries: 2 }), deps);
    expect(other).toBeDefined();
    expect(result.failure?.kind).toBe('refused');
    expect(result.failure?.message).toContain(
      `Another run started a tunnel named "contested" while this step was starting one: tunnel ${other!.id} of demo is running under that name.`,
    );
    expect(await launches()).toHaveLength(1);
    expect((await tunnelById(setup.emulator.url, other!.id))?.status).toBe('running');
    expect(deps.state.get(STATE_KEY)).toBe('{"tunnels":[]}');
  });

  it('says so when there is no artifact service for the log of a failed start', async () => {
    const { deps } = startDeps(
      { FAKE_SC_FAILURES: '9', FAKE_SC_COUNTER: path.join(setup.dir, 'count') },
      {
        artifacts: {
          upload: async () => ({
            outcome: 'unavailable' as const,
            reason: 'there is no artifact service here',
          }),
        },
      },
    );
    const result = await run(startInputs('no-artifacts'), deps);
    expect(result.failure?.kind).toBe('service');
    expect(deps.logger.lines('warning').at(-1)).toBe(
      `Could not upload the Sauce Connect log as an artifact: there is no artifact service here. It stays at ${result.outputs['log-file']}.`,
    );
  });

  it('fails of kind service when the download fails, before launching anything', async () => {
    const tools: ToolCache = {
      find: async () => '',
      downloadTool: async () => {
        throw new Error('Unexpected HTTP response: 404');
      },
      extractTar: async () => '',
      extractZip: async () => '',
      cacheDir: async () => '',
    };
    const { deps } = startDeps({}, { tools });
    const { scPath: _scPath, ...settings } = startInputs('download').start;
    const result = await run(
      {
        ...startInputs('download'),
        start: {
          ...settings,
          scDownloadUrl: 'https://mirror.test/sc-{version}.tar.gz',
          scChecksum: { algorithm: 'sha256', value: 'ab'.repeat(32) },
        },
      },
      deps,
    );

    expect(result.failure).toEqual({
      kind: 'service',
      message:
        'Could not download Sauce Connect from https://mirror.test/sc-5.4.1.tar.gz: Unexpected HTTP response: 404. Check `sc-version` and `sc-download-url`, or give `sc-path`.',
    });
    expect(result.outputs).toEqual({ 'tunnel-id': '', tunnels: '[]', 'log-file': '' });
    expect(result.summary).toBe('');
    expect(await launches()).toEqual([]);
  });

  it('is cancelled while waiting for the tunnel, stopping what it launched', async () => {
    const controller = new AbortController();
    const { deps } = startDeps({ FAKE_SC_MODE: 'never-ready' }, { signal: controller.signal });
    const running = run(startInputs('cancelled', {}, { timeoutMs: 15_000 }), deps);
    // Cancelled once the stand-in is up and its pid saved.
    await until(() => deps.state.get(STATE_KEY).includes('"pid"'));
    controller.abort(new CancelledError('the run was cancelled (SIGINT)'));
    const result = await running;

    expect(result.failure).toEqual({
      kind: 'cancelled',
      message: 'The run was cancelled during `start`; the post step stops whatever this step had started.',
    });
    expect(result.outputs['log-file']).not.toBe('');
    const [pid] = await launches();
    expect(isRunning(pid as number)).toBe(false);
    expect(deps.state.get(STATE_KEY)).toBe('{"tunnels":[]}');
  });
});
