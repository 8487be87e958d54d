/**
 * `POST /_emulator/outcomes`: the scripted outcomes of a test case's next runs, one a run, used
 * up by case runs and suite runs alike, in any build; then the case runs as seeded. DELETE and a
 * reset clear them; each refusal names what is wrong.
 */
import { describe, expect, it } from 'vitest';
import {
  REGRESSION_CASE_IDS,
  REGRESSION_SUITE_ID,
  SMOKE_CASE_IDS,
  UNASSIGNED_CASE_IDS,
  UNKNOWN_HEX,
} from '../authoring/fixtures.ts';
import { authoringClient } from '../authoring/http.ts';
import { runJobs } from '../authoring/jobs.ts';
import { withEmulator } from '../support/emulator.ts';
import { call } from '../support/http.ts';

type Outcome = 'passed' | 'failed';

/** The id of Regression's `Case NN`. */
const regressionCase = (number: number): string => REGRESSION_CASE_IDS[number - 1]!;

describe('scripted outcomes of test cases', () => {
  const handle = withEmulator({ jobDurationMs: 30 });
  const authoring = authoringClient(() => handle.url);
  const { finishedJobs } = runJobs(() => handle.url);
  const outcomes = (method: string, json?: unknown) =>
    call(`${handle.url}/_emulator/outcomes`, { method, auth: null, ...(json !== undefined ? { json } : {}) });
  const script = async (testCase: string, list: Outcome[]) => {
    const answer = await outcomes('POST', { testCase, outcomes: list });
    expect(answer.status, answer.text).toBe(200);
    return answer.json;
  };
  const pending = async () => ((await outcomes('GET')).json as { outcomes: unknown[] }).outcomes;

  /** Runs a case (by id) and answers how each of its jobs ended. */
  async function runCase(caseId: string, body: Record<string, unknown> = {}): Promise<Outcome[]> {
    const answer = await authoring('POST', `/testcases/${caseId}/run`, { body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const run = answer.body.data as { build: string; jobs: { sauceJobId: string; success: null }[] };
    // A case run is answered when queued: its jobs have no outcome yet, scripted or not.
    expect(run.jobs.every((job) => job.success === null)).toBe(true);
    const jobs = await finishedJobs(run.build, run.jobs.length);
    return run.jobs.map((queued) => {
      const job = jobs.find((candidate) => candidate.id === queued.sauceJobId)!;
      expect(job.consolidated_status).toBe(job.passed ? 'passed' : 'failed');
      return job.passed ? 'passed' : 'failed';
    });
  }

  it('gives four nights of Regression exactly the outcomes scripted for Case 03, the other cases as seeded', async () => {
    const nights: Outcome[] = ['passed', 'failed', 'failed', 'passed'];
    expect(await script('Case 03', nights)).toEqual({
      testCaseId: regressionCase(3),
      testCaseName: 'Case 03',
      outcomes: nights,
    });
    const seen: Outcome[] = [];
    for (const night of [1, 2, 3, 4, 5]) {
      const answer = await authoring('POST', `/testsuites/${REGRESSION_SUITE_ID}/run`, {
        body: { buildName: `Nightly ${night}` },
      });
      expect(answer.status).toBe(200);
      const jobs = await finishedJobs(answer.body.data.buildName, 12);
      const outcomeOf = (name: string) =>
        jobs.find((job) => job.name === name)!.passed ? 'passed' : 'failed';
      seen.push(outcomeOf('Case 03'));
      // Case 07 is flaky: its first run in a build fails. Every other case passes.
      for (const job of jobs)
        if (job.name !== 'Case 03')
          expect(outcomeOf(job.name)).toBe(job.name === 'Case 07' ? 'failed' : 'passed');
      if (night === 4) expect(await pending()).toEqual([]);
    }
    // The fifth night is past the script: Case 03 passes, as seeded.
    expect(seen).toEqual([...nights, 'passed']);
  });

  it.each([
    {
      row: 'a passing case scripted by name, run by id',
      testCase: 'Login works',
      caseId: SMOKE_CASE_IDS[0],
      scripted: ['failed', 'passed'] as Outcome[],
      seeded: 'passed' as Outcome,
    },
    {
      row: 'an always failing case scripted by its id',
      testCase: SMOKE_CASE_IDS[2],
      caseId: SMOKE_CASE_IDS[2],
      scripted: ['passed'] as Outcome[],
      seeded: 'failed' as Outcome,
    },
    {
      row: 'a case scripted by its id in capitals',
      testCase: UNASSIGNED_CASE_IDS[0].toUpperCase(),
      caseId: UNASSIGNED_CASE_IDS[0],
      scripted: ['failed', 'failed'] as Outcome[],
      seeded: 'passed' as Outcome,
    },
    {
      // Its scripted runs count as runs in its build, so the next one there passes.
      row: 'the flaky case, by name',
      testCase: 'Case 07',
      caseId: regressionCase(7),
      scripted: ['passed', 'failed'] as Outcome[],
      seeded: 'passed' as Outcome,
    },
  ])('case runs of $row end as scripted, then as seeded', async ({ testCase, caseId, scripted, seeded }) => {
    await script(testCase, scripted);
    const seen: Outcome[] = [];
    for (let run = 0; run <= scripted.length; run += 1) seen.push(...(await runCase(caseId)));
    expect(seen).toEqual([...scripted, seeded]);
  });

  it('uses one outcome for every target of one run', async () => {
    const twoTargets = {
      targets: [
        { capabilities: { browserName: 'chrome', platformName: 'Windows 11' } },
        { capabilities: { browserName: 'firefox', platformName: 'Linux' } },
      ],
    };
    await script('Search finds products', ['failed', 'passed']);
    expect(await runCase(SMOKE_CASE_IDS[1], twoTargets)).toEqual(['failed', 'failed']);
    expect(await runCase(SMOKE_CASE_IDS[1], twoTargets)).toEqual(['passed', 'passed']);
  });

  it('lists what is left, replaces a case script, and keeps it through a refused run', async () => {
    await script('Login works', ['failed', 'failed', 'failed']);
    await script('Login works', ['passed', 'failed']);
    await script('Newsletter signup draft', ['failed']);
    // The draft has no run target: its run is refused and uses no outcome.
    expect((await authoring('POST', `/testcases/${UNASSIGNED_CASE_IDS[1]}/run`, { body: {} })).status).toBe(
      400,
    );
    expect(await runCase(SMOKE_CASE_IDS[0])).toEqual(['passed']);
    expect(await pending()).toEqual([
      { testCaseId: SMOKE_CASE_IDS[0], testCaseName: 'Login works', outcomes: ['failed'] },
      { testCaseId: UNASSIGNED_CASE_IDS[1], testCaseName: 'Newsletter signup draft', outcomes: ['failed'] },
    ]);
  });

  it.each([
    { row: 'DELETE /_emulator/outcomes', clear: () => outcomes('DELETE'), answer: { removed: 3 } },
    {
      row: 'POST /_emulator/reset',
      clear: () => call(`${handle.url}/_emulator/reset`, { method: 'POST', auth: null }),
      answer: { reset: true },
    },
  ])('$row removes every scripted outcome', async ({ clear, answer }) => {
    await script('Checkout fails', ['passed', 'passed']);
    await script('Case 03', ['failed']);
    const cleared = await clear();
    expect(cleared.status).toBe(200);
    expect(cleared.json).toEqual(answer);
    expect(await pending()).toEqual([]);
    expect(await runCase(SMOKE_CASE_IDS[2])).toEqual(['failed']);
    expect(await runCase(regressionCase(3))).toEqual(['passed']);
  });

  const valid = { testCase: 'Case 03', outcomes: ['passed'] };
  it.each([
    {
      row: 'a body that does not parse',
      raw: '{"testCase": "Case 03",',
      type: 'application/json',
      status: 400,
      says: /JSON/,
    },
    {
      row: 'a text body',
      raw: 'Case 03 passed',
      type: 'text/plain',
      status: 400,
      says: /must be a JSON object/,
    },
    {
      row: 'a body of no type',
      raw: JSON.stringify(valid),
      type: undefined,
      status: 400,
      says: /must be JSON/,
    },
    { row: 'a list for a body', json: [valid], status: 400, says: /must be a JSON object/ },
    {
      row: 'no testCase',
      json: { outcomes: ['passed'] },
      status: 400,
      says: /"testCase" must be the name or the id/,
    },
    { row: 'an empty testCase', json: { ...valid, testCase: '' }, status: 400, says: /"testCase" must be/ },
    {
      row: 'a number for testCase',
      json: { ...valid, testCase: 3 },
      status: 400,
      says: /"testCase" must be/,
    },
    {
      row: 'an unknown name',
      json: { ...valid, testCase: 'Case 99' },
      status: 404,
      says: /no test case has the name or id "Case 99"/,
    },
    {
      row: 'an unknown id',
      json: { ...valid, testCase: UNKNOWN_HEX },
      status: 404,
      says: new RegExp(`"${UNKNOWN_HEX}"`),
    },
    {
      row: 'a name of another letter case',
      json: { ...valid, testCase: 'case 03' },
      status: 404,
      says: /"case 03"/,
    },
    {
      row: 'no outcomes',
      json: { testCase: 'Case 03' },
      status: 400,
      says: /"outcomes" must be a non-empty list, each entry "passed" or "failed"/,
    },
    {
      row: 'no outcome in the list',
      json: { ...valid, outcomes: [] },
      status: 400,
      says: /"outcomes" must be a non-empty list/,
    },
    {
      row: 'one outcome not in a list',
      json: { ...valid, outcomes: 'passed' },
      status: 400,
      says: /"outcomes" must be a non-empty list/,
    },
    {
      row: 'an outcome not allowed',
      json: { ...valid, outcomes: ['passed', 'flaky'] },
      status: 400,
      says: /outcomes\[1\] is "flaky": the allowed values are "passed" and "failed"/,
    },
    {
      row: 'an outcome in capitals',
      json: { ...valid, outcomes: ['Passed'] },
      status: 400,
      says: /outcomes\[0\] is "Passed"/,
    },
    {
      row: 'a boolean outcome',
      json: { ...valid, outcomes: ['failed', true] },
      status: 400,
      says: /outcomes\[1\] is true/,
    },
    {
      row: 'over 1,000 outcomes',
      json: { ...valid, outcomes: Array(1001).fill('passed') },
      status: 400,
      says: /1001 entries, more than the 1000 allowed/,
    },
    { row: 'another member', json: { ...valid, times: 2 }, status: 400, says: /unknown member "times"/ },
  ])('refuses $row', async ({ json, raw, type, status, says }) => {
    const answer =
      raw === undefined
        ? await outcomes('POST', json)
        : await call(`${handle.url}/_emulator/outcomes`, {
            method: 'POST',
            auth: null,
            ...(type ? { headers: { 'content-type': type } } : {}),
            // Bytes, so that fetch sends no type of its own.
            body: new TextEncoder().encode(raw),
          });
    expect(answer.status).toBe(status);
    expect((answer.json as { message: string }).message).toMatch(says);
    expect(await pending()).toEqual([]);
  });

  it('takes 1,000 outcomes', async () => {
    const many = Array.from({ length: 1000 }, (_, index): Outcome => (index % 2 ? 'passed' : 'failed'));
    expect(((await script('Case 03', many)) as { outcomes: Outcome[] }).outcomes).toEqual(many);
  });

  it('refuses a name two cases share, naming both, and takes either by its id', async () => {
    const renamed = await authoring('POST', `/testcases/${regressionCase(4)}/rename`, {
      body: { name: 'Case 03' },
    });
    expect(renamed.status).toBe(200);
    const answer = await outcomes('POST', { testCase: 'Case 03', outcomes: ['failed'] });
    expect(answer.status).toBe(400);
    const { message } = answer.json as { message: string };
    expect(message).toMatch(/the name "Case 03" is shared by 2 test cases/);
    for (const id of [regressionCase(3), regressionCase(4)]) expect(message).toContain(id);
    await script(regressionCase(4), ['failed']);
    expect(await runCase(regressionCase(4))).toEqual(['failed']);
    expect(await runCase(regressionCase(3))).toEqual(['passed']);
  });
});
