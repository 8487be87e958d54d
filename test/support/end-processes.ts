/**
 * Runs before every test file: marks what the file's tests start as this worker's, and after the
 * file kills what they left running (as a test that failed or timed out leaves its processes), and
 * fails the file if there was any.
 */
import { afterAll } from 'vitest';
import { endTestProcesses, markWorker } from './test-processes.ts';

markWorker();

afterAll(async () => {
  const left = await endTestProcesses();
  if (left.length > 0) {
    throw new Error(
      `processes left running after the file's tests, now killed: ${left.map((p) => `${p.pid} (${p.command})`).join('; ')}`,
    );
  }
});
