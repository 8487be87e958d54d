/**
 * Sauce Labs' refusal of a start, worded with the input that caused it: the service names the
 * problem (a tunnel that does not run, a build name too long, a case without targets), the user
 * knows the inputs, so the message joins the two.
 */
import { ActionError } from '@sauce-actions/action-kit';
import { ApiError } from '@sauce-actions/api';
import type { CaseSelection } from './selection.ts';

/** What the start sent. */
interface Context {
  suite?: { name: string };
  targets?: readonly unknown[];
  buildName: string;
  tunnelName?: string;
}

/** A refusal (a 4xx other than credentials, rights and rate) as an `ActionError` naming the input; any other error as it is. */
export function refusedStart(error: unknown, request: Context, testCase?: CaseSelection): unknown {
  if (!(error instanceof ApiError) || !error.isClientError) return error;
  if (error.status === 401 || error.status === 403) return error;
  const said = error.serviceMessage ?? `${error.status ?? 'failed'}`;
  const what = testCase ? `test case ${testCase.id}` : `suite "${request.suite?.name ?? ''}"`;
  return new ActionError(
    'refused',
    `Sauce Labs refused to run ${what} (${error.operation}: ${error.status ?? 'failed'} ${said}). ${culprit(said, request, testCase)}`,
    { cause: error },
  );
}

function culprit(said: string, request: Context, testCase: CaseSelection | undefined): string {
  const text = said.toLowerCase();
  if (text.includes('tunnel')) {
    return `Check \`tunnel-name\`${quoted(request.tunnelName)}: it must name a Sauce Connect tunnel of this account that is running (manage-tunnel can start one, or wait for it).`;
  }
  if (text.includes('build')) {
    return `Check \`build-name\`${quoted(request.buildName)}: a build name of at most 100 characters for test cases, 255 for a suite.`;
  }
  if (text.includes('no jobs to run')) {
    return 'Check `suite`: none of its test cases has a run target; set targets on its cases, or give `targets`.';
  }
  if (text.includes('target') || text.includes('capabilit')) {
    if (testCase?.targets) return `Check the targets of test case ${testCase.id} in \`test-cases\`.`;
    if (request.targets) return 'Check `targets`: a list of capabilities, or of `{ capabilities, isRdc }`.';
    return 'The test case has no run targets of its own: give `targets`, or set targets on the case.';
  }
  if (/test ?case/.test(text)) return 'Check `test-cases`: every id must be a test case of the account.';
  const sent = [
    request.suite ? '`suite`' : '`test-cases`',
    '`build-name`',
    ...(request.targets ? ['`targets`'] : []),
    ...(request.tunnelName !== undefined ? ['`tunnel-name`'] : []),
  ];
  return `Check the inputs the start sent: ${sent.join(', ')}.`;
}

function quoted(value: string | undefined): string {
  return value !== undefined ? ` ("${value}")` : '';
}
