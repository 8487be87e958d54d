/**
 * In-process emulators for the tests of one file, started once for the file rather than for each
 * test, and by each file for itself, so that files run side by side; their journal and faults.
 */
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

/** One running emulator for each entry of a list (of job durations, of options). */
export type RunningFor<List extends readonly unknown[]> = { -readonly [K in keyof List]: RunningEmulator };

/** Where a test file keeps what its helpers start and make, in variables of its own. */
export interface FileFixture<Emulators> {
  /** Called with the emulators once they run, before the file's tests. */
  started: (emulators: Emulators) => void;
  /** Called with the folder made for the tests, for the files that use it. */
  folder?: (folder: string) => void;
}

/**
 * An emulator (on a free port) for each of `options`, started together before the file's tests
 * and closed after them; the fault rules of each are cleared after every test.
 */
export function emulatorsForFile(
  options: readonly EmulatorOptions[],
  started: (emulators: RunningEmulator[]) => void,
): void {
  let running: RunningEmulator[] = [];
  beforeAll(async () => {
    running = await Promise.all(options.map((each) => startEmulator({ port: 0, ...each })));
    started(running);
  });
  afterEach(async () => {
    await Promise.all(running.map((e) => fetch(`${e.url}/_emulator/faults`, { method: 'DELETE' })));
  });
  afterAll(async () => {
    await Promise.all(running.splice(0).map((emulator) => emulator.close()));
  });
}

export interface JournalEntry {
  method: string;
  path: string;
  status: number;
}

/** The requests that reached the emulator (`GET /_emulator/requests`). */
export async function journal(emulator: RunningEmulator): Promise<JournalEntry[]> {
  const answer = await fetch(`${emulator.url}/_emulator/requests`);
  return ((await answer.json()) as { requests: JournalEntry[] }).requests;
}

/** A fault rule (`POST /_emulator/faults`): the emulator answers the requests it matches as it says. */
export async function addFault(emulator: RunningEmulator, rule: Record<string, unknown>): Promise<void> {
  const answer = await fetch(`${emulator.url}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  });
  expect(answer.ok).toBe(true);
}
