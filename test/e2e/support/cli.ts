/**
 * The built command line run as a user runs it: `node <bundles>/cli.js <action> [flags]` in a
 * process of its own. The bundles are the committed `dist/` unless SAUCE_ACTIONS_DIST names
 * another build (`node scripts/build-actions.ts --out-dir DIR`).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { signalGroup, testRunEnv, trackProcess } from '@sauce-actions/action-harness';
import { afterAll, beforeAll } from 'vitest';
import { closeLabs, openLab, ROOT, SECRETS, type Lab } from './lab.ts';

export const BUNDLES_DIR = process.env.SAUCE_ACTIONS_DIST
  ? path.resolve(process.env.SAUCE_ACTIONS_DIST)
  : path.join(ROOT, 'dist');
export const CLI = path.join(BUNDLES_DIR, 'cli.js');

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

export interface CliOptions {
  cwd: string;
  /** Added to a bare environment (PATH, and the test run's marker): nothing of the machine's leaks in. */
  env?: Record<string, string>;
  /** Sends the signal once standard error shows this text. */
  signalWhen?: { text: string | RegExp; signal: NodeJS.Signals };
  /** Kills the command, with its process group, after this long: a safety net; default 120 s. */
  timeoutMs?: number;
}

export function runCli(args: readonly string[], options: CliOptions): Promise<CliRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    // A process group of its own, ended whole by its timeout or after a test that failed.
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: options.cwd, ...testRunEnv(), ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    trackProcess(child);
    let stdout = '';
    let stderr = '';
    let signalled = false;
    const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), options.timeoutMs ?? 120_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const when = options.signalWhen;
      if (
        when &&
        !signalled &&
        (typeof when.text === 'string' ? stderr.includes(when.text) : when.text.test(stderr))
      ) {
        signalled = true;
        child.kill(when.signal);
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, elapsedMs: Date.now() - started });
    });
  });
}

/** `name=value` lines of standard output, by name. */
export function outputLines(stdout: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) outputs[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return outputs;
}

/** The default seed's credentials in the environment. */
export const SAUCE_ENV = { SAUCE_USERNAME: 'demo', SAUCE_ACCESS_KEY: 'demo-access-key' };
export const MOBILE_ENV = { SAUCE_APPDIST_API_KEY: 'demo-api-key' };

/** The default seed's keys found in what was printed or written, in any form. */
export function leaked(...texts: string[]): string[] {
  const all = texts.join('\n');
  return SECRETS.filter((secret) => all.includes(secret));
}

export interface CliTerminal {
  /** The file's emulator, whose jobs end before the first poll (a second after the start, the shortest poll-interval). */
  readonly lab: Lab;
  /** The current describe's workspace: the commands' working folder. */
  readonly dir: string;
  /** Makes a new workspace for the describe (run it in its `beforeAll`). */
  workspace(): Promise<void>;
  /** Runs the command line in the workspace, with `env` added to a bare environment. */
  cli(args: readonly string[], env?: Record<string, string>, extra?: Partial<CliOptions>): Promise<CliRun>;
}

/**
 * The command line of a file's tests, against a lab of the file, run in a workspace of each
 * describe: the bundles must be built; after the file, the labs it opened are closed and the
 * workspaces removed.
 */
export function useCliTerminal(): CliTerminal {
  let lab: Lab | undefined;
  const dirs: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build the bundles (npm run build)`);
    lab = await openLab({ jobDurationMs: 500 });
  });

  afterAll(async () => {
    await closeLabs();
    await Promise.all(dirs.splice(0).map((at) => rm(at, { recursive: true, force: true })));
  });

  const terminal: CliTerminal = {
    get lab() {
      if (!lab) throw new Error('the lab opens in the beforeAll of useCliTerminal');
      return lab;
    },
    get dir() {
      const dir = dirs.at(-1);
      if (!dir) throw new Error('no workspace: call workspace() in a beforeAll');
      return dir;
    },
    async workspace() {
      dirs.push(await mkdtemp(path.join(os.tmpdir(), 'cli-e2e-')));
    },
    cli: (args, env = {}, extra = {}) => runCli(args, { cwd: terminal.dir, env, ...extra }),
  };
  return terminal;
}
