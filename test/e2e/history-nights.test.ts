/**
 * End to end: four nights of the Regression suite on `main` against the emulator, with outcomes
 * scripted per night, each compared with the nights before as the service recorded them. Every
 * case's class each night, in the outputs, the summary, the pull-request comment, the check run and
 * the results file; the requests night 4 took to read its history; then a pull request's run,
 * twice, compared with `main` and never with itself, and keeping no record of its own.
 */
import { describe, expect, it } from 'vitest';
import {
  classesOf,
  historyLab,
  runUrl,
  type JournalEntry,
  type Outcome,
  type Step,
} from './support/history.ts';

const lab = historyLab();

/** `Case 07` fails its first run in a build: with a retry it is flaky every night. */
const RETRIES = 1;
const PUBLISHING = { retries: String(RETRIES), 'pr-comment': 'true', 'check-name': 'Regression' };

const CASES = Array.from({ length: 12 }, (_, n) => `Case ${String(n + 1).padStart(2, '0')}`);

/** Every case passed, but those named. */
function classes(named: Record<string, string>): Record<string, string> {
  return Object.fromEntries(CASES.map((name) => [name, named[name] ?? 'passed']));
}

/** How Case 03 and Case 05 end on each night. */
const NIGHTS: Record<string, Outcome>[] = [
  { 'Case 03': 'passed', 'Case 05': 'passed' },
  { 'Case 03': 'failed', 'Case 05': 'failed' },
  { 'Case 03': 'failed', 'Case 05': 'passed' },
  { 'Case 03': 'passed', 'Case 05': 'failed' },
];

async function night(number: number): Promise<Step> {
  await lab.script(NIGHTS[number - 1]!, RETRIES);
  return lab.suiteRun({ number }, PUBLISHING);
}

/** The jobs that hold a run's record, by the run number each record names. */
function recordedRuns(): Map<string, string> {
  const runs = new Map<string, string>();
  for (const job of lab.emulator().context.automation.jobs.all()) {
    const record = (job.customData as { 'sauce-actions'?: { run: { number: string } } } | null)?.[
      'sauce-actions'
    ];
    if (record !== undefined) runs.set(record.run.number, job.id);
  }
  return runs;
}

/** The search of the account's jobs for the newest earlier run: back a whole window, not this run's. */
function isHistorySearch(entry: JournalEntry & { query?: Record<string, unknown> }): boolean {
  const from = Number(entry.query?.from);
  return (
    entry.method === 'GET' &&
    entry.path === '/rest/v1/demo/jobs' &&
    Number.isFinite(from) &&
    from < Date.now() / 1000 - 86_400
  );
}

