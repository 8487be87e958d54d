/**
 * The processes the tests start, found by the variable that marks them (`TEST_RUN_VARIABLE`):
 * the run sets it (vitest's global setup), each worker adds itself to it, and every process a
 * test starts inherits it (the harness and the test helpers pass it on to the processes they
 * start with an environment of their own). What a file's tests left running is then found and
 * killed after the file, even a process started detached from a step that has ended (a stand-in
 * Sauce Connect). Where processes cannot be read (no `/proc`), only the harness's own are found.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { endProcesses, TEST_RUN_VARIABLE } from '@sauce-actions/action-harness';

export interface TestProcess {
  pid: number;
  command: string;
}

/** Adds this worker to the run's marker, once: what it starts from now on carries both. */
export function markWorker(): void {
  const run = (process.env[TEST_RUN_VARIABLE] ?? 'run').split('/')[0];
  process.env[TEST_RUN_VARIABLE] = `${run}/${process.pid}`;
}

/**
 * Kills what this worker's tests started and left running: the harness's steps with their
 * process groups, then any other process carrying the worker's marker. Answers them.
 */
export async function endTestProcesses(): Promise<TestProcess[]> {
  const steps = await endProcesses();
  const marker = process.env[TEST_RUN_VARIABLE];
  const others = marker ? markedProcesses((value) => value === marker) : [];
  killAll(others);
  return [...steps, ...others];
}

export function killAll(processes: readonly TestProcess[]): void {
  for (const { pid } of processes) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Ended meanwhile.
    }
  }
}

/** The running processes but this one whose marker's value passes `test`. */
export function markedProcesses(test: (marker: string) => boolean): TestProcess[] {
  const prefix = `${TEST_RUN_VARIABLE}=`;
  let names: string[];
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const found: TestProcess[] = [];
  for (const name of names) {
    const pid = Number(name);
    if (pid === process.pid) continue;
    try {
      const environment = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0');
      const marker = environment.find((line) => line.startsWith(prefix))?.slice(prefix.length);
      if (marker === undefined || !test(marker)) continue;
      // A zombie has ended: only its parent has yet to read its status.
      const state = /^\d+ \(.*\) (\S)/s.exec(readFileSync(`/proc/${name}/stat`, 'utf8'))?.[1];
      if (state === 'Z') continue;
      const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
      found.push({ pid, command });
    } catch {
      // Ended meanwhile, or not ours to read.
    }
  }
  return found;
}

/**
 * Waits until no process of this worker's marker whose command matches is running: one told to
 * stop (a service a library stops without waiting for it) that has yet to exit.
 */
export async function untilEnded(command: RegExp): Promise<void> {
  const marker = process.env[TEST_RUN_VARIABLE];
  if (!marker) return;
  while (markedProcesses((value) => value === marker).some((found) => command.test(found.command))) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
