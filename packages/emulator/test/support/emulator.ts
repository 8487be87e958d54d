/** Shared test helpers: a fresh emulator per test, and Basic credentials of the default seed. */
import { afterEach, beforeEach } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/index.ts';

export const DEMO_USER = 'demo';
export const DEMO_ACCESS_KEY = 'demo-access-key';

/** The `Authorization` header value of HTTP Basic credentials. */
export function basic(user: string = DEMO_USER, password: string = DEMO_ACCESS_KEY): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

export interface EmulatorHandle {
  /** Base address of the running emulator. */
  readonly url: string;
  readonly emulator: RunningEmulator;
}

/**
 * Starts an emulator on a free loopback port before each test and closes it after, so tests never
 * share state. Jobs last `jobDurationMs` (default 40 ms) so transitions are quick to observe.
 */
export function withEmulator(options: EmulatorOptions = {}): EmulatorHandle {
  let running: RunningEmulator | undefined;
  beforeEach(async () => {
    running = await startEmulator({ host: '127.0.0.1', port: 0, jobDurationMs: 40, ...options });
  });
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });
  return {
    get url() {
      if (!running) throw new Error('the emulator runs only inside a test');
      return running.url;
    },
    get emulator() {
      if (!running) throw new Error('the emulator runs only inside a test');
      return running;
    },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
