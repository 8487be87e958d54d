/**
 * Runs a bundled action as the runner does: `node <main>` in the workspace with `INPUT_*`
 * variables (action.yml defaults applied), fresh file-command files and the context variables;
 * then the post step, where there is one, with `STATE_*` from the main step's state file.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inputVariable, readActionMetadata, type ActionMetadata } from './action-yml.ts';
import { contextVariables, DEFAULT_CONTEXT, type ContextOverrides, type RunnerContext } from './context.ts';
import { parseKeyValueFile } from './file-commands.ts';
import { signalGroup, TEST_RUN_VARIABLE, trackProcess } from './processes.ts';
import { parseWorkflowCommands, type Annotation, type WorkflowCommand } from './workflow-commands.ts';

export interface StepOptions {
  /** The action's folder, holding action.yml. */
  actionDir: string;
  /** Inputs by their action.yml names; unknown names are an error (the runner only warns, but here they are typos). */
  inputs?: Readonly<Record<string, string>>;
  /** Extra environment of the step (`env:` in a workflow), for example a secret fallback variable. */
  env?: Readonly<Record<string, string>>;
  /** GITHUB_WORKSPACE and the working folder; default a fresh temporary folder. */
  workspace?: string;
  context?: ContextOverrides;
  /** The event's payload, the file at `GITHUB_EVENT_PATH` (set `context.eventName` to match); default `{}`. */
  event?: unknown;
  /** The Node binary; default the one running this code (the project's Node 24). */
  node?: string;
  /**
   * Ends the step (SIGTERM to its process group, then SIGKILL `killGraceMs` later) after this
   * long; default 120 s. A safety net for a step that hangs: `timedOut` says it fired.
   */
  timeoutMs?: number;
  /** Step id, `GITHUB_ACTION`. */
  id?: string;
  /** Folder under which the step's runner folders are made; default the system's temporary folder. */
  tempDir?: string;
  /**
   * Cancels the main phase after this long as the runner does: SIGINT, then SIGTERM after
   * `cancelGraceMs`, then SIGKILL `killGraceMs` later. The post phase still runs. A time counted
   * from the spawn races the step's start on a loaded machine: prefer `cancelOn` or `cancelWhen`.
   */
  cancelAfterMs?: number;
  /** Cancels the main phase, as `cancelAfterMs` does, as soon as its output matches. */
  cancelOn?: RegExp;
  /**
   * Cancels the main phase, as `cancelAfterMs` does, once this resolves (an event outside the
   * step, such as the service receiving a request) and the step has printed its first line.
   */
  cancelWhen?: Promise<unknown>;
  /**
   * How long after SIGINT the step is sent SIGTERM. The runner waits 7.5 s; the default, 30 s,
   * leaves a loaded machine's step the time to do what it does in 7.5 s on an idle one, so that
   * slowness is not mistaken for a step that ignores the signal. A test of the runner's
   * escalation itself sets it.
   */
  cancelGraceMs?: number;
  /**
   * How long after SIGTERM a step still running is killed (SIGKILL, with its process group).
   * The runner waits 2.5 s; the default, 30 s, is a safety net for the same reason as
   * `cancelGraceMs`'s. `killed` says whether it fired.
   */
  killGraceMs?: number;
  /**
   * The first signal of a cancel (default SIGINT, as the runner sends). SIGTERM skips the grace
   * of SIGINT; SIGKILL kills the step outright, as a runner that loses its job does: only the
   * post phase is left to clean up.
   */
  cancelSignal?: 'SIGINT' | 'SIGTERM' | 'SIGKILL';
  /**
   * Paths given instead of a phase's fresh file-command files (`/dev/full`, a read-only file, a
   * missing folder), to see how the step copes; the harness neither makes nor reads them, so the
   * phase's outputs, state or summary read back empty.
   */
  fileCommands?: Partial<Record<PhaseResult['phase'], Partial<Record<FileCommand, string>>>>;
}

/** The file commands a test may point elsewhere. */
export type FileCommand = 'output' | 'state' | 'summary';

export interface PhaseResult {
  phase: 'pre' | 'main' | 'post';
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** Whether the harness cancelled this phase (`cancelAfterMs`, `cancelOn`, `cancelWhen`). */
  cancelled: boolean;
  /** Whether the harness had to kill the phase (SIGKILL) after a cancel or its timeout. */
  killed: boolean;
  stdout: string;
  stderr: string;
  /** What the runner's log would show: masks applied, `add-mask` lines removed. */
  log: string;
  /** Every printed line except `add-mask` commands, unmasked: what a leak would look like. */
  unmaskedLog: string;
  annotations: Annotation[];
  masks: string[];
  /** Every workflow command the runner would have carried out, in order (`stop-commands` included). */
  commands: WorkflowCommand[];
  outputs: Record<string, string>;
  state: Record<string, string>;
  /** The raw step summary this phase appended. */
  summary: string;
  files: { output: string; state: string; summary: string; env: string; path: string };
}

