/**
 * `start`: runs Sauce Connect on the runner and proves the tunnel ready, both locally (`/readyz` on
 * the status address) and at the service (listed as running), retrying a failed start.
 */
import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ActionError } from '@sauce-actions/action-kit';
import type { AutomationRegion, Tunnel } from '@sauce-actions/api';
import { isReady, launch, readinessUrl } from './launch.ts';
import type { LogUploader } from './log-artifact.ts';
import { isRunning, stopProcess } from './process.ts';
import { locateSauceConnect, type ToolCache } from './sauce-connect.ts';
import type { CleanupState, LaunchedProcess } from './state.ts';
import { matching, newestFirst, type TunnelApi } from './tunnels.ts';

export interface StartInputs {
  tunnelName: string;
  scPath?: string | undefined;
  scVersion: string;
  scDownloadUrl?: string | undefined;
  scArgs: readonly string[];
  startRetries: number;
  statusAddress: string;
  /** Longest wait for one launch to become ready. */
  timeoutMs: number;
  pollIntervalMs: number;
  stopOnExit: boolean;
}

export interface StartDeps {
  api: TunnelApi;
  username: string;
  accessKey: string;
  region: AutomationRegion;
  tools: ToolCache;
  uploadLog: LogUploader;
  /** Folder of the log file (the runner's temporary folder). */
  logDir: string;
  log: (line: string) => void;
  warn: (line: string) => void;
  saveCleanup: (state: CleanupState) => void;
  signal?: AbortSignal | undefined;
  /** Time a failed launch has after SIGINT before it is killed. */
  graceMs?: number;
  env?: NodeJS.ProcessEnv;
}

export interface Started {
  tunnel: Tunnel;
  logFile: string;
  attempts: number;
  process: LaunchedProcess;
}

/** A start that failed; the log file's path is still an output. */
export class StartError extends ActionError {
  readonly logFile: string;

  constructor(message: string, logFile: string, options?: { cause?: unknown }) {
    super(message, 'user', options);
    this.logFile = logFile;
  }
}

export async function startTunnel(inputs: StartInputs, deps: StartDeps): Promise<Started> {
  const executable = await locateSauceConnect({
    scPath: inputs.scPath,
    version: inputs.scVersion,
    downloadUrl: inputs.scDownloadUrl,
    tools: deps.tools,
    log: deps.log,
  });
  const logFile = path.join(deps.logDir, `sauce-connect-${safeName(inputs.tunnelName)}-${Date.now()}.log`);
  deps.log(`Sauce Connect: ${executable}; its log: ${logFile}`);
  const attempts = inputs.startRetries + 1;
  const failures: string[] = [];
  for (let attempt = 1; attempt <= attempts; attempt++) {
    deps.signal?.throwIfAborted();
    const outcome = await attemptStart(inputs, deps, executable, logFile, attempt, attempts);
    if ('tunnel' in outcome) return { ...outcome, logFile, attempts: attempt };
    failures.push(`attempt ${attempt}: ${outcome.failure}`);
    deps.warn(`Sauce Connect start ${attempt} of ${attempts} failed: ${outcome.failure}.`);
    if (attempt < attempts) await sleep(1000, undefined, deps.signal ? { signal: deps.signal } : {});
  }
  await deps.uploadLog(logFile, inputs.tunnelName);
  const tail = await logTail(logFile, 15);
  throw new StartError(
    `Sauce Connect did not start the tunnel "${inputs.tunnelName}" (${failures.join('; ')}). ` +
      `Its log is ${logFile}${tail ? `; it ends with:\n${tail}\n` : '. '}` +
      'Check the credentials, `region`, `sc-args` and the network between the runner and Sauce Labs, or raise `timeout` or `start-retries`.',
    logFile,
  );
}

type AttemptOutcome = { tunnel: Tunnel; process: LaunchedProcess } | { failure: string };

