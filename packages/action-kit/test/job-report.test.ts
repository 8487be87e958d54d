import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as core from '@actions/core';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReportedJob } from '../src/job-report.ts';
import {
  annotateFailedJobs,
  formatJobDuration,
  renderJobsSummary,
  renderJobsTable,
  sortJobsForReport,
  tallyJobs,
  writeJobsSummary,
  writeResultsFile,
} from '../src/job-report.ts';
import { clearSecrets, registerSecret } from '../src/secrets.ts';
import { SummaryBuilder } from '../src/summary.ts';
import { captureStdout } from './capture-stdout.ts';

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

// core.summary keeps the first summary file it sees, so every test uses the same one.
const dir = mkdtempSync(path.join(os.tmpdir(), 'report-'));
const summaryFile = path.join(dir, 'summary.md');
let stdout: string[];
beforeEach(() => {
  writeFileSync(summaryFile, '');
  stdout = captureStdout();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  clearSecrets();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  core.summary.emptyBuffer();
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

describe('writeJobsSummary', () => {
  it('writes totals and every job with its link, failures first, escaped and redacted', async () => {
    const file = summaryFile;
    vi.stubEnv('GITHUB_STEP_SUMMARY', file);
    registerSecret('s3cretkey');
    await writeJobsSummary(core.summary, {
      title: 'Suite <Smoke>',
      buildName: 'Smoke #3',
      jobs: [...jobs, job('g', 'failed', { name: 'leaks s3cretkey' })],
      note: 'Timed out.',
    });
    const html = readFileSync(file, 'utf8');
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

  it('writes through the kit builder too, after its own sections', async () => {
    const file = summaryFile;
    vi.stubEnv('GITHUB_STEP_SUMMARY', file);
    const builder = new SummaryBuilder().heading('Before');
    await writeJobsSummary(builder, { title: 'Jobs', jobs: [job('a', 'passed')] });
    const html = readFileSync(file, 'utf8');
    expect(html.indexOf('Before')).toBeLessThan(html.indexOf('Jobs'));
    expect(html).toContain('tests/a');
  });

  it('caps the rows and says how many more there are', () => {
    const many = Array.from({ length: 5 }, (_, i) => job(String(i), 'passed'));
    const html = renderJobsSummary({ title: 't', jobs: many, maxRows: 2 });
    expect(html.match(/<tr>/g)).toHaveLength(3);
    expect(html).toContain('3 more jobs are in the results file.');
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

  it('without a summary file, writes nothing and leaves no buffer behind', async () => {
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    await writeJobsSummary(core.summary, { title: 't', jobs });
    expect(core.summary.isEmptyBuffer()).toBe(true);
  });
});

describe('annotateFailedJobs', () => {
  it('adds one error annotation per failed job, with its link', () => {
    annotateFailedJobs(jobs);
    const lines = stdout
      .join('')
      .split(/\r?\n/)
      .filter((line) => line.startsWith('::error'));
    expect(lines).toEqual([
      '::error title=Failed job%3A case b::Job "case b" (chrome 126, Windows 11) failed: assertion failed. https://app.example/tests/b',
      '::error title=Failed job%3A case d::Job "case d" (chrome 126, Windows 11) ended in error. https://app.example/tests/d',
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
