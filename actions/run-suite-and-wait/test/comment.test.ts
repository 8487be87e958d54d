/** The pull-request comment of a run: counts, failed cases with links, flaky cases, names escaped. */
import { clearSecrets, InputReader, inputSource, redactSecrets } from '@sauce-actions/action-kit';
import { tallyJobs, type ReportedJob } from '@sauce-actions/action-kit/test-run/job-report';
import { describe, expect, it } from 'vitest';
import { commentBody, commentIdentity, suiteComment } from '../src/comment.ts';
import { readInputs } from '../src/inputs.ts';
import type { SuiteReport } from '../src/report.ts';

const url = (id: string) => `https://app.saucelabs.com/tests/${id}`;
const job = (
  id: string,
  name: string,
  status: ReportedJob['status'],
  extra: Partial<ReportedJob> = {},
): ReportedJob => ({
  id,
  name,
  platform: 'chrome 126, Windows 11',
  status,
  url: url(id),
  ...extra,
});

function report(jobs: ReportedJob[], extra: Partial<SuiteReport> = {}): SuiteReport {
  return {
    suite: { id: '3f6c2a9e-8b1d-4c7e-9f20-5a4b3c2d1e0f', name: 'Checkout' },
    planned: jobs.length,
    buildName: 'Checkout #12.1',
    builds: ['Checkout #12.1'],
    jobs,
    seen: [],
    complete: true,
    ...extra,
  };
}

const body = (jobs: ReportedJob[], extra: Partial<SuiteReport> = {}) =>
  commentBody(report(jobs, extra), tallyJobs(jobs));

describe('the comment body', () => {
  it('counts the jobs, lists the failed cases with links to their jobs and the flaky ones with every attempt', () => {
    const text = body([
      job('a1', 'Pays by card', 'passed'),
      job('b2', 'Refunds', 'failed', { detail: 'element #refund not found' }),
      job('c3', 'Ships', 'passed', {
        attempts: [{ id: 'c0', url: url('c0'), status: 'failed' }],
      }),
      job('d4', 'Cancels', 'error', {
        detail: 'Internal Server Error',
        attempts: [{ id: 'd0', url: url('d0'), status: 'failed' }],
      }),
    ]);
    expect(text).toBe(
      [
        '### ❌ Sauce Labs: Suite Checkout: 2 of 4 jobs failed',
        '| Total | Passed | Failed | Flaky |\n| ---: | ---: | ---: | ---: |\n| 4 | 2 | 2 | 1 |',
        'Build `Checkout #12.1`',
        '#### Failed (2)',
        [
          '| Case | Platform | Why | Job |',
          '| --- | --- | --- | --- |',
          '| Refunds | chrome 126, Windows 11 | element \\#refund not found | [b2](https://app.saucelabs.com/tests/b2) |',
          '| Cancels | chrome 126, Windows 11 | Internal Server Error | [1](https://app.saucelabs.com/tests/d0) failed, [2](https://app.saucelabs.com/tests/d4) error |',
        ].join('\n'),
        '#### Flaky (1): passed on a retry',
        [
          '| Case | Platform | Attempts |',
          '| --- | --- | --- |',
          '| Ships | chrome 126, Windows 11 | [1](https://app.saucelabs.com/tests/c0) failed, [2](https://app.saucelabs.com/tests/c3) passed |',
        ].join('\n'),
      ].join('\n\n'),
    );
  });

  it('escapes case names so that a `|`, a `<` or a backtick cannot break the table or the page', () => {
    const text = body([
      job('e5', 'Total | 100 <b>bold</b>', 'failed', { detail: 'expected `1` got `2`' }),
      job('f6', '`sudo` @admins', 'passed', { attempts: [{ id: 'f0', url: url('f0'), status: 'error' }] }),
    ]);
    expect(text).toContain(
      '| Total \\| 100 &lt;b&gt;bold&lt;/b&gt; | chrome 126, Windows 11 | expected \\`1\\` got \\`2\\` | [e5](https://app.saucelabs.com/tests/e5) |',
    );
    expect(text).toContain('| \\`sudo\\` \\@admins | chrome 126, Windows 11 | [1](');
    // Every row of the failed table has exactly the table's four cells.
    const rows = text.split('\n').filter((line) => line.startsWith('| Total \\|'));
    expect(rows[0]!.replace(/\\\|/g, '').split('|')).toHaveLength(6);
  });

  it('says so when every job passed, with the shard and no failed or flaky tables', () => {
    const jobs = [job('a1', 'Pays', 'passed'), job('b2', 'Ships', 'passed')];
    const text = body(jobs, { shard: { index: 2, total: 3, cases: 2, of: 6 } });
    expect(text.split('\n')[0]).toBe('### ✅ Sauce Labs: Suite Checkout, shard 2/3: 2 of 2 jobs passed');
    expect(text).toContain('| 2 | 2 | 0 | 0 |');
    expect(text).not.toContain('Failed (');
    expect(text).not.toContain('Flaky (');
  });

  it('counts jobs that did not finish, and gives the reason the wait ended', () => {
    const text = body([job('a1', 'Pays', 'passed'), job('b2', 'Ships', 'stopped')], {
      complete: false,
      ended: 'timeout',
      note: 'The wait timed out before every job finished.',
    });
    expect(text.split('\n')[0]).toBe('### ⚠️ Sauce Labs: Suite Checkout: 1 of 2 jobs finished');
    expect(text).toContain('| Total | Passed | Failed | Flaky | Did not finish |');
    expect(text).toContain('| 2 | 1 | 0 | 0 | 1 |');
    expect(text).toContain('The wait timed out before every job finished.');
  });

  it('lists 50 failed cases at most and says how many more the summary has', () => {
    const jobs = Array.from({ length: 60 }, (_, index) => job(`j${index}`, `Case ${index}`, 'failed'));
    const text = body(jobs);
    expect(text.match(/^\| Case \d+ \|/gm)).toHaveLength(50);
    expect(text).toContain('10 more in the step summary.');
  });

  it('says when nothing was to run', () => {
    expect(body([], { planned: 0, buildName: '' }).split('\n')[0]).toBe(
      '### ✅ Sauce Labs: Suite Checkout: nothing to run',
    );
  });
});

