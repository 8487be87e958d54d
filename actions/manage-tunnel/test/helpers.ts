/**
 * What the tests of manage-tunnel share: the emulator's admin endpoints, running the bundle, and a
 * stand-in Sauce Connect to start.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort, runStep, type StepOptions, type StepResult } from '@sauce-actions/action-harness';
import { SauceClient, type Tunnel } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterEach, beforeEach, expect } from 'vitest';
import { isRunning } from '../src/process.ts';
import { writeFakeSauceConnect } from './fake-sc.ts';

export const ACTION_DIR = path.resolve(import.meta.dirname, '..');
export const USERNAME = 'demo';
export const ACCESS_KEY = 'demo-access-key';

/** A client of the emulator's demo account, as the action's host would make it. */
export function emulatorClient(base: string): SauceClient {
  return new SauceClient({ region: 'us-west-1', apiUrl: base, username: USERNAME, accessKey: ACCESS_KEY });
}

export async function admin<T>(base: string, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}/_emulator/${route}`, {
    method,
    ...(body !== undefined
      ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
      : {}),
    signal: AbortSignal.timeout(5000),
  });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export function createTunnel(
  base: string,
  tunnel: { tunnel_identifier: string; status?: string; owner?: string },
): Promise<Tunnel> {
  return admin<Tunnel>(base, 'POST', 'tunnels', { owner: USERNAME, ...tunnel });
}

/**
 * Sets a tunnel's status once a step has listed the account's tunnels (the emulator answered a
 * listing): the step has seen the tunnel as it was before, however long it took to start.
 */
export async function changeAfterListing(base: string, id: string, status: string): Promise<void> {
  for (;;) {
    const { requests } = await admin<{ requests: { method: string; path: string }[] }>(
      base,
      'GET',
      'requests',
    );
    if (requests.some((entry) => entry.method === 'GET' && entry.path === `/rest/v1/${USERNAME}/tunnels`))
      break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await admin(base, 'PATCH', `tunnels/${id}`, { status });
}

export async function allTunnels(base: string): Promise<Tunnel[]> {
  return (await admin<{ tunnels: Tunnel[] }>(base, 'GET', 'tunnels')).tunnels;
}

export async function tunnelById(base: string, id: string): Promise<Tunnel | undefined> {
  return (await allTunnels(base)).find((tunnel) => tunnel.id === id);
}

/**
 * Waits until `done` holds, looking again every 20 ms: for what a process or a step does in its
 * own time, such as exiting after a signal or saving its state. No bound of its own: vitest's
 * limit is the safety net.
 */
export async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Runs the bundled action (main, then post) with the emulator's credentials. */
export function runAction(
  base: string,
  inputs: Record<string, string>,
  options: Omit<StepOptions, 'actionDir' | 'inputs'> = {},
  actionDir = ACTION_DIR,
): Promise<StepResult> {
  return runStep({
    actionDir,
    inputs: { username: USERNAME, 'access-key': ACCESS_KEY, 'api-url': base, ...inputs },
    ...options,
  });
}

/** The error annotations of a phase, as one text. */
export function errors(result: { annotations: { level: string; message: string }[] }): string {
  return result.annotations
    .filter((a) => a.level === 'error')
    .map((a) => a.message)
    .join('\n');
}

/**
 * A copy of the action's action.yml in a folder of its own under `dir`, changed by `yml`, whose
 * entry points still run the one bundle of the action (`../../dist/` from the action's folder):
 * without its `post`, a main step leaves what it started for a post step run apart.
 */
export async function actionVariant(
  dir: string,
  name: string,
  yml: (text: string) => string,
): Promise<string> {
  const variant = path.join(dir, name);
  await mkdir(variant, { recursive: true });
  const bundles = path.relative(variant, path.resolve(ACTION_DIR, '..', '..', 'dist'));
  const text = yml(await readFile(path.join(ACTION_DIR, 'action.yml'), 'utf8')).replace(
    /^(\s+(?:main|post): )\.\.\/\.\.\/dist\//gm,
    `$1${bundles}/`,
  );
  if (!/^\s+main: .*\/manage-tunnel(-post)?\.js$/m.test(text))
    throw new Error('action.yml has no main entry');
  await writeFile(path.join(variant, 'action.yml'), text);
  return variant;
}

/** The action without its post step. */
export const withoutPost = (yml: string): string => yml.replace(/^\s+post: .*$/m, '');
/** The post step's bundle as a step of its own, run apart from its main step with the state that saved. */
export const postAlone = (yml: string): string =>
  withoutPost(yml).replace(/^(\s+main: .*\/)manage-tunnel\.js$/m, '$1manage-tunnel-post.js');

/**
 * After a test: kills the stand-in's launches (their pids in `pidsDir`) still running, removes the
 * steps' folders, and fails the test if any launch was left running.
 */
export async function endLaunches(pidsDir: string, steps: StepResult[]): Promise<void> {
  const left: number[] = [];
  for (const name of await readdir(pidsDir)) {
    const pid = Number(name);
    if (!isRunning(pid)) continue;
    left.push(pid);
    process.kill(pid, 'SIGKILL');
  }
  await Promise.all(steps.splice(0).map((step) => step.cleanup()));
  expect(left, 'stand-in Sauce Connect processes left running').toEqual([]);
}

export interface StandInSetup {
  readonly emulator: RunningEmulator;
  /** The test's folder: the stand-in in `bin`, and `pids`, where each launch leaves its pid. */
  readonly dir: string;
  /** The stand-in Sauce Connect's executable. */
  readonly sc: string;
  /** A free loopback address for its status server. */
  readonly statusAddress: string;
  /** Steps run in the test, whose folders are removed after it. */
  readonly steps: StepResult[];
  /** The environment that steers the stand-in, with `extra`. */
  fakeEnv(extra?: Record<string, string>): Record<string, string>;
  /** The pids of the stand-in's launches in this test. */
  launches(): Promise<number[]>;
}

/**
 * For each test, an emulator of its own and a stand-in Sauce Connect in a new folder (named from
 * `prefix`); after it, the steps' folders and the emulator are gone, and a test that left a launch
 * running fails (the launch killed).
 */
export function useStandInSauceConnect(prefix: string): StandInSetup {
  let current: Omit<StandInSetup, 'steps' | 'fakeEnv' | 'launches'> & { pidsDir: string };
  const steps: StepResult[] = [];

  beforeEach(async () => {
    const emulator = await startEmulator({ port: 0 });
    const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    const pidsDir = path.join(dir, 'pids');
    await mkdir(pidsDir);
    await mkdir(path.join(dir, 'bin'));
    const sc = await writeFakeSauceConnect(path.join(dir, 'bin'));
    current = { emulator, dir, pidsDir, sc, statusAddress: `127.0.0.1:${await freePort()}` };
  });

  afterEach(async () => {
    try {
      await endLaunches(current.pidsDir, steps);
    } finally {
      await current.emulator.close();
      await rm(current.dir, { recursive: true, force: true });
    }
  });

  return {
    get emulator() {
      return current.emulator;
    },
    get dir() {
      return current.dir;
    },
    get sc() {
      return current.sc;
    },
    get statusAddress() {
      return current.statusAddress;
    },
    steps,
    fakeEnv: (extra = {}) => ({
      FAKE_SC_EMULATOR: current.emulator.url,
      FAKE_SC_PIDS: current.pidsDir,
      ...extra,
    }),
    launches: async () => (await readdir(current.pidsDir)).map(Number),
  };
}
