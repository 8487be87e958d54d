/**
 * The processes a test starts: each step (and whatever else a test hands over with
 * `trackProcess`) runs in a process group of its own, so that it can be ended with everything it
 * started, and `endProcesses` ends those still running after a test that failed or timed out
 * before they did. A test run may mark its processes with `TEST_RUN_VARIABLE`, passed on to every
 * process it starts, so that one left behind can be found once the run is over.
 */
import type { ChildProcess } from 'node:child_process';

/** Names the test run a process belongs to; the harness passes it on to the steps. */
export const TEST_RUN_VARIABLE = 'SAUCE_ACTIONS_TEST_RUN';

/** The marker of this process's test run, to add to the environment of a process it starts. */
export function testRunEnv(): Record<string, string> {
  const run = process.env[TEST_RUN_VARIABLE];
  return run ? { [TEST_RUN_VARIABLE]: run } : {};
}

const running = new Set<ChildProcess>();

/**
 * Keeps a started process until it exits, for `endProcesses`. Start it `detached` (a process
 * group of its own) so that what it started ends with it.
 */
export function trackProcess<C extends ChildProcess>(child: C): C {
  if (child.exitCode === null && child.signalCode === null) {
    running.add(child);
    child.once('exit', () => running.delete(child));
    child.once('error', () => running.delete(child));
  }
  return child;
}

/** Signals the process group a detached child leads, else the child alone; a group already gone is no error. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // Already ended.
    }
  }
}

export interface EndedProcess {
  pid: number;
  command: string;
}

/**
 * Kills every tracked process still running, with its process group, and waits for each to exit.
 * Answers those it had to kill: none after a test that ended what it started.
 */
export async function endProcesses(): Promise<EndedProcess[]> {
  const left = [...running];
  const ended = left.map((child) => ({ pid: child.pid ?? 0, command: child.spawnargs.join(' ') }));
  await Promise.all(
    left.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          signalGroup(child, 'SIGKILL');
        }),
    ),
  );
  return ended;
}
