/**
 * The one error wrapper every action's `main.ts` uses: turns any error into `core.setFailed`
 * (an `::error` annotation and exit code 1), telling the user's mistakes apart from service
 * trouble, always with a next step, and never with a secret in it.
 */
import * as core from '@actions/core';
import { ApiError, TransportError } from '@sauce-actions/api';
import { InputError } from './input-error.ts';
import { redactSecrets } from './secrets.ts';
import { escapeHtml } from './summary.ts';

/** A failure the action has already explained, with what to do next. */
export class ActionError extends Error {
  override readonly name = 'ActionError';
  /** `user`: fixing the workflow or the account helps; `service`: trying again later may help. */
  readonly kind: 'user' | 'service';

  constructor(message: string, kind: 'user' | 'service' = 'user', options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
  }
}

export type FailureKind = 'input' | 'user' | 'service' | 'cancelled' | 'unexpected';

export interface Failure {
  kind: FailureKind;
  /** What went wrong and what to do, already free of secrets. */
  message: string;
}

/** Classifies an error and words it for the step log. */
export function describeFailure(error: unknown): Failure {
  const described = describe(error);
  return { kind: described.kind, message: redactSecrets(described.message) };
}

function describe(error: unknown): Failure {
  if (error instanceof InputError) {
    return {
      kind: 'input',
      message: `${error.message} Fix the input in the workflow file and run it again.`,
    };
  }
  if (error instanceof ActionError) return { kind: error.kind, message: error.message };
  if (error instanceof ApiError) {
    if (error.isClientError) return { kind: 'user', message: `${error.message}. ${clientHint(error)}` };
    return {
      kind: 'service',
      message: `Sauce Labs could not handle the request: ${error.message}. This is trouble on the service side, not in the workflow: run the job again later, and check https://status.saucelabs.com if it persists.`,
    };
  }
  if (error instanceof TransportError) {
    if (error.kind === 'aborted') return { kind: 'cancelled', message: `Cancelled: ${error.message}.` };
    return {
      kind: 'service',
      message: `Could not reach Sauce Labs: ${error.message}. Check \`region\` and \`api-url\`, and that the runner can reach the service (proxy, firewall); then run the job again.`,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    kind: 'unexpected',
    message: `Unexpected error: ${message}. Run the step again with debug logging (secret ACTIONS_STEP_DEBUG=true) and report it if it repeats.`,
  };
}

function clientHint(error: ApiError): string {
  switch (error.status) {
    case 401:
      return 'The credentials were refused: check the key (and the user name or email that goes with it), and that it belongs to the data center or region in `region`.';
    case 403:
      return 'The account may not do this: check its permissions on the project or group.';
    case 404:
      return 'Something named in the inputs does not exist: check the ids and names.';
    default:
      return 'The service refused the request: check the inputs named above.';
  }
}

export interface RunActionOptions {
  /** Names the action in the failure summary, for example "Upload build". */
  title: string;
}

/**
 * Runs an action's body. SIGINT and SIGTERM (the runner's cancellation) abort the signal handed to
 * it, so that requests stop and the step ends while the runner still waits.
 */
export async function runAction(
  options: RunActionOptions,
  body: (signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const controller = new AbortController();
  const cancel = (): void => controller.abort(new Error('the run was cancelled'));
  process.once('SIGINT', cancel);
  process.once('SIGTERM', cancel);
  try {
    await body(controller.signal);
  } catch (error) {
    const failure = describeFailure(error);
    // A stack helps only when the cause is not already explained to the user.
    if (
      (failure.kind === 'unexpected' || failure.kind === 'service') &&
      error instanceof Error &&
      error.stack
    ) {
      core.debug(redactSecrets(error.stack));
    }
    core.setFailed(failure.message);
    await writeFailureSummary(options.title, failure);
  } finally {
    process.off('SIGINT', cancel);
    process.off('SIGTERM', cancel);
  }
}

async function writeFailureSummary(title: string, failure: Failure): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return;
  try {
    await core.summary
      .addHeading(`${escapeHtml(title)}: failed`, 2)
      .addRaw(`<p>${escapeHtml(failure.message)}</p>`, true)
      .write();
  } catch (error) {
    core.debug(`could not write the step summary: ${(error as Error).message}`);
  }
}
