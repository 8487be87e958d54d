import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { clearSecrets, registerSecret } from '../../src/step/secrets.ts';
import { notRunJob } from '../../src/test-run/gather.ts';
import type { ReportedJob } from '../../src/test-run/job-report.ts';
import {
  failedJobAnnotations,
  flakyJobAnnotations,
  formatJobDuration,
  isFlakyJob,
  listSome,
  renderJobsSummary,
  renderJobsTable,
  retryNote,
  sortJobsForReport,
  tallyJobs,
  writeResultsFile,
} from '../../src/test-run/job-report.ts';

const job = (id: string, status: ReportedJob['status'], extra: Partial<ReportedJob> = {}): ReportedJob => ({
  id,
  name: `case ${id}`,
  platform: 'chrome 126, Windows 11',
  status,
  url: `https://app.example/tests/${id}`,
  ...extra,
});

const jobs = [
  job('a', 'passed', { durationSeconds: 65 }),
  job('b', 'failed', { detail: 'assertion failed', durationSeconds: 3 }),
  job('c', 'running'),
  job('d', 'error'),
  job('e', 'queued'),
  job('f', 'stopped'),
];

const dir = mkdtempSync(path.join(os.tmpdir(), 'report-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  clearSecrets();
});

describe('retryNote', () => {
  it('tells flaky, failed, passed again (a case rerun on all its platforms) and unfinished apart', () => {
    const failed = { status: 'failed' };
    const passed = { status: 'passed' };
    const note = retryNote(
      [
        { status: 'passed', attempts: [failed] },
        { status: 'failed', attempts: [failed] },
        { status: 'passed', attempts: [passed] },
        { status: 'stopped', attempts: [failed] },
        { status: 'passed' },
      ],
      { what: 'jobs', retries: 2, attemptsInAll: 3 },
    );
    expect(note).toBe(
      'Failed jobs were run again (`retries: 2`, 3 attempts in all): of the 4 run again, 1 passed on a retry (flaky), 1 failed every attempt, 1 passed again, 1 did not finish.',
    );
  });
});

describe('tallyJobs', () => {
  it('counts each status, errors as failures', () => {
    expect(tallyJobs(jobs)).toEqual({
      total: 6,
      passed: 1,
      failed: 2,
      queued: 1,
      running: 1,
      stopped: 1,
      finished: 3,
      flaky: 0,
    });
    expect(tallyJobs([])).toMatchObject({ total: 0, passed: 0, failed: 0 });
  });
});

describe('sortJobsForReport', () => {
  it('puts failures first, then unfinished jobs, then passed, stable otherwise', () => {
    expect(sortJobsForReport(jobs).map((j) => j.id)).toEqual(['b', 'd', 'f', 'c', 'e', 'a']);
    expect(sortJobsForReport([job('x', 'passed'), job('y', 'passed')]).map((j) => j.id)).toEqual(['x', 'y']);
  });
});

describe('formatJobDuration', () => {
  it('writes seconds, minutes and hours', () => {
    expect(formatJobDuration(undefined)).toBe('');
    expect(formatJobDuration(42.4)).toBe('42s');
    expect(formatJobDuration(185)).toBe('3m 05s');
    expect(formatJobDuration(3720)).toBe('1h 02m');
  });
});

