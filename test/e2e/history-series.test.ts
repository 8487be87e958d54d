/**
 * End to end: whose runs a history holds. Two repositories on one account, whose nightly
 * workflows have the same run numbers, never count each other's nights; nor does another workflow
 * of the same repository, nor a push to another branch. A nightly's history is one whether a
 * night runs in one step or in shards and a report, and an attempt run again compares with the
 * nights before, not with its own first try. And run-js-tests keeps a history of its platforms: a
 * platform failing two nights and passing the third is new, still failing, fixed.
 */
import { describe, expect, it } from 'vitest';
import { APP, classesOf, historyLab, OTHER, runUrl, type Repository, type Step } from './support/history.ts';

const lab = historyLab();

const RETRIES = { retries: '1' };

async function suiteNight(
  repository: Repository,
  number: number,
  case03: 'passed' | 'failed',
  branch?: string,
): Promise<Step> {
  await lab.script({ 'Case 03': case03 }, 1);
  return lab.suiteRun({ repository, number, ...(branch !== undefined ? { branch } : {}) }, RETRIES);
}

const compared = (step: Step) => step.results.history?.compared.map((run) => run.url);

describe('two repositories on one account, with the same run numbers', () => {
  it("never counts the other repository's nights, another workflow's, or another branch's", async () => {
    const WEEKLY: Repository = { slug: APP.slug, workflow: '.github/workflows/weekly.yml' };
    const other1 = await suiteNight(OTHER, 1, 'failed');
    expect(classesOf(other1.results)['Case 03']).toBe('new');

    const app1 = await suiteNight(APP, 1, 'passed');
    expect(compared(app1)).toEqual([]);
    expect(app1.summary).toContain('No earlier run on main to compare with');

    const other2 = await suiteNight(OTHER, 2, 'failed');
    expect(classesOf(other2.results)['Case 03']).toBe('still-failing');
    expect(compared(other2)).toEqual([runUrl(1, OTHER)]);

    // Runs that fail Case 03 between acme/app's nights, none of them its nightly on main.
    const weekly = await suiteNight(WEEKLY, 2, 'failed');
    expect(compared(weekly)).toEqual([]);
    const release = await suiteNight(APP, 3, 'failed', 'release');
    expect(release.results.history?.compared.map((run) => run.number)).toEqual(['1']);

    const app2 = await suiteNight(APP, 4, 'failed');
    expect(compared(app2)).toEqual([runUrl(1, APP)]);
    expect(classesOf(app2.results)['Case 03']).toBe('new');
    expect(app2.result.outputs).toMatchObject({ 'new-failures': 1, 'still-failing': 0 });
    expect(app2.summary).toContain(
      `<li><strong>Case 03</strong>: failed in 0 of 1 compared run(s); last passed in <a href="${runUrl(1, APP)}">run #1</a></li>`,
    );

    // And acme/other's third night counts its own two, not acme/app's.
    const other3 = await suiteNight(OTHER, 3, 'passed');
    expect(classesOf(other3.results)['Case 03']).toBe('fixed');
    expect(compared(other3)).toEqual([runUrl(2, OTHER), runUrl(1, OTHER)]);
  });
});

