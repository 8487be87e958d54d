/**
 * Vitest's global setup: marks the run's processes, and after the run finds those still running
 * (`test-processes.ts`): one left behind is killed, and the run fails naming it.
 */
import { randomUUID } from 'node:crypto';
import { TEST_RUN_VARIABLE } from '@sauce-actions/action-harness';
import { killAll, markedProcesses } from './test-processes.ts';

export function setup(): void {
  process.env[TEST_RUN_VARIABLE] = randomUUID();
}

export function teardown(): void {
  // The workers carry the run's marker as it is; what the tests started, with a worker's added.
  const run = `${process.env[TEST_RUN_VARIABLE]}/`;
  const left = markedProcesses((marker) => marker.startsWith(run));
  killAll(left);
  if (left.length > 0) {
    throw new Error(
      `${left.length} process(es) started by the tests were still running after them, now killed:\n${left.map((p) => `  ${p.pid} ${p.command}`).join('\n')}`,
    );
  }
}
