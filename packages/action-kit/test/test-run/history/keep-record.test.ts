/**
 * The record a run of the default branch keeps on its first job: the run as people know it, the
 * build its anchor job ran in (which names the run in later links where the CI system gives no
 * number), the run before it, and each item's outcome, beside the job's own tags and custom data.
 */
import type { Job } from '@sauce-actions/api';
import { describe, expect, it } from 'vitest';
import { RequestPacer } from '../../../src/step/request-pacer.ts';
import type { TestResults } from '../../../src/test-run/adapter.ts';
import { classifyItems } from '../../../src/test-run/history/classes.ts';
import { keepRecord, type Comparison } from '../../../src/test-run/history/comparison.ts';
import { itemKey, recordOf } from '../../../src/test-run/history/run-record.ts';
import type { ReportedJob } from '../../../src/test-run/job-report.ts';

const JOB: ReportedJob = {
  id: 'j1',
  name: 'Login',
  platform: 'chrome 126, Windows 11',
  status: 'passed',
  url: '',
};

const RESULTS: TestResults = {
  items: [{ job: JOB, last: { item: 'case-1', job: JOB, jobId: 'j1', record: undefined }, earlier: [] }],
  jobs: [JOB],
  tally: { total: 1, passed: 1, failed: 0, flaky: 0 } as TestResults['tally'],
  startedAtMs: 1_000,
};

function comparison(): Comparison {
  return {
    series: { token: 'series-token', defaultBranch: 'main', ofDefaultBranch: true },
    classification: classifyItems([{ item: 'case-1', name: 'Login', outcome: 'passed' }], []),
    compared: [],
    failing: [],
    requests: 1,
  };
}

/** Keeps the record of `RESULTS` on a job of this build; answers what the update sent. */
async function kept(build: string | null) {
  const sent: { id: string; tags?: string[]; customData?: Record<string, unknown> }[] = [];
  const anchor = { id: 'j1', build, tags: ['nightly'], 'custom-data': { team: 'web' } } as unknown as Job;
  const jobs = {
    list: async () => [],
    get: async () => anchor,
    update: async (id: string, changes: { tags?: string[]; customData?: Record<string, unknown> }) => {
      sent.push({ id, ...changes });
      return anchor;
    },
  };
  await keepRecord(
    RESULTS,
    comparison(),
    { jobs, get: async () => anchor, serviceTime: (ms) => ms + 5 },
    {
      workflow: { runNumber: '7', runAttempt: '1', series: 'github:https://github.com/acme/app/x.yml' },
      ci: { runUrl: 'https://github.com/acme/app/actions/runs/9' },
      pacer: new RequestPacer(0),
      signal: AbortSignal.timeout(10_000),
    },
  );
  return sent;
}

describe("a run's record", () => {
  it('names the build its anchor job ran in, beside the run and each outcome', async () => {
    const [update] = await kept('Nightly #7.1 · abcd2345');
    expect(update?.id).toBe('j1');
    expect(update?.tags).toEqual(['nightly', 'sauce-actions-history:series-token']);
    expect(update?.customData?.team).toBe('web');
    expect(recordOf(update?.customData)).toEqual({
      series: 'series-token',
      branch: 'main',
      pullRequest: false,
      run: { number: '7', attempt: '1', url: 'https://github.com/acme/app/actions/runs/9' },
      at: 1_005,
      builds: ['Nightly #7.1 · abcd2345'],
      items: { [itemKey('case-1')]: 'passed' },
    });
  });

  it('names no build when the anchor job has none', async () => {
    const [update] = await kept(null);
    expect(recordOf(update?.customData)?.builds).toEqual([]);
  });
});
