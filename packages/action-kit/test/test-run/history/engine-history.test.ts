/**
 * The engine with a history: nights of the toy test action on the default branch, each compared
 * with the ones before and keeping its record, through a job store of the test's own; a pull
 * request compared with the default branch and keeping nothing; `fail-on: new` and the quarantine.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Job, ListJobsParams } from '@sauce-actions/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeText } from '../../../src/reporting/budget.ts';
import type { HistoryOptions } from '../../../src/test-run/adapter.ts';
import { runTests } from '../../../src/test-run/engine.ts';
import { recordOf } from '../../../src/test-run/history/run-record.ts';
import type { ReportedJobStatus } from '../../../src/test-run/job-report.ts';
import { testStepDeps } from '../../../src/testing.ts';
import { toyAdapter, type Script } from '../support/toy-adapter.ts';

/** The account's jobs, newest first: a job is made the first time it is read. */
function jobStore(): HistoryOptions['jobs'] & { jobs: Map<string, Job> } {
  const jobs = new Map<string, Job>();
  let clock = 1_800_000_000;
  const made = (id: string): Job => {
    let job = jobs.get(id);
    if (job === undefined) {
      clock += 1;
      job = { id, tags: [], 'custom-data': null, creation_time: clock } as unknown as Job;
      jobs.set(id, job);
    }
    return job;
  };
  return {
    jobs,
    list: async (params: ListJobsParams) => {
      const newestFirst = [...jobs.values()].reverse();
      return newestFirst.slice(params.skip ?? 0, (params.skip ?? 0) + (params.limit ?? 100));
    },
    get: async (id: string) => made(id),
    update: async (id: string, changes: { tags?: string[]; customData?: Record<string, unknown> }) => {
      const job = made(id);
      if (changes.tags) job.tags = changes.tags;
      if (changes.customData) job['custom-data'] = changes.customData;
      return job;
    },
  };
}

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'engine-history-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const MAIN = { branch: 'main', defaultBranch: 'main' };
const SERIES = 'github:https://github.com/acme/app/.github/workflows/nightly.yml';

async function night(
  store: ReturnType<typeof jobStore>,
  name: string,
  script: Script,
  options: {
    ci?: object;
    failOn?: 'any' | 'new';
    quarantine?: string[];
    series?: string;
    junitFile?: string;
  } = {},
) {
  const deps = testStepDeps({
    tempDir: folder,
    workflow: { step: name, series: options.series ?? SERIES, runNumber: name },
    ci: { ...MAIN, runUrl: `https://example.com/runs/${name}`, ...options.ci },
  });
  const quarantined = new Set(options.quarantine ?? []);
  const history: HistoryOptions = {
    runs: 10,
    failOn: options.failOn ?? 'any',
    runsWhat: 'toys',
    title: 'Toys',
    jobs: store,
    serviceTime: (ms) => ms + Number(name.replace(/\D/g, '') || '0'),
    quarantineOf: (item) =>
      quarantined.has(item.id) ? { reason: 'tracked in #12', mode: 'run' } : undefined,
  };
  const result = await runTests(
    toyAdapter({ script, night: `${name}_` }, { started: [], stopped: [] }),
    {
      name: 'toys',
      timeoutMs: 60_000,
      retries: 1,
      failOnFailure: true,
      history,
      ...(options.junitFile !== undefined ? { junitFile: options.junitFile } : {}),
    },
    deps,
  );
  return { result, summary: wholeText(result.summary), deps };
}

const P: ReportedJobStatus[] = ['passed'];
const F: ReportedJobStatus[] = ['failed', 'failed'];
const FLAKY: ReportedJobStatus[] = ['failed', 'passed'];

