/** A refused start names the input behind it: a row per service error, the input and the words. */
import { ActionError } from '@sauce-actions/action-kit';
import { ApiError } from '@sauce-actions/api';
import { describe, expect, it } from 'vitest';
import { refusedStart } from '../src/refusals.ts';
import type { CaseSelection } from '../src/selection.ts';

const refusal = (serviceMessage: string, status = 400, operation = 'runSuite'): ApiError =>
  new ApiError({ operation, method: 'POST', url: '/v1/ai-authoring/x/run', status, serviceMessage });

const suiteRun = { suite: { name: 'Smoke' }, buildName: 'Nightly', tunnelName: 'tunnel-7' };
const CASE: CaseSelection = { id: 'aaaaaaaaaaaaaaaaaaaaaa01', targets: [{ capabilities: {} }] };

describe('refusedStart', () => {
  it.each([
    ['secure tunnel tunnel-7 does not exist or is not running', 'Check `tunnel-name` ("tunnel-7")'],
    ['body/buildName must match pattern "\\S"', 'Check `build-name` ("Nightly")'],
    ['test suite 3e0a has no jobs to run', 'Check `suite`: none of its test cases has a run target'],
    ["body/targets/0 must have required property 'capabilities'", 'The test case has no run targets'],
    ['something else entirely', 'Check the inputs the start sent: `suite`, `build-name`, `tunnel-name`.'],
  ])('maps "%s" to its input', (said, check) => {
    const error = refusedStart(refusal(said), suiteRun);
    expect(error).toBeInstanceOf(ActionError);
    expect(error).toMatchObject({ kind: 'refused' });
    expect((error as ActionError).message).toMatch(
      /^Sauce Labs refused to run suite "Smoke" \(runSuite: 400 /,
    );
    expect((error as ActionError).message).toContain(said);
    expect((error as ActionError).message).toContain(check);
    expect((error as ActionError).message).not.toContain('check the inputs named above');
  });

  it.each<[string, string, Parameters<typeof refusedStart>[1], CaseSelection | undefined, string]>([
    [
      'the targets of a test case',
      'body/targets/0/capabilities must be object',
      { buildName: 'B' },
      CASE,
      'Check the targets of test case aaaaaaaaaaaaaaaaaaaaaa01 in `test-cases`.',
    ],
    [
      'the targets input',
      'test case x has no run targets configured',
      { buildName: 'B', targets: [{}] },
      undefined,
      'Check `targets`',
    ],
  ])('names %s for a target the service refuses', (_what, said, sent, testCase, check) => {
    const error = refusedStart(refusal(said, 400, 'runTestCase'), sent, testCase);
    expect(error).toBeInstanceOf(ActionError);
    expect((error as Error).message).toContain(check);
  });

  it.each([401, 403, 429, 500])('leaves a %i to the common wording', (status) => {
    const error = refusal('no', status);
    expect(refusedStart(error, suiteRun)).toBe(error);
  });

  it('leaves an error that is not the service answering to the common wording', () => {
    const other = new Error('boom');
    expect(refusedStart(other, suiteRun)).toBe(other);
  });
});
