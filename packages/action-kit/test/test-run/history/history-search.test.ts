/**
 * A series' history read back from the emulator: records kept on jobs of earlier runs, found by
 * one search for the newest and then one request per run before it; runs of other series,
 * branches and pull requests never counted, nor this run's own record; the search's bounds said
 * when it stops short.
 */
import { SauceClient, type Job } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestPacer } from '../../../src/step/request-pacer.ts';
import { readHistory, recordRun, type HistorySearch } from '../../../src/test-run/history/history-search.ts';
import { recordOf, seriesTag, type RunRecord } from '../../../src/test-run/history/run-record.ts';

const SMOKE_CASE = '65a1f0c0e4b0a1b2c3d4e501';

let emulator: RunningEmulator;
let client: SauceClient;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, jobDurationMs: 10 });
  client = new SauceClient({ username: 'demo', accessKey: 'demo-access-key', apiUrl: emulator.url });
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

/** A new job of the account, as a run's anchor or another pipeline's job. */
async function newJob(): Promise<Job> {
  const run = await client.authoring.testCases.run(SMOKE_CASE);
  return client.automation.jobs.get(run.jobs[0]?.sauceJobId as string);
}

let clock = Date.now() - 3600_000;
/** Keeps a run's record on a new job; answers its anchor. */
async function recorded(fields: Partial<RunRecord> & { series: string }): Promise<string> {
  const anchor = await newJob();
  clock += 1000;
  const record: RunRecord = {
    branch: 'main',
    pullRequest: false,
    run: {},
    at: clock,
    builds: [],
    items: {},
    ...fields,
  };
  await recordRun(client.automation.jobs, anchor, record, { pacer: new RequestPacer(0) });
  return anchor.id;
}

function search(fields: Partial<HistorySearch> & { series: string }): HistorySearch {
  return {
    defaultBranch: 'main',
    runs: 10,
    beforeMs: Date.now() + 60_000,
    signal: AbortSignal.timeout(30_000),
    pacer: new RequestPacer(0),
    ...fields,
  };
}

