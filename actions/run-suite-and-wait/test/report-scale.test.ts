/**
 * `operation: report` of very large runs on a busy account: 5,000 and 20,000 cases whose jobs the
 * seed holds (as if shards had run them), under 5,000 jobs of another pipeline created since. Every
 * case is reported, none as not run, in a number of requests that grows with the jobs read.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { defaultSeed, startEmulator, type RunningEmulator, type Seed } from '@sauce-actions/emulator';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../src/run.ts';
import { buildOf, closeClients, journal, suiteDeps, suiteInputs, workflowRun } from './helpers.ts';

const SUITE_ID = '7c1f0e5a-2b3d-4e6f-8a9b-0c1d2e3f4a5b';
const OTHER_JOBS = 5000;

/** `cases` cases of suite `Huge`, every 7th failing, their jobs in the run's builds; then the other pipeline's. */
function hugeRun(cases: number): Seed {
  const base = defaultSeed();
  const build = buildOf('Huge', '7', '1');
  const name = (n: number) => `Case ${String(n).padStart(5, '0')}`;
  return {
    ...base,
    authoring: {
      ...base.authoring,
      testSuites: [{ id: SUITE_ID, name: 'Huge' }],
      testCases: Array.from({ length: cases }, (_, n) => ({
        id: `eeeeeeeeeeeeeeee${n.toString(16).padStart(8, '0')}`,
        name: name(n),
        testSuiteId: SUITE_ID,
      })),
    },
    automation: {
      ...base.automation,
      jobs: [
        ...Array.from({ length: cases }, (_, n) => ({
          owner: 'demo',
          name: name(n),
          // The service makes every case run's build name unique.
          build: n === 0 ? build : `${build} - ${n}`,
          passes: n % 7 !== 3,
          endedSecondsAgo: 4000 + Math.floor(n / 10),
        })),
        ...Array.from({ length: OTHER_JOBS }, (_, n) => ({
          owner: 'demo',
          name: `Other ${n}`,
          build: 'another pipeline',
          passes: true,
          endedSecondsAgo: 100 + Math.floor(n / 10),
        })),
      ],
    },
  };
}

const emulators: RunningEmulator[] = [];
afterAll(async () => {
  await closeClients();
  await Promise.all(emulators.map((emulator) => emulator.close()));
});

describe('operation: report of a very large run on a busy account', () => {
  it.each([5000, 20_000])('reports every one of %i cases, none as not run', async (cases) => {
    const emulator = await startEmulator({ port: 0, seed: hugeRun(cases) });
    emulators.push(emulator);
    const folder = await mkdtemp(path.join(os.tmpdir(), 'report-scale-'));
    try {
      const deps = suiteDeps(emulator, folder, { workflow: workflowRun('7', '1', { job: 'report' }) });
      const before = (await journal(emulator)).length;
      const result = await run(
        suiteInputs(emulator, { operation: 'report', suite: 'Huge', timeoutMs: 300_000 }),
        deps,
      );
      const failed = Array.from({ length: cases }, (_, n) => n).filter((n) => n % 7 === 3).length;
      expect(result.outputs).toMatchObject({ total: cases, passed: cases - failed, failed });
      expect(result.failure?.message).toMatch(new RegExp(`^${failed} of ${cases} job\\(s\\) failed`));
      expect(result.failure?.message).not.toMatch(/not run|not found/);
      const listings = (await journal(emulator))
        .slice(before)
        .filter((entry) => entry.method === 'GET' && entry.path === '/rest/v1/demo/jobs');
      // Pages of 1,000: the other pipeline's, the run's, and the one page after them that ends it.
      expect(listings.length).toBe(Math.ceil((cases + OTHER_JOBS) / 1000) + 1);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
