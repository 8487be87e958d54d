/** Starts the emulator in this process. */
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readSnapshot, StatePersistence } from './admin/persistence.ts';
import { EmulatorContext, type ResolvedOptions } from './context.ts';
import { defaultSeed, readSeedFile, type Seed } from './seed.ts';
import { buildApp, type TlsOptions } from './server.ts';

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
  context: EmulatorContext;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const resolved: ResolvedOptions = {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 4545,
    jobDurationMs: options.jobDurationMs ?? 3000,
    rateLimit: options.rateLimit ?? 0,
    dataDir: options.dataDir,
    clock: options.clock ?? (() => Date.now()),
  };
  const seed =
    typeof options.seed === 'string' ? await readSeedFile(options.seed) : (options.seed ?? defaultSeed());
  const tempDir = resolved.dataDir ? undefined : await mkdtemp(path.join(os.tmpdir(), 'sauce-emulator-'));
  const stateDir = resolved.dataDir ?? tempDir ?? os.tmpdir();
  const filesDir = path.join(stateDir, 'files');
  await mkdir(filesDir, { recursive: true });

  // A kept state wins over the seed: the data directory resumes where the last run stopped.
  const snapshot = resolved.dataDir ? await readSnapshot(resolved.dataDir) : undefined;
  const ctx = new EmulatorContext(resolved, seed, filesDir, snapshot);
  const persistence = resolved.dataDir ? new StatePersistence(ctx, resolved.dataDir) : undefined;
  if (persistence) ctx.onChange = () => persistence.schedule();
  const app = await buildApp(ctx, undefined, options.tls);
  try {
    await app.listen({ host: resolved.host, port: resolved.port });
  } catch (error) {
    await app.close();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : resolved.port;
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;

  return {
    url: `${options.tls ? 'https' : 'http'}://${host}:${port}`,
    context: ctx,
    close: async () => {
      await app.close();
      await persistence?.flush();
      if (tempDir) await rm(tempDir, { recursive: true, force: true });
    },
  };
}

export { defaultSeed, type Seed } from './seed.ts';
export type { TlsOptions } from './server.ts';
export { EmulatorContext } from './context.ts';
