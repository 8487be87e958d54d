/**
 * One classification of failures for every action and every host: what went wrong, in words that
 * say what to do next, and never with a secret in it. A host turns the kind into its own signal
 * (the runner's `::error` and exit code 1; the command line's exit code 2 for input mistakes).
 */
import { ApiError, ResponseShapeError, TransportError, type ProxyFailure } from '@sauce-actions/api';
import { formatDuration } from '../values/duration.ts';
import { InputError } from './input-error.ts';
import { redactSecrets } from './secrets.ts';
import { refusedTokenMessage } from './oidc-refusal.ts';

export type FailureKind =
  /** An input's value is wrong: the message names the input and what is allowed. */
  | 'input'
  /** The service refused a request (4xx, a failure code): fixing the inputs or the account helps. */
  | 'refused'
  /**
   * The service answered 429 and the client could not wait it out: its retries were spent, or the
   * wait asked for would pass the step's deadline or the longest wait the client accepts.
   */
  | 'rate-limited'
  /** The service failed or could not be reached: running again later may help. */
  | 'service'
  /**
   * Something between this machine and the service stood in the way: the proxy of `HTTPS_PROXY`
   * refused the request or could not be reached, or a captive portal, gateway or redirect
   * answered in the service's place. Its settings, not the inputs, need fixing.
   */
  | 'network'
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
  if (error instanceof TransportError && error.proxy) return proxyFailure(error, error.proxy);
  if (error instanceof ApiError && error.unusable !== undefined) return unusableAnswer(error);
  if (error instanceof ApiError) {
    // A 429 means the request was not carried out: the limit, never the service, is the trouble.
    if (error.isRateLimited) return { kind: 'rate-limited', message: rateLimitedMessage(error) };
    if (error.refusedToken !== undefined) return { kind: 'refused', message: refusedTokenMessage(error) };
    if (error.isClientError) return { kind: 'refused', message: `${error.message}. ${clientHint(error)}` };
    if (error.mayHaveBeenProcessed) {
      return {
        kind: 'service',
        message: `Sauce Labs failed while handling the request: ${error.message}. ${mayHaveBeenDone(error.operation)} If the service is in trouble, https://status.saucelabs.com says so.`,
      };
    }
    return {
      kind: 'service',
      message: `Sauce Labs could not handle the request: ${error.message}. This is trouble on the service side, not in the inputs: run the job again later, and check https://status.saucelabs.com if it persists.`,
    };
  }
  if (error instanceof ResponseShapeError) return { kind: 'service', message: shapeMessage(error) };
  if (error instanceof TransportError) {
    if (error.kind === 'aborted') return abortFailure('cancelled', undefined, error);
    // Only a failure to connect points at the address or the network: once the request was sent,
    // the address was right.
    if (error.kind === 'connect') {
      return {
        kind: 'service',
        message: `Could not reach Sauce Labs: ${error.message}. Check \`region\` and \`api-url\`, and that this machine can reach the service (proxy, firewall); then run the job again.`,
      };
    }
    const what =
      error.kind === 'timeout'
        ? 'Sauce Labs did not answer in time after the request was sent'
        : 'The connection to Sauce Labs was cut after the request was sent';
    if (error.mayHaveBeenProcessed) {
      return { kind: 'service', message: `${what}: ${error.message}. ${mayHaveBeenDone(error.operation)}` };
    }
    return {
      kind: 'service',
      message: `${what}: ${error.message}. The connection was made, so the address is right: the service or the network on the way dropped it. Run the job again later, and check https://status.saucelabs.com if it persists.`,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    kind: 'bug',
    message: `Unexpected error: ${message}. Run it again with debug logging (on GitHub the secret ACTIONS_STEP_DEBUG=true, on the command line --verbose) and report it if it repeats.`,
  };
}

/** The proxy refused the request or could not be reached: nothing reached the service. */
function proxyFailure(error: TransportError, proxy: ProxyFailure): Failure {
  const variable = `\`${proxy.variable}\``;
  let advice: string;
  if (proxy.url === undefined) {
    advice = `Fix ${variable} (http://host:port, or http://user:password@host:port), or unset it where no proxy is needed.`;
  } else if (proxy.status === 407) {
    advice = proxy.hadCredentials
      ? `Check the user name and password in ${variable} (http://user:password@host:port, with characters such as @, : and / percent-encoded) with the proxy's administrators.`
      : `Put the proxy's user name and password in ${variable}: http://user:password@host:port (characters such as @, : and / percent-encoded).`;
  } else if (proxy.status !== undefined) {
    advice = `Ask the proxy's administrators to let this machine reach Sauce Labs, or list the service's host in \`NO_PROXY\` if it can be reached without the proxy.`;
  } else {
    advice = `Check the address and port in ${variable} and that the proxy is running; where no proxy is needed, unset ${variable} or list the service's host in \`NO_PROXY\`.`;
  }
  return {
    kind: 'network',
    message: `The proxy stood in the way: ${error.message}. ${advice} Then run the job again.`,
  };
}

