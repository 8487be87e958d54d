/** A refused start names the input behind it. */
import { ActionError } from '@sauce-actions/action-kit';
import { ApiError } from '@sauce-actions/api';
import { describe, expect, it } from 'vitest';
import { refusedStart } from '../src/refusals.ts';

const refusal = (serviceMessage: string, status = 400, operation = 'runSuite'): ApiError =>
  new ApiError({ operation, method: 'POST', url: '/v1/ai-authoring/x/run', status, serviceMessage });

const suiteRun = { suite: { name: 'Smoke' }, buildName: 'Nightly', tunnelName: 'tunnel-7' };

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

  it('names the targets of a test case, or the targets input, for a target the service refuses', () => {
    const ownTargets = refusedStart(
      refusal('body/targets/0/capabilities must be object', 400, 'runTestCase'),
      { buildName: 'B' },
      { id: 'aaaaaaaaaaaaaaaaaaaaaa01', targets: [{ capabilities: {} }] },
    );
    expect((ownTargets as Error).message).toContain(
      'Check the targets of test case aaaaaaaaaaaaaaaaaaaaaa01 in `test-cases`.',
    );
    const given = refusedStart(refusal('test case x has no run targets configured', 400, 'runTestCase'), {
      buildName: 'B',
      targets: [{}],
    });
    expect((given as Error).message).toContain('Check `targets`');
  });

  it('leaves credentials, rights and service errors to the common wording', () => {
    for (const status of [401, 403, 429, 500]) {
      const error = refusal('no', status);
      expect(refusedStart(error, suiteRun)).toBe(error);
    }
    const other = new Error('boom');
    expect(refusedStart(other, suiteRun)).toBe(other);
  });
});
