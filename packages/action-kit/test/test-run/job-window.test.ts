/** Pages of a window of the account's jobs: as wide as the service serves, and no page more. */
import { describe, expect, it } from 'vitest';
import { JOB_PAGE_WIDTH, jobPages, listRunJobs } from '../../src/test-run/job-window.ts';
import { RequestPacer } from '../../src/step/request-pacer.ts';
import { accountJobs, jobsOf, type AccountOptions } from './support/account-jobs.ts';

const pacer = () => new RequestPacer(0);

async function pagesOf(count: number, service: AccountOptions = {}) {
  const account = accountJobs(() => jobsOf('other', count, 1000), service);
  const sizes: number[] = [];
  for await (const page of jobPages(account, { from: 0 }, { pacer: pacer() })) sizes.push(page.jobs.length);
  return {
    sizes,
    limits: account.calls.map((call) => call.limit),
    skips: account.calls.map((call) => call.skip),
  };
}

describe('jobPages', () => {
  const rows: [string, number, AccountOptions, number[], (number | undefined)[]][] = [
    ['an empty window: one request', 0, {}, [0], [JOB_PAGE_WIDTH]],
    ['a short page is the last: no trailing empty page', 999, {}, [999], [JOB_PAGE_WIDTH]],
    ['a full page is followed by the next', 2500, {}, [1000, 1000, 500], [1000, 1000, 1000]],
    ['exactly full pages end with one empty page', 2000, {}, [1000, 1000, 0], [1000, 1000, 1000]],
    [
      'a service ignoring limit: pages of its default, each full',
      250,
      { ignoresLimit: true },
      [100, 100, 50],
      [1000, 1000, 1000],
    ],
    [
      'a service refusing a wide page: asked again at its default',
      150,
      { refusesWide: true },
      [100, 50],
      [1000, 100, 100],
    ],
  ];
  it.each(rows)('%s', async (_name, count, service, sizes, limits) => {
    const read = await pagesOf(count, service);
    expect(read.sizes).toEqual(sizes);
    expect(read.limits).toEqual(limits);
  });

  it('moves skip by what each page answered', async () => {
    expect((await pagesOf(250, { ignoresLimit: true })).skips).toEqual([0, 100, 200]);
  });

  it('ends at a page that repeats the one before (a service that ignores skip)', async () => {
    const read = await pagesOf(3000, { ignoresSkip: true });
    expect(read.sizes).toEqual([1000]);
    expect(read.limits).toHaveLength(2);
  });

  it('ends at maxPages', async () => {
    const account = accountJobs(() => jobsOf('other', 5000, 1000));
    let pages = 0;
    for await (const page of jobPages(account, { from: 0 }, { pacer: pacer(), maxPages: 2 })) {
      pages += 1;
      expect(page.full).toBe(true);
    }
    expect(pages).toBe(2);
  });

  it('sends from and to as asked, and only from when to is open', async () => {
    const account = accountJobs(() => jobsOf('other', 10, 1000));
    await listRunJobs(account, { from: 1002, to: 1005 }, () => true, { pacer: pacer() });
    await listRunJobs(account, { from: 1002 }, () => true, { pacer: pacer() });
    expect(account.calls.map(({ from, to }) => [from, to])).toEqual([
      [1002, 1005],
      [1002, undefined],
    ]);
  });

  it('keeps the run’s jobs of a window and counts its pages', async () => {
    const account = accountJobs(() => [...jobsOf('other', 1500, 1000), ...jobsOf('mine', 3, 1200)]);
    const listed = await listRunJobs(account, { from: 0 }, (job) => job.build === 'mine', { pacer: pacer() });
    expect(listed.jobs.map((job) => job.id).sort()).toEqual(['mine-0', 'mine-1', 'mine-2']);
    expect(listed.pages).toBe(2);
  });
});