export interface StepResult extends PhaseResult {
  metadata: ActionMetadata;
  workspace: string;
  runnerTemp: string;
  pre?: PhaseResult;
  post?: PhaseResult;
  /** Whether the step succeeded (main exit code 0), as `success()` sees it. */
  success: boolean;
  /** Removes the temporary folders the harness created (not a workspace it was given). */
  cleanup(): Promise<void>;
}

const PASSED_THROUGH = ['PATH', 'HOME', 'LANG', 'TMPDIR', 'SystemRoot', 'TZ', TEST_RUN_VARIABLE];

/** The runner's waits, after SIGINT and SIGTERM, stretched so that a loaded machine is not a step that hangs. */
const CANCEL_GRACE_MS = 30_000;
const KILL_GRACE_MS = 30_000;

export async function runStep(options: StepOptions): Promise<StepResult> {
  const actionDir = path.resolve(options.actionDir);
  const metadata = await readActionMetadata(actionDir);
  checkInputNames(metadata, options.inputs ?? {});
  const root = await mkdtemp(path.join(options.tempDir ?? os.tmpdir(), 'action-harness-'));
  const workspace = options.workspace ?? path.join(root, 'workspace');
  const runnerTemp = path.join(root, 'temp');
  const toolCache = path.join(root, 'tool-cache');
  await Promise.all(
    [workspace, runnerTemp, toolCache, path.join(runnerTemp, '_runner_file_commands')].map((d) =>
      mkdir(d, { recursive: true }),
    ),
  );
  try {
    return await runPhases(options, actionDir, metadata, root, workspace);
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

async function runPhases(
  options: StepOptions,
  actionDir: string,
  metadata: ActionMetadata,
  root: string,
  workspace: string,
): Promise<StepResult> {
  const runnerTemp = path.join(root, 'temp');
  const toolCache = path.join(root, 'tool-cache');
  const eventPath = path.join(root, 'event.json');
  await writeFile(eventPath, `${JSON.stringify(options.event ?? {})}\n`);

  const context: RunnerContext = {
    ...DEFAULT_CONTEXT,
    ...options.context,
    workspace,
    runnerTemp,
    toolCache,
    eventPath,
  };
  const inputs = inputVariables(metadata, options.inputs ?? {}, context);
  const base: Record<string, string> = {};
  for (const name of PASSED_THROUGH) {
    const value = process.env[name];
    if (value !== undefined) base[name] = value;
  }
  const env = {
    ...base,
    ...contextVariables(context, actionDir, options.id ?? '__run'),
    ...options.env,
    ...inputs,
  };
  // Only the main phase is cancelled; the runner still runs post steps afterwards.
  const {
    cancelAfterMs: _cancelAfterMs,
    cancelOn: _cancelOn,
    cancelWhen: _cancelWhen,
    ...uncancelled
  } = options;
  const run = (
    phase: PhaseResult['phase'],
    entry: string,
    extra: Record<string, string>,
  ): Promise<PhaseResult> =>
    runPhase(
      phase,
      path.join(actionDir, entry),
      { ...env, ...extra },
      workspace,
      runnerTemp,
      phase === 'main' ? options : uncancelled,
    );

  let pre: PhaseResult | undefined;
  if (metadata.runs.pre && condition(metadata.runs['pre-if'], true)) {
    pre = await run('pre', metadata.runs.pre, {});
  }
  const main =
    pre && pre.exitCode !== 0
      ? { ...pre, phase: 'main' as const }
      : await run('main', metadata.runs.main, {});
  const success = main.exitCode === 0;
  let post: PhaseResult | undefined;
  if (metadata.runs.post && condition(metadata.runs['post-if'], success)) {
    const state: Record<string, string> = {};
    for (const [name, value] of Object.entries({ ...pre?.state, ...main.state }))
      state[`STATE_${name}`] = value;
    post = await run('post', metadata.runs.post, state);
  }
  return {
    ...main,
    metadata,
    workspace,
    runnerTemp,
    ...(pre ? { pre } : {}),
    ...(post ? { post } : {}),
    success,
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

function checkInputNames(metadata: ActionMetadata, given: Readonly<Record<string, string>>): void {
  const unknown = Object.keys(given).filter((name) => !(name in metadata.inputs));
  if (unknown.length > 0) {
    throw new Error(
      `unexpected input(s) ${unknown.join(', ')}; ${metadata.name} accepts ${Object.keys(metadata.inputs).join(', ')}`,
    );
  }
}

function inputVariables(
  metadata: ActionMetadata,
  given: Readonly<Record<string, string>>,
  context: RunnerContext,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, spec] of Object.entries(metadata.inputs)) {
    const value =
      given[name] ?? (spec.default !== undefined ? expandDefault(spec.default, context) : undefined);
    if (value !== undefined) out[inputVariable(name)] = value;
  }
  return out;
}

/** The few expressions action.yml defaults commonly use; anything else is refused rather than guessed. */
function expandDefault(text: string, context: RunnerContext): string {
  const known: Record<string, string> = {
    'github.workspace': context.workspace,
    'runner.temp': context.runnerTemp,
    'github.repository': context.repository,
    'github.run_id': context.runId,
    'github.sha': context.sha,
    'github.token': context.token,
  };
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_match, expression: string) => {
    const value = known[expression];
    if (value === undefined)
      throw new Error(`default expression \${{ ${expression} }} is not supported by the harness`);
    return value;
  });
}

