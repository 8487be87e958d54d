/**
 * Stopping a Sauce Connect process that may not be this process's child (the post step runs in a
 * new process): SIGINT lets it remove its tunnel and flush its log, SIGKILL ends it after a grace.
 */
import { readFileSync } from 'node:fs';
import type { Clock } from '@sauce-actions/action-kit';

type StopOutcome = 'not-running' | 'stopped' | 'killed';

/** Whether `pid` is a live process; a zombie (exited, not reaped yet) counts as gone. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const stat = procFile(pid, 'stat');
  // The state letter follows the command name, which is in parentheses and may hold spaces.
  const state = stat?.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/**
 * Whether the live process `pid` runs `executable`: a pid saved in one step may belong to another
 * program by the time the post step runs. Where /proc cannot tell, the pid is trusted.
 */
export function runsExecutable(pid: number, executable: string): boolean {
  const cmdline = procFile(pid, 'cmdline');
  if (cmdline === undefined) return true;
  return cmdline.split('\0').some((arg) => arg === executable);
}

function procFile(pid: number, name: string): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** Signals the process group the launch created (detached), else the process alone. */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    if (process.platform !== 'win32') {
      process.kill(-pid, signal);
      return;
    }
  } catch {
    // No such group (the leader was launched otherwise): signal the process itself.
  }
  try {
    process.kill(pid, signal);
  } catch {
    // Gone in the meantime.
  }
}

interface StopProcessOptions {
  /** Time SIGINT has to end the process before SIGKILL. */
  graceMs: number;
  clock: Clock;
  /** Between liveness checks. */
  checkMs?: number;
}

export async function stopProcess(pid: number, options: StopProcessOptions): Promise<StopOutcome> {
  if (!isRunning(pid)) return 'not-running';
  const { clock } = options;
  signalGroup(pid, 'SIGINT');
  const check = options.checkMs ?? 100;
  const deadline = clock.monotonic() + options.graceMs;
  // No signal: stopping goes on even when the step is cancelled, since that is when it matters.
  while (clock.monotonic() < deadline) {
    await clock.sleep(check);
    if (!isRunning(pid)) return 'stopped';
  }
  signalGroup(pid, 'SIGKILL');
  for (let i = 0; i < 50 && isRunning(pid); i++) await clock.sleep(check);
  return 'killed';
}
