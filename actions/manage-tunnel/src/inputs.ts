/** The inputs of manage-tunnel, read and checked before any request or launch. */
import {
  InputError,
  POLL_INTERVAL_BOUNDS,
  optionalProperty,
  quoteValue,
  readSauceConnection,
  TIMEOUT_BOUNDS,
  type InputReader,
  type SauceConnection,
} from '@sauce-actions/action-kit';
import { RETENTION_DAYS } from '@sauce-actions/action-kit/inputs/input-forms';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { checkAddress, splitArgs } from './args.ts';
import { parseScChecksum, type Checksum } from './checksum.ts';
import type { TunnelTarget } from './tunnels.ts';

const OPERATIONS = ['wait', 'list', 'stop', 'start'] as const;
export type Operation = (typeof OPERATIONS)[number];

const DEFAULT_SC_VERSION = '5.4.1';

/**
 * What the post step stops. `started`: only the Sauce Connect and tunnel this step started.
 * `true`: also a tunnel it only waited for, which other jobs may be sharing. `false`: nothing.
 */
const STOP_ON_EXIT = ['started', 'true', 'false'] as const;
export type StopOnExit = (typeof STOP_ON_EXIT)[number];

/** Whether the post step stops the Sauce Connect and the tunnel this step started. */
export function stopsStarted(mode: StopOnExit): boolean {
  return mode !== 'false';
}

/** Whether the post step deletes a tunnel this step only waited for (one others may share). */
export function stopsWaitedFor(mode: StopOnExit): boolean {
  return mode === 'true';
}

/** The longest wait of each operation: `wait` for its tunnel, `start` per launch, the others in all. */
const DEFAULT_TIMEOUT_MS: Record<Operation, number> = {
  wait: 5 * 60_000,
  start: 3 * 60_000,
  list: 60_000,
  stop: 60_000,
};

interface CommonInputs {
  connection: SauceConnection;
  /** What the post step stops: what this step started, also what it waited for, or nothing. */
  stopOnExit: StopOnExit;
  timeoutMs: number;
  pollIntervalMs: number;
  /** Days the Sauce Connect log's artifact is kept; none: as long as the repository's settings say. */
  retentionDays?: number;
}

/** `wait` and `stop` have a name or an id (or both); `list` may have neither. */
export interface FindInputs extends CommonInputs {
  operation: 'wait' | 'list' | 'stop';
  target: TunnelTarget;
}

export interface StartInputs extends CommonInputs {
  operation: 'start';
  tunnelName: string;
  start: StartSettings;
}

export type TunnelInputs = FindInputs | StartInputs;

/** What only `start` reads: where Sauce Connect comes from and how it runs. */
export interface StartSettings {
  /** An executable already on the runner, resolved against the workspace. */
  scPath?: string;
  scVersion: string;
  /** An https:// address of the archive; `{version}` stands for `scVersion`. */
  scDownloadUrl?: string;
  /** The archive already on the runner, `{version}` replaced and resolved against the workspace. */
  scArchive?: string;
  /** What the archive must match, besides what the download listing publishes. */
  scChecksum?: Checksum;
  scArgs: string[];
  startRetries: number;
  statusAddress: string;
}

export function readInputs(read: InputReader): TunnelInputs {
  const operation = read.enum('operation', OPERATIONS, 'wait');
  const tunnelName = read.string('tunnel-name');
  const tunnelId = read.string('tunnel-id');
  const connection = readSauceConnection(read);
  const common: CommonInputs = {
    connection,
    stopOnExit: readStopOnExit(read),
    timeoutMs: read.duration('timeout', DEFAULT_TIMEOUT_MS[operation], TIMEOUT_BOUNDS),
    pollIntervalMs: read.duration('poll-interval', operation === 'start' ? 1000 : 5000, POLL_INTERVAL_BOUNDS),
    ...optionalProperty('retentionDays', readRetentionDays(read)),
  };
  if (operation === 'start') {
    if (tunnelName === undefined) {
      throw new InputError(
        'tunnel-name',
        'is required by `operation: start`, but was empty',
        'a name for the tunnel, unique to the job, for example `ci-${{ github.run_id }}-${{ github.run_attempt }}-${{ github.job }}`',
      );
    }
    return { ...common, operation, tunnelName, start: readStartSettings(read) };
  }
  if (operation !== 'list' && tunnelName === undefined && tunnelId === undefined) {
    throw new InputError(
      'tunnel-name',
      `is required by \`operation: ${operation}\` (or \`tunnel-id\`), but both were empty`,
      'the tunnel name given to Sauce Connect (`--tunnel-name`), or `tunnel-id`',
    );
  }
  return {
    ...common,
    operation,
    target: { ...optionalProperty('name', tunnelName), ...optionalProperty('id', tunnelId) },
  };
}

