/**
 * What a test run keeps of itself on the service, for later runs to compare with: one record in
 * the custom data of one of its jobs (its anchor), tagged with the run's series. The record links
 * to the anchor of the run before it on the default branch, so that reading `history` earlier runs
 * costs one search for the newest and then one request each, however busy the account is.
 */
import { shortHash } from '../../step/run-identity.ts';

/** The key of the record in a job's custom data: the rest of the custom data is the user's. */
export const RECORD_KEY = 'sauce-actions';

/** The tag an anchor job carries, that a search of the account's jobs recognises a series by. */
export function seriesTag(series: string): string {
  return `sauce-actions-history:${series}`;
}

/** Format version: a record of another version is read as none. */
const VERSION = 1;

/** How an item came out in a run: passed, failed, or flaky (failed, then passed on a retry). */
export type ItemOutcome = 'passed' | 'failed' | 'flaky';

export interface RunRecord {
  /** The series the run belongs to: its CI server, repository, workflow and what it ran (`seriesToken`). */
  series: string;
  /** The branch built; '' when unknown. */
  branch: string;
  /** A pull request's run: kept for the record, never compared with. */
  pullRequest: boolean;
  /** The run as people know it: number and attempt, its address. */
  run: { number?: string; attempt?: string; url?: string };
  /** When the run started, on the service's clock (ms since the epoch). */
  at: number;
  /** The build names of its jobs (the first attempt's first). */
  builds: string[];
  /** The anchor job of the default branch's run before it, where there was one. */
  previous?: string;
  /** Each item it ran, by `itemKey`, and how it came out. */
  items: Record<string, ItemOutcome>;
}

/** Characters of a series' token: 80 bits, one tag among every series of an account. */
const SERIES_TOKEN_LENGTH = 16;

/**
 * The token of a series of test runs: the run's series (its server, repository and workflow:
 * `WorkflowRun.series`) and what the step runs (a suite, chosen cases, a page on platforms), so
 * that two steps of one workflow running different suites keep histories of their own.
 */
export function seriesToken(series: string, runs: string): string {
  return shortHash(`${series}\n${runs}`, SERIES_TOKEN_LENGTH);
}

/** Characters of an item's key: 50 bits, so that 2,000 items of a suite never share one. */
const ITEM_KEY_LENGTH = 10;

/**
 * An item's key in a record: a short hash of what names the item for good (a case's id, a
 * platform's name), so that a record of 2,000 cases stays near 34 KB of custom data.
 */
export function itemKey(item: string): string {
  return shortHash(item, ITEM_KEY_LENGTH);
}

/** An outcome as stored: one letter, as the words would take 2,000 items over 40 KB. */
const LETTERS: Record<ItemOutcome, string> = { passed: 'p', failed: 'f', flaky: 'r' };
const OUTCOMES = new Map(
  Object.entries(LETTERS).map(([outcome, letter]) => [letter, outcome as ItemOutcome]),
);

/** The record as custom data: the job's own custom data, with the record under `RECORD_KEY`. */
export function withRecord(customData: unknown, record: RunRecord): Record<string, unknown> {
  const own = isObject(customData) ? customData : {};
  const items = Object.fromEntries(
    Object.entries(record.items).map(([key, outcome]) => [key, LETTERS[outcome]]),
  );
  return { ...own, [RECORD_KEY]: { v: VERSION, ...record, items } };
}

/** The record a job's custom data holds; undefined for none, another version, or anything malformed. */
export function recordOf(customData: unknown): RunRecord | undefined {
  if (!isObject(customData)) return undefined;
  const value = customData[RECORD_KEY];
  if (!isObject(value) || value.v !== VERSION) return undefined;
  const { series, branch, pullRequest, run, at, builds, previous, items } = value;
  if (typeof series !== 'string' || series === '' || typeof branch !== 'string') return undefined;
  if (typeof pullRequest !== 'boolean' || typeof at !== 'number' || !Number.isFinite(at)) return undefined;
  if (!isObject(run) || !isObject(items) || !Array.isArray(builds)) return undefined;
  const outcomes: Record<string, ItemOutcome> = {};
  for (const [key, letter] of Object.entries(items)) {
    const outcome = typeof letter === 'string' ? OUTCOMES.get(letter) : undefined;
    if (outcome !== undefined) outcomes[key] = outcome;
  }
  const text = (name: string): string | undefined =>
    typeof run[name] === 'string' && run[name] !== '' ? run[name] : undefined;
  const number = text('number');
  const attempt = text('attempt');
  const url = text('url');
  return {
    series,
    branch,
    pullRequest,
    run: {
      ...(number !== undefined ? { number } : {}),
      ...(attempt !== undefined ? { attempt } : {}),
      ...(url !== undefined ? { url } : {}),
    },
    at,
    builds: builds.filter((build): build is string => typeof build === 'string'),
    ...(typeof previous === 'string' && /^[\w-]{1,64}$/.test(previous) ? { previous } : {}),
    items: outcomes,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
