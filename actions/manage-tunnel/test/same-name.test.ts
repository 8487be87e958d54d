/**
 * Starts that share a tunnel name, on the bundles against the emulator: each step reports the
 * tunnel its own Sauce Connect opened (told by Sauce Connect's `/info`), and its post step stops
 * that one alone; a start whose name is already running says so instead of shutting the running
 * tunnel down (as Sauce Connect does outside a pool), unless `--tunnel-pool` joins it.
 */
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, type StepResult } from '@sauce-actions/action-harness';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isRunning } from '../src/process.ts';
import { writeFakeSauceConnect } from './fake-sc.ts';
import {
  actionVariant,
  admin,
  endLaunches,
  errors,
  postAlone,
  runAction,
  tunnelById,
  withoutPost,
} from './helpers.ts';

let emulator: RunningEmulator;
let dir: string;
let pidsDir: string;
let sc: string;
/** The action without its post step: its main steps leave what they started for post steps run apart. */
let mainOnly: string;
/** The post step's bundle alone, run with the state a main step saved. */
let postOnly: string;
const steps: StepResult[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  dir = await mkdtemp(path.join(os.tmpdir(), 'manage-tunnel-same-name-'));
  pidsDir = path.join(dir, 'pids');
  await mkdir(pidsDir);
  await mkdir(path.join(dir, 'bin'));
  sc = await writeFakeSauceConnect(path.join(dir, 'bin'));
  mainOnly = await actionVariant(dir, 'main-only', withoutPost);
  postOnly = await actionVariant(dir, 'post-only', postAlone);
});

afterEach(() => endLaunches(pidsDir, steps));