/** `stop-on-exit`: the three values by name; `yes` or `always` are more likely slips than intent. */
function readStopOnExit(read: InputReader): StopOnExit {
  const value = read.string('stop-on-exit') ?? 'started';
  if ((STOP_ON_EXIT as readonly string[]).includes(value)) return value as StopOnExit;
  throw new InputError(
    'stop-on-exit',
    `has ${quoteValue(value)}`,
    '`started` (the post step stops only the Sauce Connect and tunnel this step started), `true` (also a tunnel it waited for, which other jobs may share) or `false` (nothing)',
  );
}

function readStartSettings(read: InputReader): StartSettings {
  const version = read.string('sc-version') ?? DEFAULT_SC_VERSION;
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) {
    throw new InputError(
      'sc-version',
      `has ${quoteValue(version)}, which is not a version`,
      'a full version such as `5.4.1`',
    );
  }
  const download = readDownload(read, version);
  const checksumText = read.string('sc-checksum');
  const scPath = read.filePath('sc-path');
  if (checksumText !== undefined && scPath !== undefined) {
    throw new InputError(
      'sc-checksum',
      'is given with `sc-path`, whose executable is already on the runner and is not downloaded',
      'no `sc-checksum` with `sc-path`; or, instead of `sc-path`, the archive as `sc-download-url` with its `sc-checksum`',
    );
  }
  return {
    ...optionalProperty('scPath', scPath),
    scVersion: version,
    ...download,
    ...optionalProperty('scChecksum', checksumText === undefined ? undefined : parseScChecksum(checksumText)),
    scArgs: splitArgs(read.string('sc-args') ?? ''),
    startRetries: read.integer('start-retries', 2, { min: 0, max: 10 }),
    statusAddress: checkAddress(read.string('status-address') ?? 'localhost:8032'),
  };
}

const DOWNLOAD_FORM =
  'an https:// address of a .tar.gz or .zip archive, or the path of one on the runner (relative to the workspace); `{version}` stands for `sc-version`';

/**
 * `sc-download-url`: an https:// address, or a path on the runner. Plain http:// is refused: the
 * archive runs with the access key in its environment, and nothing would protect it on its way.
 */
function readDownload(
  read: InputReader,
  version: string,
): Pick<StartSettings, 'scDownloadUrl' | 'scArchive'> {
  const value = read.string('sc-download-url');
  if (value === undefined) return {};
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(value)?.[1]?.toLowerCase();
  if (scheme === 'https') return { scDownloadUrl: value };
  if (scheme === 'http') {
    throw new InputError(
      'sc-download-url',
      'is a plain http:// address, which nothing protects on its way to the runner',
      `${DOWNLOAD_FORM}. Serve the mirror over https`,
    );
  }
  if (scheme !== undefined)
    throw new InputError('sc-download-url', `is a ${scheme}:// address`, DOWNLOAD_FORM);
  const file = path.resolve(read.workspace, value.replaceAll('{version}', version));
  if (!existsSync(file) || !statSync(file).isFile()) {
    throw new InputError(
      'sc-download-url',
      `names ${quoteValue(value)}, which is not a file on the runner (looked for ${file})`,
      DOWNLOAD_FORM,
    );
  }
  return { scArchive: file };
}

/** The post step's inputs: the connection, and the log's retention; the saved state says what to stop. */
export interface PostInputs {
  connection: SauceConnection;
  retentionDays?: number;
}

export function readPostInputs(read: InputReader): PostInputs {
  return {
    connection: readSauceConnection(read),
    ...optionalProperty('retentionDays', readRetentionDays(read)),
  };
}

function readRetentionDays(read: InputReader): number | undefined {
  return read.integer('retention-days', undefined, RETENTION_DAYS);
}