describe('renderJobsSummary', () => {
  it('shows totals and every job with its link, failures first, escaped and redacted', () => {
    registerSecret('s3cretkey');
    const html = renderJobsSummary({
      title: 'Suite <Smoke>',
      buildName: 'Smoke #3',
      jobs: [...jobs, job('g', 'failed', { name: 'leaks s3cretkey' })],
      note: 'Timed out.',
    });
    expect(html).toContain('<h2>Suite &lt;Smoke&gt;</h2>');
    expect(html).toContain('<code>Smoke #3</code>');
    expect(html).toContain('7 jobs, 1 passed, 3 failed, 1 running, 1 queued, 1 stopped');
    expect(html).toContain('<p>Timed out.</p>');
    expect(html).toContain('<a href="https://app.example/tests/b">b</a>');
    expect(html).toContain('assertion failed');
    expect(html).toContain('1m 05s');
    expect(html).not.toContain('s3cretkey');
    expect(html.indexOf('tests/b"')).toBeLessThan(html.indexOf('tests/a"'));
  });

  it('caps the rows and says how many more there are', () => {
    const many = Array.from({ length: 5 }, (_, i) => job(String(i), 'passed'));
    const html = renderJobsSummary({ title: 't', jobs: many, maxRows: 2 });
    expect(html.match(/<tr>/g)).toHaveLength(3);
    expect(html).toContain(
      '<p>Jobs not listed here: 3; every job is in the results file (the output results-file).</p>',
    );
  });

  it('adds extra columns between status and duration, and can leave out the platform', () => {
    const html = renderJobsTable([job('a', 'failed'), job('b', 'passed')], {
      showPlatform: false,
      extraColumns: [{ header: 'Tests', cell: (j) => (j.id === 'a' ? '3 of 4' : '4 of 4') }],
    });
    expect(html).toContain(
      '<tr><th>Job</th><th>Status</th><th>Tests</th><th>Duration</th><th>Link</th></tr>',
    );
    expect(html.indexOf('3 of 4')).toBeLessThan(html.indexOf('4 of 4'));
    expect(html).not.toContain('<th>Platform</th>');
  });
});

describe('failedJobAnnotations', () => {
  it('shortens a long name as the summary does, in the title and the message', () => {
    const long: ReportedJob = {
      id: 'j1',
      name: `Long ${'x'.repeat(5000)} end`,
      platform: 'chrome',
      status: 'failed',
      url: 'https://app.saucelabs.com/tests/j1',
    };
    const [note] = failedJobAnnotations([long]);
    expect(note?.title?.length).toBeLessThan(220);
    expect(note?.title).toMatch(/^Failed job: Long x+…x+ end$/);
    expect(note?.message.length).toBeLessThan(300);
    expect(note?.message).toContain('https://app.saucelabs.com/tests/j1');
  });

  it('gives one error annotation per failed job, with its link', () => {
    expect(failedJobAnnotations(jobs)).toEqual([
      {
        level: 'error',
        title: 'Failed job: case b',
        message:
          'Job "case b" (chrome 126, Windows 11) failed: assertion failed. https://app.example/tests/b',
        group: { one: 'failed job', other: 'failed jobs' },
      },
      {
        level: 'error',
        title: 'Failed job: case d',
        message: 'Job "case d" (chrome 126, Windows 11) ended in error. https://app.example/tests/d',
        group: { one: 'failed job', other: 'failed jobs' },
      },
    ]);
  });
});

describe('failedJobAnnotations of items that no step ran', () => {
  it('says the item was not run, with neither an empty platform nor a link', () => {
    const notRun = notRunJob({ item: 'c1', name: 'Case 11' });
    expect(failedJobAnnotations([notRun])).toEqual([
      {
        level: 'error',
        title: 'Not run: Case 11',
        message:
          '"Case 11" was not run: no shard of this run ran it (one that failed before starting, or was cancelled).',
        group: { one: 'failed job', other: 'failed jobs' },
      },
    ]);
  });
});

describe('failedJobAnnotations as warnings', () => {
  it('gives warnings when failed jobs do not fail the step', () => {
    const annotations = failedJobAnnotations(jobs, 'warning');
    expect(annotations.map((a) => a.level)).toEqual(['warning', 'warning']);
    expect(annotations.map((a) => a.title)).toEqual(['Failed job: case b', 'Failed job: case d']);
  });
});

