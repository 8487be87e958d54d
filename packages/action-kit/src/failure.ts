/**
 * One classification of failures for every action and every host: what went wrong, in words that
 * say what to do next, and never with a secret in it. A host turns the kind into its own signal
 * (the runner's `::error` and exit code 1; the command line's exit code 2 for input mistakes).
 */
import { ApiError, TransportError } from '@sauce-actions/api';
import { InputError } from './input-error.ts';
import { formatDuration } from './duration.ts';
import { redactSecrets } from './secrets.ts';

export type FailureKind =
  /** An input's value is wrong: the message names the input and what is allowed. */
  | 'input'
  /** The service refused a request (4xx, a failure code): fixing the inputs or the account helps. */
  | 'refused'
  /** The service kept answering 429 after the client's retries. */
  | 'rate-limited'
  /** The service failed or could not be reached: running again later may help. */
  | 'service'
  /** The step's `timeout` passed. */
  | 'timeout'
  /** The run was cancelled (the runner's SIGINT or SIGTERM, or Ctrl-C). */
  | 'cancelled'
  /** The work ran and failed: tests or jobs failed. */
  | 'tests-failed'
  /** Our bug: nothing the user did explains it. */
  | 'bug';

export interface Failure {
  kind: FailureKind;
  /** What went wrong and what to do, already free of secrets. */
  message: string;
}

/** A failure the action has already explained, with what to do next. */
export class ActionError extends Error {
  override readonly name = 'ActionError';
  readonly kind: FailureKind;

  constructor(kind: FailureKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
  }
}

/** The reason a step's signal aborts at its deadline. */
export class StepTimeoutError extends Error {
  override readonly name = 'TimeoutError';
  readonly timeoutMs: number;
  /** The input that set the deadline. */
  readonly input: string;

  constructor(timeoutMs: number, input = 'timeout') {
    super(`the \`${input}\` of ${formatDuration(timeoutMs)} passed`);
    this.timeoutMs = timeoutMs;
    this.input = input;
  }
}

/** The reason a step's signal aborts when the run is cancelled. */
export class CancelledError extends Error {
  override readonly name = 'AbortError';

  constructor(how = 'the run was cancelled') {
    super(how);
  }
}

/** Why a signal aborted: `timeout` at a step's deadline, `cancelled` otherwise, undefined while it has not. */
export function abortReasonOf(signal: AbortSignal | undefined): 'timeout' | 'cancelled' | undefined {
  if (!signal?.aborted) return undefined;
  return signal.reason instanceof StepTimeoutError ? 'timeout' : 'cancelled';
}

/** Classifies an error and words it; `signal` is the step's, to tell a timeout from a cancellation. */
export function describeFailure(error: unknown, signal?: AbortSignal): Failure {
  const described = describe(error, signal);
  return { kind: described.kind, message: redactSecrets(described.message) };
}

function describe(error: unknown, signal: AbortSignal | undefined): Failure {
  if (error instanceof InputError) {
    return { kind: 'input', message: `${error.message} Fix the input and run the step again.` };
  }
  if (error instanceof ActionError) return { kind: error.kind, message: error.message };
  // An abort says why in its cause (the client keeps the signal's reason); else the step's signal does.
  const reason = abortCauseOf(error) ?? (signal?.aborted ? signal.reason : undefined);
  if (reason !== undefined && (isAbortError(error) || error === reason)) {
    return abortFailure(reason instanceof StepTimeoutError ? 'timeout' : 'cancelled', reason, error);
  }
  if (error instanceof ApiError) {
    if (error.status === 429) {
      return {
        kind: 'rate-limited',
        message: `Sauce Labs kept answering 429 Too Many Requests after several tries: ${error.message}. The account's request limit is shared by every job using it: run fewer steps against it at once (a matrix's \`max-parallel\`), or run the job again later.`,
      };
    }
    if (error.isClientError) return { kind: 'refused', message: `${error.message}. ${clientHint(error)}` };
    return {
      kind: 'service',
      message: `Sauce Labs could not handle the request: ${error.message}. This is trouble on the service side, not in the inputs: run the job again later, and check https://status.saucelabs.com if it persists.`,
    };
  }
  if (error instanceof TransportError) {
    if (error.kind === 'aborted') return abortFailure('cancelled', undefined, error);
    return {
      kind: 'service',
      message: `Could not reach Sauce Labs: ${error.message}. Check \`region\` and \`api-url\`, and that this machine can reach the service (proxy, firewall); then run the job again.`,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    kind: 'bug',
    message: `Unexpected error: ${message}. Run the step again with debug logging (secret ACTIONS_STEP_DEBUG=true) and report it if it repeats.`,
  };
}

function abortFailure(kind: 'timeout' | 'cancelled', reason: unknown, error: unknown): Failure {
  const during = error instanceof TransportError ? ` during ${error.operation}` : '';
  if (kind === 'timeout') {
    const what = reason instanceof StepTimeoutError ? reason.message : 'the step timed out';
    const input = reason instanceof StepTimeoutError ? reason.input : 'timeout';
    return {
      kind,
      message: `Timed out: ${what}${during}. Raise \`${input}\` if the step needs longer.`,
    };
  }
  const how = reason instanceof Error ? reason.message : 'the run was cancelled';
  return { kind, message: `Cancelled: ${how}${during}.` };
}

/** The deadline or cancellation behind an error, followed through its causes. */
function abortCauseOf(error: unknown): StepTimeoutError | CancelledError | undefined {
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++) {
    if (at instanceof StepTimeoutError || at instanceof CancelledError) return at;
  }
  return undefined;
}

function isAbortError(error: unknown): boolean {
  if (error instanceof TransportError) return error.kind === 'aborted';
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
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

/** How a kind reads in a summary heading. */
export const FAILURE_LABELS: Record<FailureKind, string> = {
  input: 'bad input',
  refused: 'refused by Sauce Labs',
  'rate-limited': 'rate limited',
  service: 'service trouble',
  timeout: 'timed out',
  cancelled: 'cancelled',
  'tests-failed': 'failed',
  bug: 'unexpected error',
};
