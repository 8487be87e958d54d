/**
 * One step of an action, main or post, from its inputs to its result, the same on every host:
 * the inputs read and checked, the job's ID token fetched where the connection asks for it, the
 * client made from their connection, `run` called. An error
 * `run` did not handle itself becomes the result's failure; the client is closed before the
 * result is handed back, for the host to publish.
 */
import type { SauceClient } from '@sauce-actions/api';
import type { ActionDefinition, ActionInputs, StepDeps } from '../deps.ts';
import { createClient } from '../inputs/connection.ts';
import { withJobIdToken } from '../inputs/id-token.ts';
import { InputReader, type InputSource } from '../inputs/inputs.ts';
import type { ActionResult, Outputs } from '../reporting/result.ts';
import { describeFailure } from '../step/failure.ts';

export async function runDefinition<I extends ActionInputs, O extends Outputs>(
  definition: ActionDefinition<I, O>,
  source: InputSource,
  deps: StepDeps,
): Promise<{ result: ActionResult; inputs?: I }> {
  let client: SauceClient | undefined;
  let inputs: I | undefined;
  try {
    inputs = await definition.readInputs(new InputReader(source));
    // `oidc: github`: the job's ID token joins the connection before the client is made.
    inputs = { ...inputs, connection: await withJobIdToken(inputs.connection, deps.idToken) };
    client = createClient(inputs.connection, deps.logger);
    return { result: await definition.run(inputs, { ...deps, client }), inputs };
  } catch (error) {
    const failure = describeFailure(error, deps.signal);
    // A stack helps only when the cause is not already explained to the user.
    if ((failure.kind === 'bug' || failure.kind === 'service') && error instanceof Error && error.stack) {
      deps.logger.debug(error.stack);
    }
    const result = { outputs: {}, summary: '', annotations: [], failure };
    return inputs !== undefined ? { result, inputs } : { result };
  } finally {
    await client?.close().catch(() => {});
  }
}
