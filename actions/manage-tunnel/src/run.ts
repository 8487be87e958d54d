/** The operations of the action, on typed inputs, returning the outputs and what the summary shows. */
import { ActionError, InputError } from '@sauce-actions/action-kit';
import type { CallOptions, Tunnel } from '@sauce-actions/api';
import { startTunnel, type StartDeps, type StartInputs } from './start.ts';
import { emptyCleanup, type CleanupState } from './state.ts';
import { stopTunnels, type StoppedTunnel } from './stop.ts';
import { matching, newestFirst, type TunnelApi, type TunnelTarget } from './tunnels.ts';
import { waitForTunnel } from './wait.ts';

export const OPERATIONS = ['wait', 'list', 'stop', 'start'] as const;
export type Operation = (typeof OPERATIONS)[number];

export interface TunnelInputs {
  operation: Operation;
  tunnelName?: string;
  tunnelId?: string;
  /** Whether the post step stops what this step waited for or started. */
  stopOnExit: boolean;
  timeoutMs: number;
  pollIntervalMs: number;
  /** Settings of `start`. */
  start?: StartSettings;
}

export type StartSettings = Omit<StartInputs, 'tunnelName' | 'timeoutMs' | 'pollIntervalMs' | 'stopOnExit'>;

/** What only `start` needs: the key for Sauce Connect, the tool cache, the log's place and upload. */
export type StartTools = Omit<StartDeps, 'api' | 'username' | 'log' | 'warn' | 'saveCleanup' | 'signal'>;

export interface TunnelDeps {
  api: TunnelApi;
  username: string;
  log: (line: string) => void;
  warn: (line: string) => void;
  /** Saves what the post step cleans up; called as soon as there is something. */
  saveCleanup: (state: CleanupState) => void;
  signal?: AbortSignal | undefined;
  /** Required by `start`. */
  start?: StartTools;
}

export interface TunnelOutputs {
  'tunnel-id': string;
  tunnels: string;
  'log-file': string;
}

export interface TunnelReport {
  operation: Operation;
  username: string;
  outputs: TunnelOutputs;
  /** The tunnel waited for or started. */
  tunnel?: Tunnel;
  /** What `list` found. */
  listed?: Tunnel[];
  /** What `stop` shut down. */
  stopped?: StoppedTunnel[];
  /** `start`: how many launches it took, and the process. */
  attempts?: number;
  pid?: number;
  /** Whether the post step will stop the tunnel. */
  stopOnExit: boolean;
}

export async function run(inputs: TunnelInputs, deps: TunnelDeps): Promise<TunnelReport> {
  const target = checkTarget(inputs);
  try {
    return await dispatch(inputs, target, deps);
  } catch (error) {
    if (deps.signal?.aborted && !(error instanceof ActionError)) {
      throw new ActionError(
        `The run was cancelled during \`${inputs.operation}\`; the post step stops whatever this step had started.`,
        'user',
        { cause: error },
      );
    }
    throw error;
  }
}

function dispatch(inputs: TunnelInputs, target: TunnelTarget, deps: TunnelDeps): Promise<TunnelReport> {
  switch (inputs.operation) {
    case 'wait':
      return waitOperation(inputs, target, deps);
    case 'list':
      return listOperation(inputs, target, deps);
    case 'stop':
      return stopOperation(inputs, target, deps);
    case 'start':
      return startOperation(inputs, target, deps);
  }
}

function checkTarget(inputs: TunnelInputs): TunnelTarget {
  const target: TunnelTarget = { name: inputs.tunnelName, id: inputs.tunnelId };
  if (inputs.operation === 'start' && !target.name) {
    throw new InputError(
      'tunnel-name',
      'is required by `operation: start`, but was empty',
      'a name for the tunnel, unique to the job, for example `ci-${{ github.run_id }}-${{ github.job }}`',
    );
  }
  if ((inputs.operation === 'wait' || inputs.operation === 'stop') && !target.name && !target.id) {
    throw new InputError(
      'tunnel-name',
      `is required by \`operation: ${inputs.operation}\` (or \`tunnel-id\`), but both were empty`,
      'the tunnel name given to Sauce Connect (`--tunnel-name`), or `tunnel-id`',
    );
  }
  return target;
}