describe('four nights of Regression on main', () => {
  const ran: Step[] = [];

  it('night 1: nothing to compare with, Case 07 flaky, every other case passed', async () => {
    const first = await night(1);
    ran.push(first);
    expect(classesOf(first.results)).toEqual(classes({ 'Case 07': 'flaky' }));
    expect(first.result.outputs).toMatchObject({
      'new-failures': 0,
      'still-failing': 0,
      fixed: 0,
      quarantined: 0,
      flaky: 1,
    });
    expect(first.result.failure).toBeUndefined();
    expect(first.results.history?.compared).toEqual([]);
    expect(first.summary).toContain(
      'No earlier run on main to compare with: 0 new failure(s), 0 still failing, 0 fixed, 1 flaky, 0 quarantined.',
    );
    expect(first.result.check).toMatchObject({ name: 'Regression', conclusion: 'success' });
    expect([...recordedRuns().keys()]).toEqual(['1']);
  });

  it('night 2: Case 03 and Case 05 are new failures, each with the run it last passed in', async () => {
    const second = await night(2);
    ran.push(second);
    expect(classesOf(second.results)).toEqual(
      classes({ 'Case 03': 'new', 'Case 05': 'new', 'Case 07': 'flaky' }),
    );
    expect(second.result.outputs).toMatchObject({
      'new-failures': 2,
      'still-failing': 0,
      fixed: 0,
      flaky: 1,
    });
    expect(second.result.failure?.kind).toBe('tests-failed');
    const line =
      'Against 1 earlier run(s) on main: 2 new failure(s), 0 still failing, 0 fixed, 1 flaky, 0 quarantined.';
    expect(second.summary).toContain(`<p>${line}</p><h4>New failures (2)</h4>`);
    expect(second.summary).toContain(
      `<li><strong>Case 03</strong>: failed in 0 of 1 compared run(s); last passed in <a href="${runUrl(1)}">run #1</a></li>`,
    );
    const markdown = `**New failures (2)**\n\n- **Case 03**: failed in 0 of 1 compared run(s); last passed in [run \\#1](${runUrl(1)})\n`;
    const comment = second.result.comment?.body ?? '';
    expect(comment).toContain(line);
    expect(comment).toContain(markdown);
    // What changed leads: right after the comment's heading.
    expect(comment.split('\n\n')[1]).toBe(line);
    expect(second.result.check).toMatchObject({ name: 'Regression', conclusion: 'failure' });
    expect(second.result.check?.summary).toContain(markdown);
    // Night 1 as its record names it: its run, and the build its first job ran in.
    expect(second.results.history?.compared.map((run) => [run.number, run.url, run.builds])).toEqual([
      ['1', runUrl(1), [ran[0]!.result.outputs['build-name']]],
    ]);
  });

  it('night 3: Case 03 still failing (folded), Case 05 fixed', async () => {
    const third = await night(3);
    ran.push(third);
    expect(classesOf(third.results)).toEqual(
      classes({ 'Case 03': 'still-failing', 'Case 05': 'fixed', 'Case 07': 'flaky' }),
    );
    expect(third.result.outputs).toMatchObject({ 'new-failures': 0, 'still-failing': 1, fixed: 1, flaky: 1 });
    expect(third.result.failure?.kind).toBe('tests-failed');
    expect(third.summary).toContain(
      'Against 2 earlier run(s) on main: 0 new failure(s), 1 still failing, 1 fixed, 1 flaky, 0 quarantined.',
    );
    expect(third.summary).toContain(
      '<h4>Fixed (1)</h4>\n<ul>\n<li><strong>Case 05</strong>: failed in 1 of 2',
    );
    expect(third.summary).toContain(
      '<details><summary><strong>Still failing (1)</strong></summary>\n<ul>\n<li><strong>Case 03</strong>: failed in 1 of 2 compared run(s)</li>',
    );
    const comment = third.result.comment?.body ?? '';
    expect(comment).toContain('**Fixed (1)**\n\n- **Case 05**: failed in 1 of 2 compared run(s)');
    expect(comment).toContain(
      '<details><summary><b>Still failing (1)</b></summary>\n\n- **Case 03**: failed in 1 of 2 compared run(s)\n',
    );
    // Fixed before flaky, flaky before still failing.
    expect(comment.indexOf('**Fixed (1)**')).toBeLessThan(comment.indexOf('**Flaky (1)**'));
    expect(comment.indexOf('**Flaky (1)**')).toBeLessThan(comment.indexOf('Still failing (1)'));
    expect(third.result.check?.summary).toContain('**Fixed (1)**');
  });

  it('night 4: Case 03 fixed, Case 05 flaky as it flips, in one search and a request per earlier run', async () => {
    const anchors = recordedRuns();
    const fourth = await night(4);
    ran.push(fourth);
    expect(classesOf(fourth.results)).toEqual(
      classes({ 'Case 03': 'fixed', 'Case 05': 'flaky', 'Case 07': 'flaky' }),
    );
    // `flaky` counts the jobs that passed on a retry, as before; the classes count Case 05 too.
    expect(fourth.result.outputs).toMatchObject({
      'new-failures': 0,
      'still-failing': 0,
      fixed: 1,
      flaky: 1,
    });
    expect(fourth.results.history?.counts).toMatchObject({ new: 0, 'still-failing': 0, fixed: 1, flaky: 2 });
    expect(fourth.result.failure?.kind).toBe('tests-failed');
    expect(fourth.summary).toContain(
      'Against 3 earlier run(s) on main: 0 new failure(s), 0 still failing, 1 fixed, 2 flaky, 0 quarantined.',
    );
    expect(fourth.summary).toContain('<li><strong>Case 05</strong>: failed in 1 of 3 compared run(s)</li>');
    expect(fourth.result.comment?.body).toContain('**Flaky (2)**');
    expect(fourth.result.check?.summary).toContain('**Fixed (1)**\n\n- **Case 03**: failed in 2 of 3');
    expect(fourth.results.history?.compared.map((run) => [run.number, run.anchor])).toEqual([
      ['3', anchors.get('3')],
      ['2', anchors.get('2')],
      ['1', anchors.get('1')],
    ]);

    // Reading the history: one search of the account's jobs, then night 3's record names night
    // 2's anchor, and night 2's names night 1's. Then this night's record: its anchor read, written.
    const { requests } = fourth;
    const search = requests.findIndex(isHistorySearch);
    expect(search).toBeGreaterThan(-1);
    const own = recordedRuns().get('4');
    const history = requests.slice(search).map((entry) => `${entry.method} ${entry.path}`);
    expect(history).toEqual([
      'GET /rest/v1/demo/jobs',
      `GET /rest/v1/demo/jobs/${anchors.get('2')}`,
      `GET /rest/v1/demo/jobs/${anchors.get('1')}`,
      // Tonight's record goes on a job as the run's own listing showed it: no read before the write.
      `PUT /rest/v1/demo/jobs/${own}`,
    ]);
    expect(fourth.deps.logger.lines('info')).toContain('Compared with 3 earlier run(s) in 3 request(s).');
  });

  it('a pull request compares with main, not with its own earlier run, and keeps no record', async () => {
    expect(ran).toHaveLength(4);
    // Case 09, which passed every night, fails in the pull request; Case 05 passes.
    const script = { 'Case 09': 'failed', 'Case 05': 'passed' } as const;
    const pr = [];
    for (const number of [5, 6]) {
      await lab.script(script, RETRIES);
      pr.push(await lab.suiteRun({ number, pullRequest: 12 }, PUBLISHING));
    }
    for (const run of pr) {
      // Compared with its first run, Case 09 would be still failing; Case 05 flips over the nights.
      expect(classesOf(run.results)).toEqual(
        classes({ 'Case 09': 'new', 'Case 05': 'flaky', 'Case 07': 'flaky' }),
      );
      expect(run.result.outputs).toMatchObject({ 'new-failures': 1, 'still-failing': 0, fixed: 0 });
      expect(run.results.history?.compared.map((earlier) => earlier.number)).toEqual(['4', '3', '2', '1']);
      expect(run.result.comment?.body).toContain(
        `- **Case 09**: failed in 0 of 4 compared run(s); last passed in [run \\#4](${runUrl(4)})`,
      );
    }
    expect([...recordedRuns().keys()].sort()).toEqual(['1', '2', '3', '4']);
    // Nor is any job of the pull request's builds tagged for the history.
    const prBuilds = pr.map((run) => run.result.outputs['build-name'] ?? '');
    const prJobs = lab
      .emulator()
      .context.automation.jobs.all()
      .filter((job) => prBuilds.some((build) => job.build?.startsWith(build)));
    expect(prJobs.length).toBeGreaterThanOrEqual(2 * 12);
    const tagged = prJobs.filter((job) => job.tags.some((tag) => tag.startsWith('sauce-actions-history:')));
    expect(tagged).toEqual([]);
  });
});
