/** Starts the emulator in this process. */
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readSnapshot, StatePersistence } from './persistence.ts';
import { defaultSeed, readSeedFile, type Seed } from './seed.ts';
import { buildApp, type TlsOptions } from './server.ts';
import { EmulatorState } from './state.ts';

export interface EmulatorOptions {
  host?: string;
  /** 0 picks a free port. Default 4545. */
  port?: number;
  /** A seed object, or the path of a seed JSON file. Default: the built-in seed. */
  seed?: Seed | string;
  /** How long a simulated job runs, from queued to its end. Default 3000 ms. */
  jobDurationMs?: number;
  /**
   * Requests a second allowed per account; 0 (default) disables the limit. With a limit, every
   * answer of the three interfaces carries `X-Ratelimit-Limit`, `X-Ratelimit-Remaining` and
   * `X-Ratelimit-Reset` (seconds until the window ends), and one over the limit is a 429 with
   * `Retry-After`; the admin endpoints and the dashboard pages are not limited.
   */
  rateLimit?: number;
  /** Keeps state and files in this folder across restarts. */
  dataDir?: string;
  /**
   * The emulator's clock, in milliseconds since the epoch (default `Date.now`). Job states,
   * retention of job assets and stored files, and journal times all read it, so a test can move
   * time forward without waiting.
   */
  clock?: () => number;
  /**
   * Serves https with this key and certificate (PEM) instead of plain http: to try clients
   * through a proxy's CONNECT tunnel, or behind certificates of one's own. The clients must trust
   * the certificate (`NODE_EXTRA_CA_CERTS` for Node).
   */
  tls?: TlsOptions;
}

export interface RunningEmulator {
  /** Base address, for example http://127.0.0.1:4545 (https:// with `tls`) */
  url: string;
  /** The live state, for tests that need to look inside. */
  context: EmulatorState;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? '127.0.0.1';
  const { dataDir } = options;
  const seed =
    typeof options.seed === 'string' ? await readSeedFile(options.seed) : (options.seed ?? defaultSeed());
  const tempDir = dataDir ? undefined : await mkdtemp(path.join(os.tmpdir(), 'sauce-emulator-'));
  const stateDir = dataDir ?? tempDir ?? os.tmpdir();
  const filesDir = path.join(stateDir, 'files');
  await mkdir(filesDir, { recursive: true });

  const state = new EmulatorState({
    seed,
    filesDir,
    jobDurationMs: options.jobDurationMs ?? 3000,
    clock: options.clock ?? (() => Date.now()),
    // A kept state wins over the seed: the data directory resumes where the last run stopped.
    snapshot: dataDir ? await readSnapshot(dataDir) : undefined,
  });
  const persistence = dataDir ? new StatePersistence(state, dataDir) : undefined;
  if (persistence) state.onChange = () => persistence.schedule();
  const app = await buildApp(state, { rateLimit: options.rateLimit ?? 0, tls: options.tls });
  try {
    await app.listen({ host, port: options.port ?? 4545 });
  } catch (error) {
    await app.close();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 4545);
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `${options.tls ? 'https' : 'http'}://${urlHost}:${port}`,
    context: state,
    close: async () => {
      await app.close();
      await persistence?.flush();
      if (tempDir) await rm(tempDir, { recursive: true, force: true });
    },
  };
}

export type { FaultSpec } from './admin/faults.ts';
export type { JournalEntry } from './admin/journal.ts';
export { defaultSeed, type Seed } from './seed.ts';
export type { TlsOptions } from './server.ts';
export type { EmulatorState } from './state.ts';
