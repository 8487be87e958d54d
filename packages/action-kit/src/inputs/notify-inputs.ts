/**
 * The inputs that tell the world of a run: where its one message goes (`notify-url`, masked as
 * soon as it is read: a webhook's address is its secret), in which format, on which runs, and
 * which cases get a GitHub issue. Checked before any request, as every input is.
 *
 * The format follows the address's host unless `notify-format` says it: Slack's incoming webhooks
 * (`hooks.slack.com`) take Slack's, Teams' and Power Automate's workflow hosts an Adaptive Card,
 * and any other address the versioned JSON object.
 */
import { InputError } from '../step/input-error.ts';
import { optionalProperty } from '../values/optional-property.ts';
import type { InputReader } from './inputs.ts';

export const NOTIFY_FORMATS = ['slack', 'teams', 'json'] as const;
export type NotifyFormat = (typeof NOTIFY_FORMATS)[number];

/** `change`: a new failure, a fixed case or a flaky one; `failure`: any failure; `always`; `never`. */
export const NOTIFY_ON = ['change', 'failure', 'always', 'never'] as const;
export type NotifyOn = (typeof NOTIFY_ON)[number];

/** Which cases get a GitHub issue: the newly failing, the flaky, both, or none. */
export const ISSUES_FOR = ['none', 'new', 'flaky', 'both'] as const;
export type IssuesFor = (typeof ISSUES_FOR)[number];

export interface NotifyInputs {
  /** Where the run's one message goes; masked. */
  url?: string;
  /** The format of the message to `url`. */
  format: NotifyFormat;
  on: NotifyOn;
  issues: IssuesFor;
}

/** No message and no issue: for tests and programs that build inputs by hand. */
export const NO_NOTIFY: NotifyInputs = { format: 'json', on: 'change', issues: 'none' };

/** Slack's incoming webhooks' hosts (the commercial one and GovSlack's). */
const SLACK_HOSTS = ['hooks.slack.com', 'hooks.slack-gov.com'];

/** Workflow hosts of Microsoft Teams and Power Automate: these and their subdomains. */
const TEAMS_DOMAINS = ['logic.azure.com', 'powerplatform.com', 'webhook.office.com'];

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/** The format from the address's host alone. */
export function formatOfHost(url: string): NotifyFormat {
  const host = hostOf(url);
  if (host === undefined) return 'json';
  if (SLACK_HOSTS.includes(host)) return 'slack';
  if (TEAMS_DOMAINS.some((domain) => host.endsWith(`.${domain}`))) return 'teams';
  return 'json';
}

/**
 * Whether an address may receive the message: https, or http on this machine (a test's
 * receiver). The problem never quotes the address, which holds the webhook's secret.
 */
export function notifyAddressProblem(url: string): string | undefined {
  let address: URL;
  try {
    address = new URL(url);
  } catch {
    return 'is not an address';
  }
  if (address.protocol !== 'https:' && address.protocol !== 'http:')
    return `has the scheme ${address.protocol}`;
  if (address.protocol === 'http:' && !isLoopback(address.hostname)) {
    return 'is http on a host other than this machine: a message carries test names and links';
  }
  return undefined;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

const ADDRESS_FORM =
  'an https address, such as a Slack incoming webhook (`https://hooks.slack.com/services/...`) or a Teams workflow address; http only on this machine (`localhost`, `127.0.0.1`, `[::1]`)';

export function readNotifyInputs(read: InputReader): NotifyInputs {
  const url = read.secret('notify-url');
  const given = read.enum('notify-format', NOTIFY_FORMATS);
  const on = read.enum('notify-on', NOTIFY_ON, 'change');
  const issues = read.enum('issues', ISSUES_FOR, 'none');
  if (url !== undefined) {
    const problem = notifyAddressProblem(url);
    if (problem !== undefined) throw new InputError('notify-url', problem, ADDRESS_FORM);
  }
  const format = given ?? (url !== undefined ? formatOfHost(url) : 'json');
  return { ...optionalProperty('url', url), format, on, issues };
}