describe('the engine with a history', () => {
  it('classes each toy against the nights before, in the outputs, the summary and the results', async () => {
    const store = jobStore();
    const first = await night(store, 'n1', { a: P, b: P, c: P });
    expect(first.result.outputs).toMatchObject({ 'new-failures': 0, 'still-failing': 0, fixed: 0 });
    expect(first.summary).toContain('No earlier run on main to compare with');

    const second = await night(store, 'n2', { a: P, b: F, c: P });
    expect(second.result.outputs).toMatchObject({ 'new-failures': 1, 'still-failing': 0, fixed: 0 });
    expect(second.summary).toContain('Against 1 earlier run(s) on main: 1 new failure(s)');
    expect(second.summary).toContain(
      '**New failures (1)**\n\n- **b**: failed in 0 of 1 compared run(s); last passed in [run \\#n1](https://example.com/runs/n1)',
    );
    expect(second.result.failure?.kind).toBe('tests-failed');

    const third = await night(store, 'n3', { a: P, b: F, c: FLAKY });
    expect(third.result.outputs).toMatchObject({ 'new-failures': 0, 'still-failing': 1, fixed: 0, flaky: 1 });
    expect(third.summary).toContain('<details><summary><b>Still failing (1)</b></summary>');

    const fourth = await night(store, 'n4', { a: P, b: P, c: P });
    expect(fourth.result.outputs).toMatchObject({ 'new-failures': 0, 'still-failing': 0, fixed: 1 });
    expect(fourth.result.failure).toBeUndefined();
    expect(fourth.deps.logger.lines('info')).toContain('Compared with 3 earlier run(s) in 3 request(s).');

    // Each night kept its record on its first job, naming the night before.
    const anchors = [...store.jobs.values()].filter((job) => recordOf(job['custom-data']) !== undefined);
    expect(anchors.map((job) => recordOf(job['custom-data'])?.run.number)).toEqual(['n1', 'n2', 'n3', 'n4']);
    expect(recordOf(anchors[3]?.['custom-data'])?.previous).toBe(anchors[2]?.id);
  });

  it('compares a pull request with the default branch, and keeps no record of it', async () => {
    const store = jobStore();
    await night(store, 'n1', { a: P, b: F });
    const pr = { branch: 'feature', pullRequest: { number: 7 } };
    const first = await night(store, 'p1', { a: F, b: F }, { ci: pr });
    expect(first.result.outputs).toMatchObject({ 'new-failures': 1, 'still-failing': 1 });
    // A second run of the pull request compares with main again, not with the first.
    const again = await night(store, 'p2', { a: F, b: F }, { ci: pr });
    expect(again.result.outputs).toMatchObject({ 'new-failures': 1, 'still-failing': 1 });
    const records = [...store.jobs.values()].flatMap((job) => recordOf(job['custom-data']) ?? []);
    expect(records.map((record) => record.run.number)).toEqual(['n1']);
  });

  it('fails with `fail-on: new` only for new failures, and never for quarantined toys', async () => {
    const store = jobStore();
    await night(store, 'n1', { a: F, b: P, c: P });
    const junitFile = path.join(folder, 'quarantine.xml');
    const still = await night(
      store,
      'n2',
      { a: F, b: P, c: F },
      { failOn: 'new', quarantine: ['c'], junitFile },
    );
    // The quarantined toy is skipped with its reason in the JUnit report; the others as they ran.
    const junit = await readFile(junitFile, 'utf8');
    expect(junit).toMatch(
      /<testcase name="c"[^>]*>\s*<skipped message="quarantined \(failed\): tracked in #12"\/>/,
    );
    expect(junit).toMatch(/<testcase name="a"/);
    expect(junit).not.toMatch(/<testcase name="a"[^>]*>\s*<skipped/);
    expect(still.result.outputs).toMatchObject({ 'new-failures': 0, 'still-failing': 1, quarantined: 1 });
    expect(still.result.failure).toBeUndefined();
    // What does not fail the step is annotated as a warning, not an error.
    expect(still.result.annotations.filter((note) => note.level === 'error')).toEqual([]);
    expect(still.result.annotations.map((note) => note.title)).toEqual(
      expect.arrayContaining(['Failed job: a', 'Failed job: c']),
    );
    expect(still.summary).toContain('- **c**: failed; quarantined: tracked in \\#12');
    const fresh = await night(store, 'n3', { a: F, b: F, c: F }, { failOn: 'new', quarantine: ['c'] });
    expect(fresh.result.outputs).toMatchObject({ 'new-failures': 1 });
    expect(fresh.result.failure?.kind).toBe('tests-failed');
    expect(
      fresh.result.annotations.filter((note) => note.level === 'error').map((note) => note.title),
    ).toEqual(['Failed job: b']);
  });

  it("never counts another series' runs, and says why nothing was compared without a default branch", async () => {
    const store = jobStore();
    await night(
      store,
      'n1',
      { a: F },
      { series: 'github:https://github.com/acme/other/.github/workflows/nightly.yml' },
    );
    const mine = await night(store, 'n2', { a: F });
    expect(mine.result.outputs).toMatchObject({ 'new-failures': 1, 'still-failing': 0 });
    const unknown = await night(store, 'n3', { a: F }, { ci: { defaultBranch: undefined } });
    expect(unknown.summary).toContain(
      'the CI system does not say the default branch: set the input default-branch',
    );
  });
});