function condition(expression: string | undefined, success: boolean): boolean {
  const text = (expression ?? 'always()').replace(/^\$\{\{\s*|\s*\}\}$/g, '').trim();
  if (text === 'always()') return true;
  if (text === 'success()') return success;
  if (text === 'failure()') return !success;
  throw new Error(`condition ${text} is not supported by the harness`);
}

async function runPhase(
  phase: PhaseResult['phase'],
  entry: string,
  env: Record<string, string>,
  workspace: string,
  runnerTemp: string,
  options: StepOptions,
): Promise<PhaseResult> {
  const dir = path.join(runnerTemp, '_runner_file_commands');
  const id = randomUUID();
  const files = {
    output: path.join(dir, `set_output_${id}`),
    state: path.join(dir, `save_state_${id}`),
    summary: path.join(dir, `step_summary_${id}`),
    env: path.join(dir, `set_env_${id}`),
    path: path.join(dir, `add_path_${id}`),
  };
  await Promise.all(Object.values(files).map((file) => writeFile(file, '')));
  const given = options.fileCommands?.[phase] ?? {};
  Object.assign(files, given);
  /** A given file is not read back: `/dev/full` or a pipe would never end. */
  const readBack = async (name: FileCommand): Promise<string> =>
    given[name] !== undefined ? '' : readFile(files[name], 'utf8');
  // A process group of its own: a timeout, or a test that ends early, kills whatever it started too.
  const child = spawn(options.node ?? process.execPath, [entry], {
    cwd: workspace,
    env: {
      ...env,
      GITHUB_OUTPUT: files.output,
      GITHUB_STATE: files.state,
      GITHUB_STEP_SUMMARY: files.summary,
      GITHUB_ENV: files.env,
      GITHUB_PATH: files.path,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  trackProcess(child);
  let stdout = '';
  let stderr = '';
  let timedOut = false;
  let cancelled = false;
  let killed = false;
  let ended = false;
  const timers: NodeJS.Timeout[] = [];
  const later = (ms: number, fn: () => void): void => {
    timers.push(setTimeout(fn, ms));
  };
  const kill = (): void => {
    killed = true;
    signalGroup(child, 'SIGKILL');
  };
  const killGraceMs = options.killGraceMs ?? KILL_GRACE_MS;
  const cancel = (): void => {
    if (cancelled || ended) return;
    cancelled = true;
    const first = options.cancelSignal ?? 'SIGINT';
    child.kill(first);
    if (first === 'SIGKILL') return;
    later(first === 'SIGINT' ? (options.cancelGraceMs ?? CANCEL_GRACE_MS) : 0, () => {
      child.kill('SIGTERM');
      later(killGraceMs, kill);
    });
  };
  const started = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (options.cancelOn?.test(stdout)) cancel();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  later(options.timeoutMs ?? 120_000, () => {
    timedOut = true;
    signalGroup(child, 'SIGTERM');
    later(killGraceMs, kill);
  });
  if (options.cancelAfterMs !== undefined) later(options.cancelAfterMs, cancel);
  // A signal before the step's first line could come before its handlers are in place. A
  // rejected `cancelWhen` is the test's to report: the step is not cancelled on it.
  if (options.cancelWhen) void Promise.all([options.cancelWhen, started]).then(cancel, () => {});
  const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, sig) => resolve([code, sig]));
  }).finally(() => {
    ended = true;
    timers.forEach((timer) => clearTimeout(timer));
  });

  const printed = parseWorkflowCommands(`${stdout}${stderr ? `\n${stderr}` : ''}`);
  return {
    phase,
    exitCode,
    signal,
    timedOut,
    cancelled,
    killed,
    stdout,
    stderr,
    log: printed.log,
    unmaskedLog: printed.unmasked,
    annotations: printed.annotations,
    masks: printed.masks,
    commands: printed.commands,
    outputs: parseKeyValueFile(await readBack('output')),
    state: parseKeyValueFile(await readBack('state')),
    summary: await readBack('summary'),
    files,
  };
}