describe('jobs run more than once', () => {
  const attempt = (id: string, status: ReportedJob['status']) => ({
    id,
    status,
    url: `https://app.example/tests/${id}`,
  });
  const flaky = job('p2', 'passed', { name: 'Case 07', attempts: [attempt('p1', 'failed')] });
  const stubborn = job('q3', 'failed', {
    name: 'Checkout',
    detail: 'button missing',
    attempts: [attempt('q1', 'failed'), attempt('q2', 'error')],
  });
  const steady = job('r1', 'passed', { name: 'Login' });

  it('counts a job that passed after a failed attempt as passed and flaky', () => {
    expect(isFlakyJob(flaky)).toBe(true);
    expect(isFlakyJob(stubborn)).toBe(false);
    expect(isFlakyJob(job('s2', 'passed', { attempts: [attempt('s1', 'passed')] }))).toBe(false);
    expect(tallyJobs([flaky, stubborn, steady])).toMatchObject({ total: 3, passed: 2, failed: 1, flaky: 1 });
  });

  it('shows flaky jobs after failures and before passed ones, marked, with a link to every attempt', () => {
    expect(sortJobsForReport([steady, flaky, stubborn]).map((j) => j.id)).toEqual(['q3', 'p2', 'r1']);
    const html = renderJobsSummary({ title: 't', jobs: [steady, flaky, stubborn] });
    expect(html).toContain('3 jobs, 2 passed, 1 failed, 1 flaky');
    expect(html).toContain('Case 07<br><sub>flaky: failed on attempt 1, passed on attempt 2</sub>');
    expect(html).toContain('✅ passed (flaky)');
    expect(html).toContain(
      '<td>1: <a href="https://app.example/tests/p1">p1</a> ❌<br>2: <a href="https://app.example/tests/p2">p2</a> ✅</td>',
    );
    expect(html).toContain('Checkout<br><sub>failed all 3 attempts; button missing</sub>');
    expect(html).toContain('<td><a href="https://app.example/tests/r1">r1</a></td>');
    // Passed, then failed: each attempt's outcome in turn.
    const relapsed = job('t2', 'failed', { name: 'Search', attempts: [attempt('t1', 'passed')] });
    expect(renderJobsTable([relapsed])).toContain(
      'Search<br><sub>passed on attempt 1, failed on attempt 2</sub>',
    );
  });

  it('warns once per flaky job, with every attempt, and fails only the job that failed every attempt', () => {
    expect(flakyJobAnnotations([steady, flaky, stubborn])).toEqual([
      {
        level: 'warning',
        title: 'Flaky job: Case 07',
        message:
          'Job "Case 07" (chrome 126, Windows 11) is flaky: it failed on attempt 1, passed on attempt 2. attempt 1 failed: https://app.example/tests/p1; attempt 2 passed: https://app.example/tests/p2',
        group: { one: 'flaky job', other: 'flaky jobs' },
      },
    ]);
    expect(failedJobAnnotations([steady, flaky, stubborn]).map((a) => a.title)).toEqual([
      'Failed job: Checkout',
    ]);
  });
});

describe('writeResultsFile', () => {
  it('writes redacted JSON, creating the folder', async () => {
    registerSecret('s3cretkey');
    const file = path.join(dir, 'out', 'results.json');
    await writeResultsFile(file, { jobs: [job('a', 'passed', { detail: 'key s3cretkey' })] });
    const data = JSON.parse(readFileSync(file, 'utf8')) as { jobs: ReportedJob[] };
    expect(data.jobs[0]).toMatchObject({ id: 'a', status: 'passed', detail: 'key ***' });
  });
});

describe('listSome', () => {
  it('names a few items, each shortened, and counts the rest', () => {
    expect(listSome([])).toBe('');
    expect(listSome(['a', 'b'])).toBe('a, b');
    const names = Array.from({ length: 1000 }, (_, n) => `Case ${n + 1}`);
    expect(listSome(names)).toBe('Case 1, Case 2, Case 3, Case 4, Case 5 and 995 more');
    expect(listSome(names, 2)).toBe('Case 1, Case 2 and 998 more');
    expect(Array.from(listSome(['x'.repeat(10_000)]))).toHaveLength(200);
  });
});
