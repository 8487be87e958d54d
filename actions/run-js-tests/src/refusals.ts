/**
 * Sauce Labs' refusal of the start, worded with the input that caused it: the service names the
 * problem (a tunnel that does not run, a field it rejects), the user knows the inputs, so the
 * message joins the two.
 */
import { ActionError } from '@sauce-actions/action-kit';
import { ApiError } from '@sauce-actions/api';
import { FRAMEWORKS_TEXT } from './inputs.ts';

/** What the start sent. */
interface Context {
  url: string;
  tunnelName?: string;
  build?: string;
  name?: string;
  capabilities: Record<string, unknown>;
}

/** Body members of the start request, by the input that sets them. */
const MEMBERS: [RegExp, string, string][] = [
  [
    /tunnel/i,
    'tunnel-name',
    'it must name a Sauce Connect tunnel of this account that is running (manage-tunnel can start one, or wait for it)',
  ],
  [
    /platform/i,
    'platforms',
    'each platform is `[os, browser, version]`, for example `Windows 11 / chrome / latest`',
  ],
  [/framework/i, 'framework', `one of ${FRAMEWORKS_TEXT}`],
  [/maxduration|max.duration/i, 'max-duration', 'the longest time one job may run'],
  [/\burl\b/i, 'url', 'an http:// or https:// address of the test page'],
  [/\bbuild\b/i, 'build', 'a build name'],
  [/\btags?\b/i, 'tags', 'tags separated by commas or newlines'],
  [/\bname\b/i, 'name', 'a name for the jobs'],
];

/** A refusal (a 4xx other than credentials, rights and rate) as an `ActionError` naming the input; any other error as it is. */
export function refusedStart(error: unknown, sent: Context): unknown {
  if (!(error instanceof ApiError) || !error.isClientError) return error;
  if (error.status === 401 || error.status === 403) return error;
  const said = error.serviceMessage ?? String(error.status ?? 'failed');
  const where = [...fieldsOf(error.body), said].join(' ');
  const match = MEMBERS.find(([pattern]) => pattern.test(where));
  const capability = Object.keys(sent.capabilities).find((key) => where.includes(key));
  const check = match
    ? `Check \`${match[1]}\`${valueOf(match[1], sent)}: ${match[2]}.`
    : capability !== undefined
      ? `Check \`capabilities\`: the service refused "${capability}".`
      : `Check the inputs the start sent: \`url\`, \`framework\`, \`platforms\`${sent.tunnelName !== undefined ? ', `tunnel-name`' : ''}${Object.keys(sent.capabilities).length > 0 ? ', `capabilities`' : ''}.`;
  return new ActionError(
    'refused',
    `Sauce Labs refused to start the JS tests (${error.operation}: ${error.status ?? 'failed'} ${said}). ${check}`,
    { cause: error },
  );
}

/** The field names of an automation error body (`{ message, code, fields }`). */
function fieldsOf(body: unknown): string[] {
  const fields = (body as { fields?: unknown } | null)?.fields;
  return fields !== null && typeof fields === 'object' ? Object.keys(fields) : [];
}

function valueOf(input: string, sent: Context): string {
  const value =
    input === 'tunnel-name'
      ? sent.tunnelName
      : input === 'url'
        ? sent.url
        : input === 'build'
          ? sent.build
          : input === 'name'
            ? sent.name
            : undefined;
  return value !== undefined ? ` ("${value}")` : '';
}
