/**
 * Which format a message takes: `notify-format` when given, else the address's host says it:
 * Slack's incoming webhooks (`hooks.slack.com`) take Slack's, Teams' and Power Automate's workflow
 * hosts take an Adaptive Card, and any other address the versioned JSON object.
 */
export type NotifyFormat = 'slack' | 'teams' | 'json';

export const NOTIFY_FORMATS: readonly NotifyFormat[] = ['slack', 'teams', 'json'];

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
 * The format of the messages to `url`: `given` (the input `notify-format`) unless empty, else the
 * host's. A `given` that is no format throws, naming the formats.
 */
export function notifyFormatOf(url: string, given?: string): NotifyFormat {
  const chosen = given?.trim().toLowerCase() ?? '';
  if (chosen === '') return formatOfHost(url);
  const format = NOTIFY_FORMATS.find((name) => name === chosen);
  if (format === undefined) {
    throw new Error(
      `notify-format must be one of ${NOTIFY_FORMATS.join(', ')}, not ${JSON.stringify(given)}`,
    );
  }
  return format;
}