describe('the comment identity', () => {
  it('is the suite, the shard and the targets as given, the same on every run', () => {
    expect(commentIdentity({ suite: 'Checkout', shard: { index: 1, total: 2 } })).toEqual({
      suite: 'Checkout',
      shard: '1/2',
    });
    const targets = [{ capabilities: { browserName: 'firefox' } }];
    expect(commentIdentity({ suite: 'Checkout', targets })).toEqual({
      suite: 'Checkout',
      targets: JSON.stringify(targets),
    });
  });

  it('names the test cases by id, in any order', () => {
    const a = commentIdentity({ testCases: [{ id: 'b'.repeat(24) }, { id: 'a'.repeat(24) }] });
    const b = commentIdentity({ testCases: [{ id: 'a'.repeat(24) }, { id: 'b'.repeat(24) }] });
    expect(a).toEqual(b);
    expect(a).toEqual({ cases: `${'a'.repeat(24)},${'b'.repeat(24)}` });
  });

  it('is written by run-suite-and-wait', () => {
    const jobs = [job('a1', 'Pays', 'passed')];
    expect(suiteComment({ suite: 'Checkout' }, report(jobs), tallyJobs(jobs))).toMatchObject({
      action: 'run-suite-and-wait',
      identity: { suite: 'Checkout' },
    });
  });
});

describe('the pr-comment inputs', () => {
  it('reads `pr-comment` (off by default) and masks `github-token` as it reads it', async () => {
    clearSecrets();
    const read = (values: Record<string, string>) =>
      readInputs(
        new InputReader(inputSource({ username: 'demo', 'access-key': 'key', suite: 'Smoke', ...values })),
      );
    expect(await read({})).toMatchObject({ prComment: false });
    expect(await read({ 'pr-comment': 'true', 'github-token': 'ghs_suiteToken42' })).toMatchObject({
      prComment: true,
      githubToken: 'ghs_suiteToken42',
    });
    expect(redactSecrets('x ghs_suiteToken42 y')).toBe('x *** y');
  });
});