describe('the history of a series', () => {
  it('reads the newest earlier run by one search, then each run before it by one request', async () => {
    let previous: string | undefined;
    const nights: string[] = [];
    for (let night = 1; night <= 4; night++) {
      previous = await recorded({
        series: 'nightly',
        run: { number: String(night) },
        ...(previous ? { previous } : {}),
      });
      nights.push(previous);
      // Between nights, the account runs other pipelines' jobs, a pull request and a branch of this series, and another series.
      await newJob();
      await recorded({ series: 'nightly', branch: 'feature', run: { number: `f${night}` } });
      await recorded({ series: 'nightly', pullRequest: true, run: { number: `pr${night}` } });
      await recorded({ series: 'another repository', run: { number: `o${night}` } });
    }
    const found = await readHistory(
      client.automation.jobs,
      search({ series: 'nightly', runs: 3, pageWidth: 5 }),
    );
    expect(found.runs.map((run) => run.run.number)).toEqual(['4', '3', '2']);
    expect(found.runs.map((run) => run.anchor)).toEqual(nights.slice(1).reverse());
    // The newest night is 4 jobs deep: one page of 5, then a request for each night before it.
    expect(found.requests).toBe(1 + 2);
    expect(found.shortBy).toBeUndefined();

    const all = await readHistory(client.automation.jobs, search({ series: 'nightly', runs: 10 }));
    // Fewer runs than asked, because there are no more: nothing to say.
    expect(all.runs.map((run) => run.run.number)).toEqual(['4', '3', '2', '1']);
    expect(all.shortBy).toBeUndefined();
  });

  it('never takes a record of this run for an earlier one: an earlier attempt, a retried job', async () => {
    const first = await recorded({ series: 'retried', run: { number: '1' } });
    // Night 2's first try kept its record; the same pipeline's job is retried.
    await recorded({ series: 'retried', run: { number: '2' }, previous: first });
    const retry = await readHistory(
      client.automation.jobs,
      search({ series: 'retried', thisRun: { number: '2', branch: 'main' } }),
    );
    expect(retry.runs.map((run) => run.run.number)).toEqual(['1']);
    expect(retry.requests).toBe(1);
    // The same number on another branch (a Jenkins job per branch counts its own) is another run.
    const elsewhere = await readHistory(
      client.automation.jobs,
      search({ series: 'retried', thisRun: { number: '2', branch: 'PR-24' } }),
    );
    expect(elsewhere.runs.map((run) => run.run.number)).toEqual(['2', '1']);
    const unknown = await readHistory(client.automation.jobs, search({ series: 'retried', thisRun: {} }));
    expect(unknown.runs.map((run) => run.run.number)).toEqual(['2', '1']);
  });

  it("keeps the job's own tags and custom data beside the record, and writing it again changes nothing", async () => {
    const job = await newJob();
    await client.automation.jobs.update(job.id, { tags: ['team-a'], customData: { owner: 'qa' } });
    const own = await client.automation.jobs.get(job.id);
    const record: RunRecord = {
      series: 'kept',
      branch: 'main',
      pullRequest: false,
      run: {},
      at: 1,
      builds: ['B'],
      items: { abc: 'failed' },
    };
    await recordRun(client.automation.jobs, own, record, { pacer: new RequestPacer(0) });
    await recordRun(client.automation.jobs, await client.automation.jobs.get(job.id), record, {
      pacer: new RequestPacer(0),
    });
    const kept = await client.automation.jobs.get(job.id);
    expect(kept.tags).toEqual(['team-a', seriesTag('kept')]);
    expect(kept['custom-data']).toMatchObject({ owner: 'qa' });
    expect(recordOf(kept['custom-data'])).toEqual(record);
  });

  it('says why it stopped short (an anchor gone, the pages it may read), and not when there is nothing earlier', async () => {
    const first = await recorded({ series: 'gone', run: { number: '1' } });
    await recorded({ series: 'gone', run: { number: '2' }, previous: first });
    await client.automation.jobs.delete(first);
    const gone = await readHistory(client.automation.jobs, search({ series: 'gone' }));
    expect(gone.runs.map((run) => run.run.number)).toEqual(['2']);
    expect(gone.shortBy).toBe(`job ${first}, which held the record of an earlier run, is gone`);

    for (let n = 0; n < 3; n++) await newJob();
    const capped = await readHistory(
      client.automation.jobs,
      search({ series: 'gone', maxPages: 1, pageWidth: 2 }),
    );
    expect(capped.runs).toEqual([]);
    expect(capped.requests).toBe(1);
    expect(capped.shortBy).toBe(
      "no earlier run on main was among the account's newest 2 jobs, as far back as the search reads",
    );

    const none = await readHistory(client.automation.jobs, search({ series: 'never recorded' }));
    expect(none.runs).toEqual([]);
    // The whole window read and nothing found: a first run, not a search stopped short.
    expect(none.shortBy).toBeUndefined();
  });

  it('reads nothing with `history: 0`, and never a run recorded after this one started', async () => {
    const startedAt = Date.now() + 60_000;
    // Recorded by a run that started after this one (two schedules at once).
    await recorded({ series: 'later', at: startedAt + 1 });
    const off = await readHistory(client.automation.jobs, search({ series: 'later', runs: 0 }));
    expect(off).toEqual({ runs: [], requests: 0 });
    const before = await readHistory(
      client.automation.jobs,
      search({ series: 'later', beforeMs: startedAt }),
    );
    expect(before.runs).toEqual([]);
    const after = await readHistory(
      client.automation.jobs,
      search({ series: 'later', beforeMs: startedAt + 2 }),
    );
    expect(after.runs).toHaveLength(1);
  });
});
