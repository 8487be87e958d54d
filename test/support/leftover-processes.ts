/**
 * Vitest's global setup: marks the run's processes, and after the run finds those still running.
 * Every process a test starts gets `TEST_RUN_VARIABLE` with the run's own value (the workers
 * inherit it, and the harness and the test helpers pass it on); one still running once every
 * test file is done was left behind: it is killed, and the run fails naming it. Where processes
 * cannot be read (no `/proc`), the check is skipped.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { TEST_RUN_VARIABLE } from '@sauce-actions/action-harness';

export function setup(): void {
  process.env[TEST_RUN_VARIABLE] = randomUUID();
}

export function teardown(): void {
  const left = leftover(`${TEST_RUN_VARIABLE}=${process.env[TEST_RUN_VARIABLE]}`);
  for (const { pid } of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Ended meanwhile.
    }
  }
  if (left.length > 0) {
    throw new Error(
      `${left.length} process(es) started by the tests were still running after them, now killed:\n${left.map((p) => `  ${p.pid} ${p.command}`).join('\n')}`,
    );
  }
}

/** The processes whose environment holds `marker`, but this one and its workers. */
export function leftover(marker: string): { pid: number; command: string }[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const found: { pid: number; command: string }[] = [];
  for (const name of pids) {
    const pid = Number(name);
    if (pid === process.pid) continue;
    try {
      const environment = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0');
      if (!environment.includes(marker)) continue;
      const parent = /^\d+ \(.*\) \S+ (\d+)/s.exec(readFileSync(`/proc/${name}/stat`, 'utf8'))?.[1];
      // The workers are this process's children; what the tests started is further down.
      if (Number(parent) === process.pid) continue;
      const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
      found.push({ pid, command });
    } catch {
      // Ended meanwhile, or not ours to read.
    }
  }
  return found;
}
