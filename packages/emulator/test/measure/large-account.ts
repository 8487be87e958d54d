/**
 * What a large account costs the emulator itself: listing pages of 1,000 jobs from an account of
 * 25,000 jobs (beside 5,000 of another account), and claiming 20,000 case runs' build names of
 * one name. Prints milliseconds; nothing is asserted, as a time depends on the machine.
 *
 * Usage: node packages/emulator/test/measure/large-account.ts [--jobs 25000] [--others 5000]
 *   [--listings 100] [--runs 20000]
 */
import { parseArgs } from 'node:util';
import { SMOKE_CASE_IDS } from '../../src/authoring/seed.ts';
import { startEmulator } from '../../src/index.ts';
import { basic, DEMO_USER } from '../support/emulator.ts';

const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '25000' },
    others: { type: 'string', default: '5000' },
    listings: { type: 'string', default: '100' },
    runs: { type: 'string', default: '20000' },
  },
});
const JOBS = Number(values.jobs);
const OTHERS = Number(values.others);
const LISTINGS = Number(values.listings);
const RUNS = Number(values.runs);
const PAGE = 1000;

// Jobs a quarter of a second apart, so that several share a creation second.
let now = Date.UTC(2026, 0, 1);
const emulator = await startEmulator({ port: 0, jobDurationMs: 60_000, clock: () => now });
try {
  const { automation, authoring } = emulator.context;
  for (let i = 0; i < JOBS + OTHERS; i++) {
    now += 250;
    const owner = i % ((JOBS + OTHERS) / OTHERS) === 0 ? 'other-pipelines' : DEMO_USER;
    automation.jobs.create({
      name: `job ${i}`,
      build: 'nightly',
      browser: 'chrome',
      os: 'Linux',
      passes: true,
      owner,
    });
  }
  const list = async (query: string): Promise<number> => {
    const answer = await fetch(`${emulator.url}/rest/v1/${DEMO_USER}/jobs?${query}`, {
      headers: { authorization: basic() },
    });
    if (!answer.ok) throw new Error(`listing answered ${answer.status}`);
    return ((await answer.json()) as unknown[]).length;
  };
  const time = async (label: string, queryOf: (i: number) => string): Promise<void> => {
    await list(queryOf(0));
    const started = performance.now();
    let listed = 0;
    for (let i = 0; i < LISTINGS; i++) listed += await list(queryOf(i));
    const ms = performance.now() - started;
    console.log(`${label}: ${LISTINGS} listings, ${listed} jobs, ${ms.toFixed(0)} ms`);
  };
  const window = (i: number) => {
    const to = Math.floor((now - i * 30_000) / 1000);
    return `from=${to - 1200}&to=${to}`;
  };
  await time('ids, newest page', () => `limit=${PAGE}`);
  await time('ids, pages through the list', (i) => `limit=${PAGE}&skip=${(i * PAGE) % JOBS}`);
  await time('ids, from/to window', (i) => `limit=${PAGE}&${window(i)}`);
  await time('full jobs, newest page', () => `limit=${PAGE}&full=true`);

  const user = authoring.users.forAccount(DEMO_USER);
  const started = performance.now();
  for (let i = 0; i < RUNS; i++) authoring.runs.runCase(SMOKE_CASE_IDS[0], { buildName: 'Nightly' }, user);
  const ms = performance.now() - started;
  const last = authoring.data.buildNames.at(-1);
  console.log(`build names: ${RUNS} case runs of one name, ${ms.toFixed(0)} ms (last: ${last})`);
} finally {
  await emulator.close();
}