afterAll(async () => {
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

const fakeEnv = () => ({ FAKE_SC_EMULATOR: emulator.url, FAKE_SC_PIDS: pidsDir });

/** A main step of `start` (its post step left for `post`), or with `withPost` the whole step. */
async function start(
  inputs: Record<string, string>,
  withPost = false,
  env: Record<string, string> = {},
): Promise<StepResult> {
  const result = await runAction(
    emulator.url,
    {
      operation: 'start',
      'sc-path': sc,
      'status-address': `127.0.0.1:${await freePort()}`,
      'poll-interval': '1s',
      ...inputs,
    },
    { env: { ...fakeEnv(), ...env } },
    withPost ? undefined : mainOnly,
  );
  steps.push(result);
  return result;
}

/** The post step of a main step, in a process of its own, from the state it saved. */
async function post(main: StepResult): Promise<StepResult> {
  const result = await runAction(
    emulator.url,
    { operation: 'start' },
    { env: { ...fakeEnv(), STATE_cleanup: main.state.cleanup ?? '' } },
    postOnly,
  );
  steps.push(result);
  return result;
}

const statusOf = async (id: string) => (await tunnelById(emulator.url, id))?.status;
/** The DELETE requests the emulator received for a tunnel. */
async function deletesOf(id: string): Promise<string[]> {
  const { requests } = await admin<{ requests: { method: string; path: string }[] }>(
    emulator.url,
    'GET',
    'requests',
  );
  return requests
    .filter((entry) => entry.method === 'DELETE' && entry.path.includes(id))
    .map((entry) => entry.path);
}
const pidOf = (main: StepResult): number =>
  (JSON.parse(main.state.cleanup as string) as { process: { pid: number } }).process.pid;

/** The tunnel id the step's own Sauce Connect says it opened, from its log. */
async function ownTunnel(main: StepResult): Promise<string | undefined> {
  const log = await readFile(main.outputs['log-file'] as string, 'utf8');
  return /Sauce Connect is up, tunnel (\w+)/.exec(log)?.[1];
}

describe('two starts with one name', () => {
  it('started at once (a pool): each reports its own tunnel, and each post step stops only that one', async () => {
    const [a, b] = await Promise.all([
      start({ 'tunnel-name': 'shared-pool', 'sc-args': '--tunnel-pool' }),
      start({ 'tunnel-name': 'shared-pool', 'sc-args': '--tunnel-pool' }),
    ]);
    expect(errors(a)).toBe('');
    expect(errors(b)).toBe('');
    const idA = a.outputs['tunnel-id'] as string;
    const idB = b.outputs['tunnel-id'] as string;
    expect(idA).not.toBe(idB);
    expect(idA).toBe(await ownTunnel(a));
    expect(idB).toBe(await ownTunnel(b));
    expect(JSON.parse(a.state.cleanup as string).tunnels).toEqual([
      { id: idA, name: 'shared-pool', origin: 'started' },
    ]);

    const postA = await post(a);
    expect(errors(postA)).toBe('');
    expect(await statusOf(idA)).toBe('terminated');
    expect(await statusOf(idB)).toBe('running');
    expect(isRunning(pidOf(b))).toBe(true);
    expect(postA.log).not.toContain(idB);

    const postB = await post(b);
    expect(errors(postB)).toBe('');
    expect(await statusOf(idB)).toBe('terminated');
    expect(isRunning(pidOf(b))).toBe(false);
  });

  it('one after the other: the second says the name is running and leaves that tunnel up; --tunnel-pool joins it', async () => {
    const first = await start({ 'tunnel-name': 'taken' });
    expect(errors(first)).toBe('');
    const firstId = first.outputs['tunnel-id'] as string;
    const launchesBefore = (await readdir(pidsDir)).length;

    const second = await start({ 'tunnel-name': 'taken' }, true);
    expect(second.exitCode).toBe(1);
    expect(errors(second)).toContain(`A tunnel named "taken" is already running for demo (${firstId})`);
    expect(errors(second)).toContain('--tunnel-pool');
    expect((await readdir(pidsDir)).length).toBe(launchesBefore);
    expect(await statusOf(firstId)).toBe('running');
    expect(second.post?.log).toContain('Nothing to clean up');
    expect(await statusOf(firstId)).toBe('running');

    const pooled = await start({ 'tunnel-name': 'taken', 'sc-args': '--tunnel-pool' });
    expect(errors(pooled)).toBe('');
    expect(pooled.log).toContain(`Joining the pool of 1 running tunnel(s) named "taken" (${firstId})`);
    const pooledId = pooled.outputs['tunnel-id'] as string;
    expect(pooledId).not.toBe(firstId);
    expect(await statusOf(firstId)).toBe('running');

    await post(pooled);
    expect(await statusOf(pooledId)).toBe('terminated');
    expect(await statusOf(firstId)).toBe('running');
    await post(first);
    expect(await statusOf(firstId)).toBe('terminated');
  });
});

describe('two starts racing for one name, outside a pool', () => {
  it("the loser fails naming the winner's tunnel, and nothing of the winner's is stopped", async () => {
    const meetDir = path.join(dir, 'meet');
    await mkdir(meetDir);
    const launchesBefore = (await readdir(pidsDir)).length;
    // Both pass the name check, then register at once: the service keeps the last registered.
    const racing = { FAKE_SC_MEET_DIR: meetDir, FAKE_SC_MEET: '2' };
    const [a, b] = await Promise.all([
      start({ 'tunnel-name': 'race', 'start-retries': '1', timeout: '10s' }, false, racing),
      start({ 'tunnel-name': 'race', 'start-retries': '1', timeout: '10s' }, false, racing),
    ]);
    const winner = a.exitCode === 0 ? a : b;
    const loser = winner === a ? b : a;
    expect([winner.exitCode, loser.exitCode]).toEqual([0, 1]);
    const winnerId = winner.outputs['tunnel-id'] as string;
    const loserId = await ownTunnel(loser);
    expect(winnerId).toBe(await ownTunnel(winner));
    expect(loserId).toBeDefined();
    expect(loserId).not.toBe(winnerId);

    const error = errors(loser);
    expect(error).toContain(
      `Another run started a tunnel named "race" while this step was starting one: tunnel ${winnerId} of demo is running under that name`,
    );
    expect(error).toContain(`shut down the tunnel this start had opened (${loserId})`);
    expect(error).toContain(`left ${winnerId} running for the run that started it`);
    expect(loser.outputs['tunnel-id']).toBe('');
    // No launch after the two: a retry would have shut the winner's tunnel down.
    expect((await readdir(pidsDir)).length).toBe(launchesBefore + 2);
    expect(await statusOf(winnerId)).toBe('running');
    expect(isRunning(pidOf(winner))).toBe(true);

    const loserPost = await post(loser);
    expect(errors(loserPost)).toBe('');
    expect(await statusOf(winnerId)).toBe('running');
    expect(isRunning(pidOf(winner))).toBe(true);
    expect(await deletesOf(winnerId)).toEqual([]);

    await post(winner);
    expect(await statusOf(winnerId)).toBe('terminated');
  }, 45_000);
});

describe('the status address', () => {
  it('is refused before the launch when something already answers there', async () => {
    const busy = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as net.AddressInfo;
    try {
      const launchesBefore = (await readdir(pidsDir)).length;
      const result = await start({ 'tunnel-name': 'busy', 'status-address': `127.0.0.1:${port}` }, true);
      expect(result.exitCode).toBe(1);
      expect(errors(result)).toContain(
        `Input "status-address" has "127.0.0.1:${port}", which is already in use`,
      );
      expect((await readdir(pidsDir)).length).toBe(launchesBefore);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });
});