describe('one nightly, in one step or in shards and a report, and run again', () => {
  const SHARDED: Repository = { slug: APP.slug, workflow: '.github/workflows/sharded.yml' };
  const night = async (number: number, case03: 'passed' | 'failed', how: 'step' | 'shards', attempt = 1) => {
    await lab.script({ 'Case 03': case03 }, 1);
    const run = { repository: SHARDED, number, attempt };
    if (how === 'step') return lab.suiteRun(run, RETRIES);
    for (const shard of ['1/2', '2/2']) {
      const step = await lab.suiteRun(run, { ...RETRIES, shard });
      // A shard compares nothing and keeps nothing: the report does, once for the run.
      expect(step.results.history).toBeUndefined();
    }
    return lab.suiteRun(run, { operation: 'report' });
  };

  it('a report compares with the nights before and keeps its record; an attempt 2 compares as its first', async () => {
    expect(classesOf((await night(1, 'passed', 'step')).results)['Case 03']).toBe('passed');

    const second = await night(2, 'failed', 'shards');
    expect(classesOf(second.results)['Case 03']).toBe('new');
    expect(second.results.history?.compared.map((run) => run.number)).toEqual(['1']);

    // Attempt 2 of night 2: compared with night 1, as attempt 1 was, so Case 03 is still new.
    const again = await night(2, 'failed', 'step', 2);
    expect(classesOf(again.results)['Case 03']).toBe('new');
    expect(again.results.history?.compared.map((run) => run.number)).toEqual(['1']);
    expect(again.result.failure?.kind).toBe('tests-failed');

    const third = await night(3, 'failed', 'shards');
    expect(classesOf(third.results)['Case 03']).toBe('still-failing');
    expect(third.results.history?.compared.map((run) => [run.number, run.attempt])).toEqual([
      ['2', '2'],
      ['1', '1'],
    ]);
  });
});

describe('run-js-tests on platforms', () => {
  const FIREFOX = 'Linux / firefox / 126';
  const CHROME = 'Windows 11 / chrome / latest';
  const INPUTS = {
    url: 'https://example.com/tests.html',
    framework: 'custom',
    platforms: [CHROME, FIREFOX].join('\n'),
    'pr-comment': 'true',
  };

  /** A night on which Firefox's job fails or passes, as the page's run there ended. */
  async function jsNight(number: number, firefox: 'passed' | 'failed'): Promise<Step> {
    const jobs = lab.emulator().context.automation.jobs;
    const before = new Set(jobs.all().map((job) => job.id));
    return lab.jsRun(
      { number, repository: { slug: APP.slug, workflow: '.github/workflows/js.yml' } },
      INPUTS,
      {
        started: () => {
          if (firefox === 'passed') return;
          // The jobs exist once the start answered, before any of them finished.
          const started = jobs.all().filter((job) => !before.has(job.id) && job.browser === 'firefox');
          expect(started).toHaveLength(1);
          jobs.update(started[0]!.id, { passed: false });
        },
      },
    );
  }

  it('classes each platform against the nights before: new, still failing, fixed', async () => {
    const first = await jsNight(1, 'failed');
    expect(classesOf(first.results)).toEqual({ [CHROME]: 'passed', [FIREFOX]: 'new' });
    expect(first.result.outputs).toMatchObject({ 'new-failures': 1, passed: 1, failed: 1 });
    expect(first.result.failure?.kind).toBe('tests-failed');

    const second = await jsNight(2, 'failed');
    expect(classesOf(second.results)).toEqual({ [CHROME]: 'passed', [FIREFOX]: 'still-failing' });
    expect(second.result.outputs).toMatchObject({ 'new-failures': 0, 'still-failing': 1 });
    expect(second.summary).toContain('1 still failing');
    expect(second.result.comment?.body).toContain(
      `<details><summary><b>Still failing (1)</b></summary>\n\n- **${FIREFOX}**: failed in 1 of 1 compared run(s)\n`,
    );

    const third = await jsNight(3, 'passed');
    expect(classesOf(third.results)).toEqual({ [CHROME]: 'passed', [FIREFOX]: 'fixed' });
    expect(third.result.outputs).toMatchObject({ 'new-failures': 0, 'still-failing': 0, fixed: 1 });
    expect(third.result.failure).toBeUndefined();
    expect(third.results.history?.compared.map((run) => run.number)).toEqual(['2', '1']);
    expect(third.result.comment?.body).toContain(`**Fixed (1)**\n\n- **${FIREFOX}**: failed in 2 of 2`);
    expect(third.deps.logger.lines('info')).toContain('Compared with 2 earlier run(s) in 2 request(s).');
  });
});
