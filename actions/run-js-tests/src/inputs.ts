/** The inputs of run-js-tests, read and checked before anything is sent. */
import {
  InputError,
  MAX_DURATION_BOUNDS,
  POLL_INTERVAL_BOUNDS,
  optionalProperty,
  quoteValue,
  readSauceConnection,
  shareOf,
  TIMEOUT_BOUNDS,
  type InputReader,
  type SauceConnection,
  type Shard,
} from '@sauce-actions/action-kit';
import { JS_TEST_FRAMEWORKS, type JsTestFramework, type JsTestPlatform } from '@sauce-actions/api';
import { readHistoryInputs, type HistoryInputs } from '@sauce-actions/action-kit/inputs/history-inputs';
import { readPublishingInputs, type PublishingInputs } from '@sauce-actions/action-kit/inputs/publishing';
import { utcToday } from '@sauce-actions/action-kit/inputs/quarantine-entry';
import { parsePlatforms } from './platforms.ts';

/** The frameworks `framework` takes: the client's table of them. */
export const FRAMEWORKS = JS_TEST_FRAMEWORKS;

/** `qunit`, `jasmine`, …: the allowed values as a refusal names them. */
export const FRAMEWORKS_TEXT = FRAMEWORKS.map((name) => `\`${name}\``).join(', ');

const DEFAULT_TIMEOUT_MS = 30 * 60_000;
/** Runs of a failed platform after its first, at most: each waits for the slowest platform of the one before. */
const MAX_RETRIES = 5;
const DEFAULT_POLL_INTERVAL_MS = 10_000;

const TEST_PAGE_FORM =
  'an http:// or https:// address of the test page, such as `https://example.com/tests.html`';

export interface JsTestsInputs extends PublishingInputs {
  connection: SauceConnection;
  /** `run` runs the tests; `report` runs nothing and publishes every shard and attempt of the workflow run. */
  operation: 'run' | 'report';
  url: string;
  framework: JsTestFramework;
  /** The platforms this job runs: its shard's share of `platforms`, in their order. */
  platforms: JsTestPlatform[];
  /** With `shard`: this job's share, and how many platforms `platforms` lists in all. */
  shard?: Shard & { of: number };
  tunnelName?: string;
  build?: string;
  name?: string;
  tags: string[];
  maxDurationSeconds?: number;
  capabilities: Record<string, unknown>;
  failOnFailure: boolean;
  /** Times a failed platform is run again (0 to 5). */
  retries: number;
  /** Absolute path of the JUnit report, when one is wanted. */
  junitFile?: string;
  /** Longest wait for every platform; then the unfinished jobs are stopped. */
  timeoutMs: number;
  pollIntervalMs: number;
  /**
   * The comparison with the earlier runs of the default branch, and the quarantine; read the same
   * in every operation, with or without `shard`, since the report step compares too.
   */
  history: HistoryInputs;
}

export async function readInputs(read: InputReader): Promise<JsTestsInputs> {
  const connection = readSauceConnection(read);
  const framework = read.enum('framework', FRAMEWORKS);
  if (framework === undefined) {
    throw new InputError('framework', 'is required but was empty', FRAMEWORKS_TEXT);
  }
  const maxDurationMs = read.duration('max-duration', undefined, MAX_DURATION_BOUNDS);
  const url = parseTestPageUrl(read.requiredString('url', TEST_PAGE_FORM));
  const platforms = await parsePlatforms(
    read.requiredString(
      'platforms',
      'a YAML list of `[os, browser, version]`, or one `os / browser / version` per line, such as `Windows 11 / chrome / latest`',
    ),
  );
  const operation = read.enum('operation', ['run', 'report'], 'run');
  const shard = read.shard('shard');
  const build = read.string('build');
  if (operation === 'report') checkReportInputs(shard);
  const split = shard !== undefined && shard.total > 1;
  return {
    connection,
    operation,
    url,
    framework,
    platforms: split ? shareOf(platforms, shard, platformKey) : platforms,
    ...(split ? { shard: { ...shard, of: platforms.length } } : {}),
    ...optionalProperty('tunnelName', read.string('tunnel-name')),
    ...optionalProperty('build', build),
    ...optionalProperty('name', read.string('name')),
    tags: read.list('tags'),
    ...optionalProperty(
      'maxDurationSeconds',
      maxDurationMs !== undefined ? Math.ceil(maxDurationMs / 1000) : undefined,
    ),
    capabilities: parseCapabilities(read.string('capabilities')),
    failOnFailure: read.boolean('fail-on-failure', true),
    retries: read.integer('retries', 0, { min: 0, max: MAX_RETRIES }),
    ...optionalProperty('junitFile', read.filePath('junit-file', { mustExist: false })),
    timeoutMs: read.duration('timeout', DEFAULT_TIMEOUT_MS, TIMEOUT_BOUNDS),
    pollIntervalMs: read.duration('poll-interval', DEFAULT_POLL_INTERVAL_MS, POLL_INTERVAL_BOUNDS),
    history: await readHistoryInputs(read, { workspace: read.workspace, today: utcToday() }),
    ...readPublishingInputs(read),
  };
}

/** `operation: report` reports every shard at once. */
function checkReportInputs(shard: Shard | undefined): void {
  if (shard !== undefined) {
    throw new InputError(
      'shard',
      'is set with `operation: report`, which reports every shard at once',
      'empty in the report step (give it the `platforms` and `build` of the shards)',
    );
  }
}

/** What a platform is sorted by to fall in a shard: the same whatever order `platforms` lists them in. */
function platformKey(platform: JsTestPlatform): string {
  return platform.join('\u0000');
}

/** The test page: an http(s) address the service's browsers open. */
export function parseTestPageUrl(value: string, input = 'url'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InputError(input, `has ${quoteValue(value)}, which is not an address`, TEST_PAGE_FORM);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InputError(input, `has ${quoteValue(value)}, which is not http or https`, TEST_PAGE_FORM);
  }
  return value;
}

/** Extra desired capabilities: a JSON object whose members are sent with the start request. */
export function parseCapabilities(
  value: string | undefined,
  input = 'capabilities',
): Record<string, unknown> {
  if (value === undefined) return {};
  const allowed = 'a JSON object, for example `{"screenResolution": "1280x1024"}`';
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new InputError(input, `is not valid JSON (${(error as Error).message})`, allowed);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new InputError(input, `has ${quoteValue(value)}, which is not a JSON object`, allowed);
  }
  return parsed as Record<string, unknown>;
}
