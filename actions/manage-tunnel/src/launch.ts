/**
 * One launch of Sauce Connect: detached, so that it outlives the main step, with its output in a
 * log file and the access key in its environment rather than on its command line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import net from 'node:net';
import type { AutomationRegion } from '@sauce-actions/api';

/** Sauce Connect 5 names its regions without the number the REST hosts carry. */
const SC_REGIONS: Partial<Record<AutomationRegion, string>> = {
  'us-west-1': 'us-west',
  'us-east-4': 'us-east',
  'eu-central-1': 'eu-central',
};

function sauceConnectRegion(region: AutomationRegion): string {
  return SC_REGIONS[region] ?? region;
}

interface LaunchOptions {
  executable: string;
  username: string;
  accessKey: string;
  region: AutomationRegion;
  tunnelName: string;
  /** `host:port` where Sauce Connect serves `/readyz`. */
  statusAddress: string;
  extraArgs: readonly string[];
  logFile: string;
  /** The environment the process starts from, before the variables it must not see are removed. */
  env: Environment;
}

/** Environment variables by name. */
export type Environment = Readonly<Record<string, string | undefined>>;

function sauceConnectArgs(options: LaunchOptions): string[] {
  return [
    'run',
    '--username',
    options.username,
    '--region',
    sauceConnectRegion(options.region),
    '--tunnel-name',
    options.tunnelName,
    '--api-address',
    options.statusAddress,
    ...options.extraArgs,
  ];
}

/** Variables the process must not see: the action's inputs hold the key, the runner's tokens are not its business. */
function childEnv(base: Environment, accessKey: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (name.startsWith('INPUT_') || name.startsWith('ACTIONS_')) continue;
    env[name] = value;
  }
  env.SAUCE_ACCESS_KEY = accessKey;
  return env;
}

/** Starts the process and appends its output to the log file, after a header naming the attempt. */
export function launch(options: LaunchOptions, header: string): ChildProcess {
  const fd = openSync(options.logFile, 'a');
  try {
    writeSync(fd, `${header}\n`);
    const child = spawn(options.executable, sauceConnectArgs(options), {
      detached: true,
      stdio: ['ignore', fd, fd],
      env: childEnv(options.env, options.accessKey),
      windowsHide: true,
    });
    // Neither the handle nor the open log keeps this step alive; the post step finds it by pid.
    child.unref();
    return child;
  } finally {
    closeSync(fd);
  }
}

/** `:8032`, `0.0.0.0:8032` and `localhost:8032` all mean a local address to check. */
export function readinessUrl(statusAddress: string): string {
  const match = /^(.*):(\d+)$/.exec(statusAddress.trim());
  if (!match) throw new Error(`not host:port: ${statusAddress}`);
  let host = match[1] as string;
  if (host === '' || host === '0.0.0.0' || host === '*') host = '127.0.0.1';
  if (host === '[::]') host = '[::1]';
  return `http://${host}:${match[2]}/readyz`;
}

/** Whether Sauce Connect answers ready; anything but 200 in time (refused, 503, slow) is no. */
export async function isReady(url: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  const bound = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, { signal: signal ? AbortSignal.any([signal, bound]) : bound });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    signal?.throwIfAborted();
    return false;
  }
}

/**
 * What Sauce Connect 5 says of its tunnel at `/info` on its status address: `tunnel_id` and
 * `tunnel_name`. `unsupported` when it has no such page (404), `unavailable` while it does not
 * tell yet (not connected, another answer, no answer).
 */
type TunnelInfo = { id: string; name: string | undefined } | 'unsupported' | 'unavailable';

export async function tunnelInfo(
  statusAddress: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<TunnelInfo> {
  const url = readinessUrl(statusAddress).replace(/\/readyz$/, '/info');
  const bound = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, { signal: signal ? AbortSignal.any([signal, bound]) : bound });
    if (response.status === 404) {
      await response.body?.cancel();
      return 'unsupported';
    }
    const body = (response.ok ? await response.json() : undefined) as Record<string, unknown> | undefined;
    if (typeof body?.tunnel_id !== 'string' || body.tunnel_id === '') return 'unavailable';
    return { id: body.tunnel_id, name: typeof body.tunnel_name === 'string' ? body.tunnel_name : undefined };
  } catch {
    signal?.throwIfAborted();
    return 'unavailable';
  }
}

/** Whether something already accepts connections on the status address (another Sauce Connect). */
export function addressInUse(statusAddress: string, timeoutMs = 1000): Promise<boolean> {
  const url = new URL(readinessUrl(statusAddress));
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) });
    const done = (inUse: boolean) => {
      socket.destroy();
      resolve(inUse);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