/** An answer that came but could not be used: a redirect, a page, a garbled or oversized body. */
function unusableAnswer(error: ApiError): Failure {
  const done = error.mayHaveBeenProcessed ? ` ${mayHaveBeenDone(error.operation)}` : '';
  const repeated = error.attempts > 1 ? ` It came so ${error.attempts} times.` : '';
  switch (error.unusable) {
    case 'redirect':
      return {
        kind: 'network',
        message: `The address answered with a redirect instead of an answer: ${error.message}. The client follows no redirect: check \`api-url\` (or \`region\`); a proxy or a network login page (a captive portal) on the way can also redirect.${done}`,
      };
    case 'html':
      return {
        kind: 'network',
        message: `A web page came instead of Sauce Labs' answer: ${error.message}.${repeated} Something on the way answered in the service's place: a captive portal (a network that wants a login first), or the error page of a proxy or gateway. Check this machine's network access and its proxy settings (\`HTTPS_PROXY\`, \`NO_PROXY\`), then run the job again.${done}`,
      };
    case 'encoding':
      return {
        kind: 'network',
        message: `The answer came compressed in a way the client cannot read: ${error.message}. Sauce Labs does not send that: a proxy or gateway on the way changed it.${done}`,
      };
    case 'too-large':
      return {
        kind: 'service',
        message: `An answer far larger than Sauce Labs sends came, and was not read: ${error.message}. A proxy or gateway on the way, or trouble on the service side, may send it: run the job again later, and check https://status.saucelabs.com if it persists.${done}`,
      };
    default:
      return {
        kind: 'service',
        message: `Sauce Labs' answer could not be read: ${error.message}.${repeated}${done || ' The connection or the service garbled it: run the job again later, and check https://status.saucelabs.com if it persists.'}`,
      };
  }
}

function abortFailure(kind: 'timeout' | 'cancelled', reason: unknown, error: unknown): Failure {
  const during = error instanceof TransportError ? ` during ${error.operation}` : '';
  // Stopped while waiting for the answer to a request that starts or creates something.
  const sent =
    error instanceof TransportError && error.mayHaveBeenProcessed
      ? ` ${error.operation} was on its way: the service may have ${effectOf(error.operation).effect}; check ${effectOf(error.operation).where} before running the step again.`
      : '';
  if (kind === 'timeout') {
    const what = reason instanceof StepTimeoutError ? reason.message : 'the step timed out';
    const input = reason instanceof StepTimeoutError ? reason.input : 'timeout';
    return {
      kind,
      message: `Timed out: ${what}${during}.${sent} Raise \`${input}\` if the step needs longer.`,
    };
  }
  const how = reason instanceof Error ? reason.message : 'the run was cancelled';
  return { kind, message: `Cancelled: ${how}${during}.${sent}` };
}

function rateLimitedMessage(error: ApiError): string {
  const share =
    "The account's request limit is shared by every job using it: run fewer steps against it at once (a matrix's `max-parallel`)";
  const asked =
    error.retryAfterMs !== undefined
      ? ` and asked to wait ${formatDuration(Math.ceil(error.retryAfterMs / 1000) * 1000)}`
      : '';
  switch (error.notRetriedBecause) {
    case 'wait-past-deadline':
      return `Sauce Labs answered 429 Too Many Requests${asked}, past the step's deadline, so the request was not sent again: ${error.message}. Nothing was carried out. ${share}, raise the step's \`timeout\`, or run the job again later.`;
    case 'wait-too-long':
      return `Sauce Labs answered 429 Too Many Requests${asked}, longer than the client waits, so the request was not sent again: ${error.message}. Nothing was carried out. ${share}, or run the job again later.`;
    default: {
      const how =
        error.attempts > 1
          ? `kept answering 429 Too Many Requests after ${error.attempts} tries`
          : 'answered 429 Too Many Requests';
      return `Sauce Labs ${how}: ${error.message}. ${share}, or run the job again later.`;
    }
  }
}

/** An answer of the wrong shape: the request succeeded, but what it answered cannot be read. */
function shapeMessage(error: ResponseShapeError): string {
  const done = EFFECTS[error.operation];
  const effect = done
    ? ` The request itself succeeded: Sauce Labs ${done.effect}; check ${done.where} before running the step again.`
    : '';
  return `Sauce Labs answered in a form the action cannot read: ${error.message}.${effect} This is trouble on the service side (or on the way to it), not in the inputs: run the job again later, and report it if it repeats.`;
}

/** What a request that starts or creates something did, and where to see whether it did. */
const EFFECTS: Record<string, { effect: string; where: string }> = {
  runSuite: {
    effect: 'started the suite run',
    where: "the suite's runs in Sauce Labs AI test authoring (or the builds on the dashboard)",
  },
  runTestCase: {
    effect: 'started the test case run',
    where: "the test case's runs in Sauce Labs AI test authoring (or the builds on the dashboard)",
  },
  startJsTests: { effect: 'started the jobs', where: 'the jobs on the Sauce Labs dashboard' },
  uploadBuild: {
    effect: 'stored the build',
    where: "the project's builds in Sauce Labs mobile app distribution",
  },
  inviteToBuild: {
    effect: 'invited the testers',
    where: "the build's testers in Sauce Labs mobile app distribution",
  },
  addTesters: { effect: 'added the testers', where: 'the testers in Sauce Labs mobile app distribution' },
  createTesterGroup: {
    effect: 'created the group',
    where: 'the tester groups in Sauce Labs mobile app distribution',
  },
};

function effectOf(operation: string): { effect: string; where: string } {
  return EFFECTS[operation] ?? { effect: 'carried it out', where: 'on Sauce Labs whether it took effect' };
}

/** Why a request was not repeated, and what to look at before the step runs again. */
function mayHaveBeenDone(operation: string): string {
  const { effect, where } = effectOf(operation);
  // The client's own message already says that the request was not sent again.
  return `Sending ${operation} again could do it twice, and it may have ${effect} already: check ${where} before running the step again.`;
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
  network: 'network trouble',
  timeout: 'timed out',
  cancelled: 'cancelled',
  'tests-failed': 'failed',
  bug: 'unexpected error',
};