async function attemptStart(
  inputs: StartInputs,
  deps: StartDeps,
  executable: string,
  logFile: string,
  attempt: number,
  attempts: number,
): Promise<AttemptOutcome> {
  const call = deps.signal ? { signal: deps.signal } : {};
  // Tunnels listed before the launch are someone else's, even with the same name.
  const before = new Set((await deps.api.list({ full: true }, call)).map((t) => t.id));
  const child = launch(
    {
      executable,
      username: deps.username,
      accessKey: deps.accessKey,
      region: deps.region,
      tunnelName: inputs.tunnelName,
      statusAddress: inputs.statusAddress,
      extraArgs: inputs.scArgs,
      logFile,
      ...(deps.env ? { env: deps.env } : {}),
    },
    `--- manage-tunnel: start ${attempt} of ${attempts} at ${new Date().toISOString()} ---`,
  );
  const exited = exitOf(child);
  if (child.pid === undefined) {
    const { code } = await exited;
    return { failure: `could not be launched (${code ?? 'no exit code'})` };
  }
  const launched: LaunchedProcess = { pid: child.pid, executable, logFile, tunnelName: inputs.tunnelName };
  // Saved at once: should this step be cut short, the post step still stops the process.
  if (inputs.stopOnExit) deps.saveCleanup({ tunnels: [], process: launched });
  deps.log(`Started Sauce Connect (pid ${child.pid}); waiting until it is ready.`);

  try {
    const tunnel = await waitUntilReady(inputs, deps, before, exited);
    if (typeof tunnel === 'string') {
      await stopLaunched(deps, launched);
      return { failure: tunnel };
    }
    if (inputs.stopOnExit) {
      deps.saveCleanup({ tunnels: [{ id: tunnel.id, name: tunnel.tunnel_identifier }], process: launched });
    }
    return { tunnel, process: launched };
  } catch (error) {
    // Cancelled: there is little time left, so the post step finishes the job if this cannot.
    await stopLaunched(deps, launched, 3000);
    throw error;
  }
}

/** The tunnel once ready, or why it never became so. */
async function waitUntilReady(
  inputs: StartInputs,
  deps: StartDeps,
  before: ReadonlySet<string>,
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>,
): Promise<Tunnel | string> {
  const call = deps.signal ? { signal: deps.signal } : {};
  const readyz = readinessUrl(inputs.statusAddress);
  const deadline = Date.now() + inputs.timeoutMs;
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void exited.then((value) => (exit = value));
  let locallyReady = false;
  let lastStatus = 'not listed yet';
  for (;;) {
    deps.signal?.throwIfAborted();
    if (exit) return `Sauce Connect exited (${exit.signal ?? `code ${exit.code}`}) before it was ready`;
    if (!locallyReady) {
      locallyReady = await isReady(readyz, Math.min(5000, inputs.pollIntervalMs + 2000), deps.signal);
      if (locallyReady) deps.log(`Sauce Connect answers ready at ${readyz}.`);
    }
    if (locallyReady) {
      const ours = matching(await deps.api.list({ full: true }, call), deps.username, {
        name: inputs.tunnelName,
      }).filter((t) => !before.has(t.id));
      const running = newestFirst(ours.filter((t) => t.status === 'running'));
      if (running[0]) {
        deps.log(`Tunnel ${running[0].id} ("${inputs.tunnelName}") is running.`);
        return running[0];
      }
      lastStatus = ours.length > 0 ? ours.map((t) => `${t.id} ${t.status}`).join(', ') : 'not listed yet';
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      return locallyReady
        ? `Sauce Connect was ready but the tunnel was not running at Sauce Labs within ${seconds(inputs.timeoutMs)} (${lastStatus})`
        : `Sauce Connect did not answer ready at ${readyz} within ${seconds(inputs.timeoutMs)}`;
    }
    await Promise.race([
      sleep(
        Math.min(inputs.pollIntervalMs, remaining),
        undefined,
        deps.signal ? { signal: deps.signal } : {},
      ),
      exited,
    ]);
  }
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', () => resolve({ code: null, signal: null }));
  });
}

/** Stops a launch that failed; the state then holds nothing for the post step to stop. */
async function stopLaunched(deps: StartDeps, launched: LaunchedProcess, graceMs?: number): Promise<void> {
  if (isRunning(launched.pid)) {
    const outcome = await stopProcess(launched.pid, { graceMs: graceMs ?? deps.graceMs ?? 10_000 });
    deps.log(`Sauce Connect (pid ${launched.pid}) ${outcome === 'killed' ? 'was killed' : 'stopped'}.`);
  }
  if (!isRunning(launched.pid)) deps.saveCleanup({ tunnels: [] });
}

async function logTail(file: string, lines: number): Promise<string> {
  try {
    const text = await readFile(file, 'utf8');
    return text.trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60);
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)}s`;
}
