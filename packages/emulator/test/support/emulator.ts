/** Shared test helpers: an emulator as the seed made it for each test, and Basic credentials of the default seed. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
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
 * An emulator on a free loopback port for the tests of a `describe`, put back to its seed before
 * each test (`POST /_emulator/reset`: stores, stored files, fault rules, the journal and rate
 * windows), so tests never share state: starting one for each test cost more than most tests
 * take. Jobs last `jobDurationMs` (default 40 ms) so transitions are quick to observe.
 */
export function withEmulator(options: EmulatorOptions = {}): EmulatorHandle {
  let running: RunningEmulator | undefined;
  beforeAll(async () => {
    running = await startEmulator({ host: '127.0.0.1', port: 0, jobDurationMs: 40, ...options });
  });
  beforeEach(async () => {
    const answer = await fetch(`${running!.url}/_emulator/reset`, { method: 'POST' });
    if (!answer.ok) throw new Error(`the emulator did not reset: ${answer.status} ${await answer.text()}`);
  });
  afterAll(async () => {
    await running?.close();
    running = undefined;
  });
  return {
    get url() {
      if (!running) throw new Error('the emulator runs only inside a describe');
      return running.url;
    },
    get emulator() {
      if (!running) throw new Error('the emulator runs only inside a describe');
      return running;
    },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A key and a self-signed certificate (PEM) for 127.0.0.1, which a client trusts when given the
 * certificate as its CA: for the emulator's https. The generator loads on first use, not with
 * every test that starts an emulator.
 */
export async function loopbackCertificate(): Promise<{ key: string; cert: string }> {
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}
