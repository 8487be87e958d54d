/**
 * An account with a history: the nightly's seed (`nightly-seed.ts`) plus the jobs of earlier
 * nights, one a day, each of every case of the suite, and between them (and after the last) the
 * jobs of other pipelines on the same account. Every job is seeded, finished, at its time in the
 * past, so that a month of an account costs nothing to build; the records of the nights are kept
 * on them afterwards, as a run of the default branch keeps its own.
 */
import { writeFile } from 'node:fs/promises';
import type { Seed } from '@sauce-actions/emulator';
import { caseFails, nightlySeed } from './nightly-seed.ts';

export const DAY_SECONDS = 86_400;
/** Seconds between two jobs of a night: its cases start one after another. */
const CASE_SECONDS = 1;

export interface HistorySeedOptions {
  cases: number;
  /** Earlier nights, one a day, the newest a day ago. */
  nights: number;
  /** Other pipelines' jobs between two nights, and after the last one. */
  otherJobs: number;
}

export interface SeededNight {
  /** 1 for the oldest. */
  night: number;
  /** The run number it had: the nights before number 412's. */
  runNumber: string;
  build: string;
  /** The night's first job, where it keeps its record. */
  anchor: string;
  /** Its jobs' ids, in case order. */
  jobs: string[];
  /** When the night started, seconds before the emulator started. */
  startedSecondsAgo: number;
}

/** The run number of the night a seeded history leads to. */
export const TONIGHT = 412;

function hexId(prefix: number, index: number): string {
  return `${prefix.toString(16).padStart(8, '0')}${index.toString(16).padStart(24, '0')}`;
}

/** Other pipelines' jobs: ids apart from any night's. */
const OTHER_PREFIX = 0xffff_0000;

export function historySeed(options: HistorySeedOptions): { seed: Seed; nights: SeededNight[] } {
  const base = nightlySeed(options.cases);
  const jobs: NonNullable<Seed['automation']['jobs']> = [...(base.automation.jobs ?? [])];
  const nights: SeededNight[] = [];
  let other = 0;
  for (let night = 1; night <= options.nights; night++) {
    const startedSecondsAgo = (options.nights - night + 1) * DAY_SECONDS;
    const runNumber = String(TONIGHT - options.nights + night - 1);
    const build = `Nightly #${runNumber}.1 · seededxx`;
    const ids: string[] = [];
    for (let n = 0; n < options.cases; n++) {
      const id = hexId(night, n);
      ids.push(id);
      jobs.push({
        id,
        owner: 'demo',
        name: `Nightly ${String(n + 1).padStart(4, '0')}`,
        build,
        passes: !caseFails(n),
        endedSecondsAgo: startedSecondsAgo - n * CASE_SECONDS,
      });
    }
    nights.push({ night, runNumber, build, anchor: ids[0]!, jobs: ids, startedSecondsAgo });
    // The day's other jobs, evenly from the night's end to the next night's start (or an hour ago).
    const from = startedSecondsAgo - options.cases * CASE_SECONDS;
    const to = night < options.nights ? startedSecondsAgo - DAY_SECONDS : 3600;
    for (let k = 0; k < options.otherJobs; k++) {
      jobs.push({
        id: hexId(OTHER_PREFIX, other++),
        owner: 'demo',
        name: 'Other pipeline unit tests',
        build: `Other pipeline ${night}.${Math.floor(k / 100)}`,
        passes: true,
        endedSecondsAgo: Math.round(from - ((from - to) * (k + 1)) / (options.otherJobs + 1)),
      });
    }
  }
  return { seed: { ...base, automation: { ...base.automation, jobs } }, nights };
}

export async function writeHistorySeed(file: string, seed: Seed): Promise<void> {
  await writeFile(file, JSON.stringify(seed));
}
