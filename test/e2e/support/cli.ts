/**
 * The built command line run as a user runs it: `node <bundles>/cli.js <action> [flags]` in a
 * process of its own. The bundles are the committed `dist/` unless SAUCE_ACTIONS_DIST names
 * another build (`node scripts/build-actions.ts --out-dir DIR`).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './lab.ts';

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
  /** Added to a bare environment (PATH only): nothing of the machine's leaks in. */
  env?: Record<string, string>;
  /** Sends the signal once standard error shows this text. */
  signalWhen?: { text: string | RegExp; signal: NodeJS.Signals };
  timeoutMs?: number;
}

export function runCli(args: readonly string[], options: CliOptions): Promise<CliRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: options.cwd, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let signalled = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 40_000);
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
