/**
 * The authoring interface's admin endpoints, which the admin plugin registers beside its own
 * (loopback only, no credentials): the scripted outcomes of test cases' next runs.
 *
 * `POST /_emulator/outcomes` `{ "testCase": "<name or id>", "outcomes": ["failed", "passed", ...] }`
 * sets the outcomes of the case's next runs, in place of any it had left, and answers the script
 * (`{ testCaseId, testCaseName, outcomes }`). One outcome is used up by each run of the case, in
 * any build: a case run (`POST /v1/ai-authoring/testcases/{id}/run`) or a suite run that includes
 * it. Every job of that run, one per target, ends with it: `passed` true or false,
 * `consolidated_status` `passed` or `failed`. Once the outcomes are used up the case runs as
 * seeded again (a flaky case counts a scripted run as a run in its build). A run refused (no
 * targets, no such tunnel) uses none.
 *
 * Refused: a body that is not a JSON object (400); `testCase` missing or not a non-empty string
 * (400), neither the id nor the name of a case (404), or a name two cases share (400, naming
 * their ids); `outcomes` not a list of 1 to 1,000 entries, each `"passed"` or `"failed"` (400,
 * naming the first bad entry); any other member (400).
 *
 * `GET /_emulator/outcomes` answers the scripts with outcomes left; `DELETE /_emulator/outcomes`
 * removes them all and answers how many outcomes were still to come. A reset clears them too.
 */
import type { SchemaTypedApp } from '../../shared/schema-typed.ts';
import type { ScriptedOutcome } from '../model.ts';
import type { AuthoringStore } from '../store/index.ts';
import { MAX_SCRIPTED_OUTCOMES, SCRIPTED_OUTCOMES } from '../store/scripted-outcomes.ts';

const BODY_FORM = '{ "testCase": "<name or id>", "outcomes": ["passed" | "failed", ...] }';
const QUOTED = SCRIPTED_OUTCOMES.map((outcome) => JSON.stringify(outcome));

type ScriptRequest = { testCase: string; outcomes: ScriptedOutcome[] };

/** The request, or why it is refused: a message naming the member at fault. */
function readScript(body: unknown): ScriptRequest | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return `the body must be a JSON object: ${BODY_FORM}`;
  }
  const members = body as Record<string, unknown>;
  const unknown = Object.keys(members).find((name) => name !== 'testCase' && name !== 'outcomes');
  if (unknown !== undefined) {
    return `unknown member ${JSON.stringify(unknown)}: the body is ${BODY_FORM}`;
  }
  const { testCase, outcomes } = members;
  if (typeof testCase !== 'string' || testCase === '') {
    return '"testCase" must be the name or the id of a test case, a non-empty string';
  }
  if (!Array.isArray(outcomes) || outcomes.length === 0) {
    return `"outcomes" must be a non-empty list, each entry ${QUOTED.join(' or ')}`;
  }
  if (outcomes.length > MAX_SCRIPTED_OUTCOMES) {
    return `"outcomes" has ${outcomes.length} entries, more than the ${MAX_SCRIPTED_OUTCOMES} allowed`;
  }
  const bad = outcomes.findIndex((outcome) => !SCRIPTED_OUTCOMES.includes(outcome as ScriptedOutcome));
  if (bad !== -1) {
    return `outcomes[${bad}] is ${JSON.stringify(outcomes[bad])}: the allowed values are ${QUOTED.join(' and ')}`;
  }
  return { testCase, outcomes: outcomes as ScriptedOutcome[] };
}

export function authoringAdminRoutes(app: SchemaTypedApp, store: AuthoringStore): void {
  app.get('/_emulator/outcomes', async () => ({ outcomes: store.outcomes.list() }));

  app.post('/_emulator/outcomes', async (request, reply) => {
    const script = readScript(request.body);
    if (typeof script === 'string') return reply.code(400).send({ message: script });
    // An unknown or ambiguous case throws an authoring error, whose status and text the admin
    // plugin answers.
    const testCase = store.outcomes.caseNamed(script.testCase);
    return store.outcomes.script(testCase, script.outcomes);
  });

  app.delete('/_emulator/outcomes', async () => ({ removed: store.outcomes.clear() }));
}
