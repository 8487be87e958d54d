/**
 * A report's and a re-run's search of a run's builds: complete at any size, never the account's
 * whole history, and plain about what it could not read.
 */
import { RequestPacer } from '../../src/step/request-pacer.ts';
import type { Job } from '@sauce-actions/api';
import { describe, expect, it } from 'vitest';
import { findBuildJobs, SHARD_SPREAD_MS, type BuildJobsSearch } from '../../src/test-run/build-search.ts';
import { accountJobs, jobsOf } from './support/account-jobs.ts';

const NOW = 2_000_000_000;
const itemOf = (job: Job): string | undefined => job.name?.replace(/^.* - \d+-|^[^-]+-/, '') ?? undefined;

function search(overrides: Partial<BuildJobsSearch> = {}): BuildJobsSearch {
  return {
    builds: ['Nightly #7.1'],
    itemOf: (job) => (job.build?.startsWith('Nightly') ? itemOf(job) : undefined),
    items: 0,
    nowMs: NOW * 1000,
    signal: new AbortController().signal,
    pacer: new RequestPacer(0),
    ...overrides,
  };
}

describe('findBuildJobs', () => {
  it('finds 20,000 jobs of a run among 5,000 of other pipelines, in 26 requests', async () => {
    const account = accountJobs(() => [
      ...jobsOf('Nightly #7.1', 20_000, NOW - 30_000),
      ...jobsOf('other', 5000, NOW - 20_000),
    ]);
    const found = await findBuildJobs(account, search({ items: 20_000 }));
    expect(found.jobs).toHaveLength(20_000);
    expect(new Set(found.jobs.map(itemOf)).size).toBe(20_000);
    expect(found.incomplete).toBeUndefined();
    // 25 full pages, then the first page after them with no job of the run.
    expect(found.requests).toBe(26);
  });

  it('reads every attempt’s build before it ends, though every item showed in the last', async () => {
    const account = accountJobs(() => [
      ...jobsOf('Nightly #7.1', 10, NOW - 90_000),
      ...jobsOf('other', 3000, NOW - 80_000),
      ...jobsOf('Nightly #7.2', 10, NOW - 100),
    ]);
    const found = await findBuildJobs(
      account,
      search({ builds: ['Nightly #7.1', 'Nightly #7.2'], items: 10 }),
    );
    expect(found.jobs.map((job) => job.build)).toEqual([
      ...Array(10).fill('Nightly #7.2'),
      ...Array(10).fill('Nightly #7.1'),
    ]);
  });

  it('with an item missing, looks no further back than the spread of a run’s shards', async () => {
    const spread = SHARD_SPREAD_MS / 1000;
    const account = accountJobs(() => [
      ...jobsOf('Nightly #7.1', 5, NOW - 1000),
      // Other pipelines' jobs for two days before the run: one a ten seconds.
      ...jobsOf('other', 17_280, NOW - 2 * 86_400).map((job, index) => ({
        ...job,
        creation_time: NOW - 2 * 86_400 + index * 10,
      })),
    ]);
    const found = await findBuildJobs(account, search({ items: 6 }));
    expect(found.jobs).toHaveLength(5);
    expect(found.incomplete).toBeUndefined();
    const oldestRead = Math.min(
      ...(await account.list({ full: true, from: 0, limit: 1000, skip: (found.requests - 1) * 1000 })).map(
        (job) => job.creation_time ?? 0,
      ),
    );
    expect(oldestRead).toBeLessThan(NOW - 1000 - spread);
    expect(oldestRead).toBeGreaterThan(NOW - 1000 - spread - 10_000);
  });

  it('goes back no further than the run’s creation when the CI system tells it', async () => {
    const account = accountJobs(() => jobsOf('other', 50_000, NOW - 50_000));
    const found = await findBuildJobs(account, search({ items: 3, runCreatedAtMs: (NOW - 2000) * 1000 }));
    expect(found.jobs).toEqual([]);
    expect(account.calls.map((call) => call.from)).toEqual([
      NOW - 2000 - 60,
      NOW - 2000 - 60,
      NOW - 2000 - 60,
    ]);
    expect(found.incomplete).toBeUndefined();
  });

  it('says plainly when it stopped at its page limit', async () => {
    const account = accountJobs(() => jobsOf('other', 1000, NOW - 1000), { ignoresSkip: false });
    const endless = {
      ...account,
      // Every page full and new: an account that never runs out.
      list: async () => jobsOf(`other${account.calls.push({})}`, 1000, NOW - 1000),
    };
    const found = await findBuildJobs(endless, search({ items: 1 }));
    expect(found.incomplete).toBe(
      "the search read the newest 1,000 pages of the account's jobs and stopped there",
    );
    expect(found.requests).toBe(1000);
  });

  it('ends at the end of the window: a run with no job at all is not an error', async () => {
    const account = accountJobs(() => jobsOf('other', 1500, NOW - 5000));
    const found = await findBuildJobs(account, search({ items: 4 }));
    expect(found).toMatchObject({ jobs: [], requests: 2 });
    expect(found.incomplete).toBeUndefined();
  });
});