/** Bounds an operation that does not poll by the `timeout` input, and by the runner's cancellation. */
function bounded(inputs: TunnelInputs, deps: TunnelDeps): CallOptions {
  const deadline = AbortSignal.timeout(inputs.timeoutMs);
  return { signal: deps.signal ? AbortSignal.any([deps.signal, deadline]) : deadline };
}

function outputs(values: Partial<TunnelOutputs>): TunnelOutputs {
  return { 'tunnel-id': '', tunnels: '[]', 'log-file': '', ...values };
}

async function waitOperation(
  inputs: TunnelInputs,
  target: TunnelTarget,
  deps: TunnelDeps,
): Promise<TunnelReport> {
  const tunnel = await waitForTunnel({
    api: deps.api,
    username: deps.username,
    target,
    timeoutMs: inputs.timeoutMs,
    intervalMs: inputs.pollIntervalMs,
    log: deps.log,
    signal: deps.signal,
  });
  deps.log(`Tunnel ${tunnel.id} ("${tunnel.tunnel_identifier ?? ''}") is running.`);
  if (inputs.stopOnExit) {
    deps.saveCleanup({ ...emptyCleanup(), tunnels: [{ id: tunnel.id, name: tunnel.tunnel_identifier }] });
  }
  return {
    operation: 'wait',
    username: deps.username,
    outputs: outputs({ 'tunnel-id': tunnel.id, tunnels: JSON.stringify([tunnel]) }),
    tunnel,
    stopOnExit: inputs.stopOnExit,
  };
}

async function listOperation(
  inputs: TunnelInputs,
  target: TunnelTarget,
  deps: TunnelDeps,
): Promise<TunnelReport> {
  const all = await deps.api.list({ full: true }, bounded(inputs, deps));
  // Without a name or id every listed tunnel counts, shared ones of other users included.
  const listed = newestFirst(
    target.name === undefined && target.id === undefined ? all : matching(all, deps.username, target),
  );
  deps.log(`${listed.length} tunnel(s) listed.`);
  const running = listed.filter((t) => t.status === 'running');
  return {
    operation: 'list',
    username: deps.username,
    outputs: outputs({ 'tunnel-id': running.map((t) => t.id).join(','), tunnels: JSON.stringify(listed) }),
    listed,
    stopOnExit: false,
  };
}

async function stopOperation(
  inputs: TunnelInputs,
  target: TunnelTarget,
  deps: TunnelDeps,
): Promise<TunnelReport> {
  const stopped = await stopTunnels({
    api: deps.api,
    username: deps.username,
    target,
    reason: 'stopped by the manage-tunnel action',
    log: deps.log,
    warn: deps.warn,
    signal: bounded(inputs, deps).signal,
  });
  return {
    operation: 'stop',
    username: deps.username,
    outputs: outputs({ 'tunnel-id': stopped.map((t) => t.id).join(','), tunnels: JSON.stringify(stopped) }),
    stopped,
    stopOnExit: false,
  };
}

async function startOperation(
  inputs: TunnelInputs,
  target: TunnelTarget,
  deps: TunnelDeps,
): Promise<TunnelReport> {
  if (!inputs.start || !deps.start) throw new Error('start settings missing');
  const started = await startTunnel(
    {
      ...inputs.start,
      tunnelName: target.name as string,
      timeoutMs: inputs.timeoutMs,
      pollIntervalMs: inputs.pollIntervalMs,
      stopOnExit: inputs.stopOnExit,
    },
    {
      ...deps.start,
      api: deps.api,
      username: deps.username,
      log: deps.log,
      warn: deps.warn,
      saveCleanup: deps.saveCleanup,
      signal: deps.signal,
    },
  );
  return {
    operation: 'start',
    username: deps.username,
    outputs: outputs({
      'tunnel-id': started.tunnel.id,
      tunnels: JSON.stringify([started.tunnel]),
      'log-file': started.logFile,
    }),
    tunnel: started.tunnel,
    attempts: started.attempts,
    pid: started.process.pid,
    stopOnExit: inputs.stopOnExit,
  };
}
