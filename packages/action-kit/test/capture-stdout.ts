import { vi } from 'vitest';

/**
 * Keeps what `@actions/core` writes (workflow commands, log lines) out of the test output and
 * returns the array it is collected in; `vi.restoreAllMocks()` ends the capture.
 */
export function captureStdout(): string[] {
  const written: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  return written;
}
