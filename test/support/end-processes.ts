/**
 * Runs before every test file: after the file, ends the processes its tests started through the
 * harness (the steps, with their process groups) that are still running, as after a test that
 * failed or timed out before they ended, and fails the file if there were any.
 */
import { endProcesses } from '@sauce-actions/action-harness';
import { afterAll } from 'vitest';

afterAll(async () => {
  const left = await endProcesses();
  if (left.length > 0) {
    throw new Error(
      `processes left running after the file's tests, now killed: ${left.map((p) => `${p.pid} (${p.command})`).join('; ')}`,
    );
  }
});
