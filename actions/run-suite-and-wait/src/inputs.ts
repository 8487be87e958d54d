/** The inputs of run-suite-and-wait, read and checked before anything is sent. */
import {
  ASSETS_SIZE_BOUNDS,
  InputError,
  POLL_INTERVAL_BOUNDS,
  optionalProperty,
  readSauceConnection,
  TIMEOUT_BOUNDS,
  type InputReader,
  type SauceConnection,
  type Shard,
} from '@sauce-actions/action-kit';
import { RETENTION_DAYS } from '@sauce-actions/action-kit/inputs/input-forms';
import { readHistoryInputs, type HistoryInputs } from '@sauce-actions/action-kit/inputs/history-inputs';
import { readPublishingInputs, type PublishingInputs } from '@sauce-actions/action-kit/inputs/publishing';
import { utcToday } from '@sauce-actions/action-kit/inputs/quarantine-entry';
import type { AuthoringRunTarget } from '@sauce-actions/api';
import { parseTargets, parseTestCases, type CaseSelection } from './selection.ts';

type DownloadAssets = 'none' | 'failed' | 'all';

/**
 * `max-assets-size` when not given: the Actions storage GitHub Free includes (500 MB), so that
 * one run's artifact fits any plan's; room for dozens of job videos.
 */
export const DEFAULT_MAX_ASSETS_BYTES = 500_000_000;

/** Runs of a failed case after its first, at most: each waits for the slowest job of the one before. */
const MAX_RETRIES = 5;

export interface SuiteInputs extends PublishingInputs {
  connection: SauceConnection;
  /** `run` runs the cases; `report` runs nothing and publishes every shard and attempt of the workflow run. */
  operation: 'run' | 'report';
  /** A suite's id or exact name; exactly one of `suite` and `testCases` is set. */
  suite?: string;
  testCases?: CaseSelection[];
  targets?: AuthoringRunTarget[];
  buildName?: string;
  tunnelName?: string;
  /** This job's share of the cases, when a matrix splits them. */
  shard?: Shard;
  /** Times a failed case is run again (0 to 5). */
  retries: number;
  /** Stop the rest as soon as a case has failed every attempt. */
  failFast: boolean;
  /** On a workflow run's attempt after the first, run only what did not pass before. */
  rerunFailed: boolean;
  failOnFailure: boolean;
  stopOnCancel: boolean;
  downloadAssets: DownloadAssets;
  /** Most bytes of job assets downloaded in all. */
  maxAssetsBytes: number;
  /** Days the assets' artifact is kept; none: as long as the repository's settings say. */
  retentionDays?: number;
  /** Resolved against the workspace. */
  junitFile?: string;
  pollIntervalMs: number;
  /** Longest wait for every job to finish. */
  timeoutMs: number;
  /**
   * The comparison with the earlier runs of the default branch, and the quarantine; read the same
   * in every operation, with or without `shard`, since the report step compares too.
   */
  history: HistoryInputs;
}

export async function readInputs(read: InputReader): Promise<SuiteInputs> {
  const connection = readSauceConnection(read);
  const suite = read.string('suite');
  const testCasesText = read.string('test-cases');
  if ((suite === undefined) === (testCasesText === undefined)) {
    throw new InputError(
      'suite',
      suite === undefined ? 'and `test-cases` are both empty' : 'and `test-cases` are both set',
      'either a suite (id or exact name) or a list of test case ids',
    );
  }
  const targetsText = read.string('targets');
  const operation = read.enum('operation', ['run', 'report'], 'run');
  const shard = read.shard('shard');
  if (operation === 'report' && shard !== undefined) {
    throw new InputError(
      'shard',
      'is set with `operation: report`, which reports every shard at once',
      'empty in the report step (give it the `suite` or `test-cases` and `build-name` of the shards)',
    );
  }
  return {
    connection,
    operation,
    ...optionalProperty('suite', suite),
    ...optionalProperty(
      'testCases',
      testCasesText !== undefined ? await parseTestCases(testCasesText) : undefined,
    ),
    ...optionalProperty('targets', targetsText !== undefined ? await parseTargets(targetsText) : undefined),
    ...optionalProperty('buildName', read.string('build-name')),
    ...optionalProperty('tunnelName', read.string('tunnel-name')),
    ...optionalProperty('shard', shard),
    retries: read.integer('retries', 0, { min: 0, max: MAX_RETRIES }),
    failFast: read.boolean('fail-fast', false),
    rerunFailed: read.boolean('rerun-failed', true),
    failOnFailure: read.boolean('fail-on-failure', true),
    stopOnCancel: read.boolean('stop-on-cancel', true),
    downloadAssets: read.enum('download-assets', ['none', 'failed', 'all'], 'none'),
    maxAssetsBytes: read.size('max-assets-size', DEFAULT_MAX_ASSETS_BYTES, ASSETS_SIZE_BOUNDS),
    ...optionalProperty('retentionDays', read.integer('retention-days', undefined, RETENTION_DAYS)),
    ...optionalProperty('junitFile', read.filePath('junit-file', { mustExist: false })),
    pollIntervalMs: read.duration('poll-interval', 10_000, POLL_INTERVAL_BOUNDS),
    timeoutMs: read.duration('timeout', 60 * 60_000, TIMEOUT_BOUNDS),
    history: await readHistoryInputs(read, { workspace: read.workspace, today: utcToday() }),
    ...readPublishingInputs(read),
  };
}
