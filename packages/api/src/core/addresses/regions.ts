/** Regions and base addresses of the services (see the project's facts on hosts). */
import { withoutUserInfo } from '../values/credentials.ts';

export const AUTOMATION_REGIONS = ['us-west-1', 'us-east-4', 'eu-central-1', 'asia-south-2'] as const;
export type AutomationRegion = (typeof AUTOMATION_REGIONS)[number];

export const MOBILE_REGIONS = ['us-east-1', 'eu-central-1', 'legacy'] as const;
export type MobileRegion = (typeof MOBILE_REGIONS)[number];

const AUTOMATION_HOSTS: Record<AutomationRegion, string> = {
  'us-west-1': 'https://api.us-west-1.saucelabs.com',
  'us-east-4': 'https://api.us-east-4.saucelabs.com',
  'eu-central-1': 'https://api.eu-central-1.saucelabs.com',
  'asia-south-2': 'https://api.asia-south-2.saucelabs.com',
};

const DEFAULT_DASHBOARD = 'https://app.saucelabs.com';

/** Dashboard hosts for job links; asia-south-2 has no public dashboard host, so it has none here. */
const DASHBOARD_HOSTS: Partial<Record<AutomationRegion, string>> = {
  'us-west-1': 'https://app.saucelabs.com',
  'us-east-4': 'https://app.us-east-4.saucelabs.com',
  'eu-central-1': 'https://app.eu-central-1.saucelabs.com',
};

const MOBILE_HOSTS: Record<MobileRegion, { rest: string; upload: string }> = {
  'us-east-1': { rest: 'https://mobile.saucelabs.com', upload: 'https://mobile.saucelabs.com' },
  'eu-central-1': {
    rest: 'https://mobile.eu-central-1.saucelabs.com',
    upload: 'https://mobile.eu-central-1.saucelabs.com',
  },
  legacy: { rest: 'https://api.testfairy.com', upload: 'https://app.testfairy.com' },
};

export function isAutomationRegion(value: string): value is AutomationRegion {
  return (AUTOMATION_REGIONS as readonly string[]).includes(value);
}

export function isMobileRegion(value: string): value is MobileRegion {
  return (MOBILE_REGIONS as readonly string[]).includes(value);
}

/** Base address of the automation REST and AI authoring interfaces for a region. */
export function automationBaseUrl(region: AutomationRegion = 'us-west-1'): string {
  return AUTOMATION_HOSTS[region];
}

/** Base addresses of mobile distribution (REST and upload) for a region. */
export function mobileBaseUrls(region: MobileRegion = 'us-east-1'): { rest: string; upload: string } {
  return MOBILE_HOSTS[region];
}

/**
 * Link to a job on the dashboard. With an explicit base address (a gateway or the emulator)
 * the link points there, so that offline runs produce links that resolve.
 */
export function jobDashboardUrl(
  jobId: string,
  options: { region?: AutomationRegion; baseUrl?: string } = {},
): string {
  const host = options.baseUrl
    ? linkBase(options.baseUrl)
    : (DASHBOARD_HOSTS[options.region ?? 'us-west-1'] ?? DEFAULT_DASHBOARD);
  return `${trimTrailingSlash(host)}/tests/${encodeURIComponent(jobId)}`;
}

/** A base address for links, without its credentials; one that is not an address is refused, masked. */
function linkBase(url: string): string {
  const clean = withoutUserInfo(url);
  if (clean === undefined) throw new TypeError(`not a valid URL: ${url.replace(/\/\/[^@/]*@/, '//***@')}`);
  return clean;
}

export function trimTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
