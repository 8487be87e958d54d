/**
 * What the benchmarks share: child processes that print a "listening on" line (the emulator's
 * command line, a reference server), their memory from /proc, workers that run on request, and a
 * few helpers for figures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const EMULATOR_BIN = path.join(ROOT, 'packages', 'emulator', 'bin', 'sauce-emulator.js');
export const MIB = 1024 * 1024;

export interface ListeningProcess {
  url: string;
  pid: number;
  /** Resident memory now and its high-water mark, in bytes (Linux only). */
  memory(): ProcessMemory | undefined;
  stop(): Promise<void>;
}

export interface ProcessMemory {
  rss: number;
  peak: number;
}

/** Reads VmRSS and VmHWM of a process; undefined where /proc is not there. */
export function processMemory(pid: number): ProcessMemory | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kib = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

/** Starts `node <args>` and waits (at most `timeoutMs`) for a line matching `pattern`, whose group 1 is the URL. */
export async function startListening(
  args: readonly string[],
  pattern: RegExp,
  timeoutMs = 30_000,
): Promise<ListeningProcess> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no "listening" line within ${timeoutMs} ms from ${args.join(' ')}\n${stderr}`));
    }, timeoutMs);
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const match = pattern.exec(line);
      if (!match?.[1]) return;
      clearTimeout(timer);
      lines.removeAllListeners('line');
      child.stdout.resume();
      resolve(match[1]);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited (${code ?? signal}) before listening\n${stderr}`));
    });
  });
  const pid = child.pid!;
  return { url, pid, memory: () => processMemory(pid), stop: () => stop(child) };
}

/** The emulator's command line on a free port, in its own process. */
export function startEmulatorProcess(extraArgs: readonly string[] = []): Promise<ListeningProcess> {
  return startListening(
    [EMULATOR_BIN, '--port', '0', ...extraArgs],
    /sauce-emulator listening on (http:\/\/\S+)/,
  );
}

/** SIGTERM, then SIGKILL after 5 s; resolves when the process has exited. */
export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * A worker kept alive through a benchmark (`node <args>` with an IPC channel): the parent asks it
 * for one run at a time, so that runs of several workers can take turns and share the machine's
 * ups and downs, then for its memory. The worker side is `serveRuns`.
 */
export interface Worker {
  /** One run; resolves with its time in milliseconds. */
  run(): Promise<number>;
  /** Its resident memory once ready (idle) and at its peak, in bytes; the worker then exits. */
  finish(): Promise<{ idleRss: number; peakRss: number }>;
  kill(): void;
}

type WorkerMessage =
  { ready: true } | { ms: number } | { idleRss: number; peakRss: number } | { error: string };

export async function startWorker(args: readonly string[], timeoutMs: number): Promise<Worker> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = (request: string | undefined): Promise<WorkerMessage> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`worker ${args.join(' ')} did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      const onExit = (code: number | null) => {
        clearTimeout(timer);
        reject(new Error(`worker ${args.join(' ')} exited (${code})`));
      };
      child.once('exit', onExit);
      child.once('message', (message: WorkerMessage) => {
        clearTimeout(timer);
        child.off('exit', onExit);
        if ('error' in message) reject(new Error(`worker ${args.join(' ')}: ${message.error}`));
        else resolve(message);
      });
      if (request !== undefined) child.send(request);
    });
  await next(undefined);
  return {
    run: async () => (next('run') as Promise<{ ms: number }>).then((m) => m.ms),
    finish: () => next('finish') as Promise<{ idleRss: number; peakRss: number }>,
    kill: () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** The worker side: answers `run` with one timed run and `finish` with its memory, then exits. */
export function serveRuns(run: () => Promise<void>): void {
  const send = (message: WorkerMessage) => process.send!(message);
  const idleRss = process.memoryUsage().rss;
  process.on('message', (request: string) => {
    if (request === 'finish') {
      send({ idleRss, peakRss: process.resourceUsage().maxRSS * 1024 });
      process.disconnect();
      return;
    }
    const start = performance.now();
    run().then(
      () => send({ ms: performance.now() - start }),
      (error: unknown) => {
        send({ error: (error as Error).stack ?? String(error) });
        process.disconnect();
      },
    );
  });
  send({ ready: true });
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function mib(bytes: number | undefined): string {
  return bytes === undefined || Number.isNaN(bytes) ? 'n/a' : `${(bytes / MIB).toFixed(0)} MiB`;
}

export function ratio(value: number, reference: number): string {
  return `${(value / reference).toFixed(2)}×`;
}

/** The machine's load averages over 1, 5 and 15 minutes: other work on it shows here. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}
