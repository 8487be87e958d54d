/**
 * What the benchmarks share: child processes that print a "listening on" line (the emulator's
 * command line, a reference server), their memory from /proc, and a few helpers for figures.
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

/** A Markdown table, as the README keeps the figures: the first column left, the others right. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `| ${widths.map((width, i) => (i === 0 ? '-'.repeat(width) : `${'-'.repeat(width - 1)}:`)).join(' | ')} |`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}
