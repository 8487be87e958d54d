/** The one client for the three interfaces, configured once through its constructor. */
import type { Dispatcher } from 'undici';
import { AuthoringClient } from './authoring/index.ts';
import { AutomationClient } from './automation/index.ts';
import { BasicCredentials, BearerCredentials, type Credentials } from './core/values/credentials.ts';
import {
  AUTOMATION_REGIONS,
  automationBaseUrl,
  isAutomationRegion,
  isMobileRegion,
  jobDashboardUrl,
  MOBILE_REGIONS,
  mobileBaseUrls,
  type AutomationRegion,
  type MobileRegion,
} from './core/addresses/regions.ts';
import type { RetryPolicy } from './core/timing/retry.ts';
import { ConnectionPools } from './core/transport/pools.ts';
import type { ServiceClock } from './core/timing/service-clock.ts';
import { DEFAULT_TIMEOUTS, HttpTransport, type Logger, type Timeouts } from './core/transport/transport.ts';
import { MobileClient } from './mobile/index.ts';

export interface SauceClientOptions {
  /** Automation REST and AI authoring: account username. */
  username?: string;
  /** Automation REST and AI authoring: access key. */
  accessKey?: string;
  /** Mobile distribution: account email (the Basic user name for REST calls). */
  email?: string;
  /** Mobile distribution: API key of the data center in `mobileRegion`. */
  apiKey?: string;
  /** Mobile distribution: OIDC bearer token, used instead of the API key. */
  oidcToken?: string;
  /** Mobile distribution: the `X-OIDC-Config-Key` sent with the bearer token. */
  oidcConfigKey?: string;
  /** Automation and authoring region (default us-west-1). */
  region?: AutomationRegion;
  /** Mobile distribution data center (default us-east-1). */
  mobileRegion?: MobileRegion;
  /** One base address replacing every region's (a gateway, or the emulator). */
  apiUrl?: string;
  /** Per-interface base addresses; each wins over `apiUrl` and the region. */
  automationUrl?: string;
  authoringUrl?: string;
  mobileUrl?: string;
  uploadUrl?: string;
  /** Dashboard host for job links; default the region's, or `apiUrl` when that is set. */
  dashboardUrl?: string;
  /** Path prefix of AI authoring (default `/v1/ai-authoring`). */
  authoringPrefix?: string;
  /** undici dispatcher shared by every request (default: keep-alive pools, proxies from the environment). */
  dispatcher?: Dispatcher;
  retry?: Partial<RetryPolicy>;
  timeouts?: Partial<Timeouts>;
  /**
   * The largest answer read whole (JSON, text), in bytes: a larger one fails, saying how much
   * came, of what type, for which operation (default 8 MiB). Downloads stream and are not bound by it.
   */
  maxAnswerBytes?: number;
  logger?: Logger;
  userAgent?: string;
}

export class SauceClient {
  readonly authoring: AuthoringClient;
  readonly mobile: MobileClient;
  readonly automation: AutomationClient;
  readonly #pools: ConnectionPools;
  readonly #region: AutomationRegion;
  readonly #dashboardUrl: string | undefined;

  constructor(options: SauceClientOptions = {}) {
    checkOptions(options);
    this.#pools = new ConnectionPools({
      dispatcher: options.dispatcher,
      connectMs: options.timeouts?.connectMs ?? DEFAULT_TIMEOUTS.connectMs,
      logger: options.logger,
    });
    this.#region = options.region ?? 'us-west-1';
    this.#dashboardUrl = options.dashboardUrl ?? options.apiUrl;

    const shared = {
      pools: this.#pools,
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.timeouts ? { timeouts: options.timeouts } : {}),
      ...(options.maxAnswerBytes !== undefined ? { maxAnswerBytes: options.maxAnswerBytes } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.userAgent ? { userAgent: options.userAgent } : {}),
    };
    const sauceCredentials =
      options.username !== undefined && options.accessKey !== undefined
        ? new BasicCredentials(options.username, options.accessKey)
        : undefined;
    const automationUrl = options.automationUrl ?? options.apiUrl ?? automationBaseUrl(this.#region);
    const authoringUrl = options.authoringUrl ?? options.apiUrl ?? automationBaseUrl(this.#region);
    const mobileHosts = mobileBaseUrls(options.mobileRegion ?? 'us-east-1');

    let mobileCredentials: Credentials | undefined;
    if (options.oidcToken !== undefined) {
      mobileCredentials = new BearerCredentials(options.oidcToken, options.oidcConfigKey ?? '');
    } else if (options.apiKey !== undefined) {
      mobileCredentials = new BasicCredentials(options.email ?? '', options.apiKey);
    }

    this.automation = new AutomationClient({
      http: new HttpTransport({ baseUrl: automationUrl, ...withCredentials(sauceCredentials), ...shared }),
      username: options.username ?? '',
    });
    this.authoring = new AuthoringClient({
      http: new HttpTransport({ baseUrl: authoringUrl, ...withCredentials(sauceCredentials), ...shared }),
      ...(options.authoringPrefix ? { prefix: options.authoringPrefix } : {}),
    });
    this.mobile = new MobileClient({
      http: new HttpTransport({
        baseUrl: options.mobileUrl ?? options.apiUrl ?? mobileHosts.rest,
        ...withCredentials(mobileCredentials),
        ...shared,
      }),
      upload: new HttpTransport({
        baseUrl: options.uploadUrl ?? options.apiUrl ?? mobileHosts.upload,
        ...withCredentials(mobileCredentials),
        ...shared,
      }),
    });
  }

  /**
   * The service's clock, from the `Date` header of its answers: windows over the service's
   * records (jobs created since a run started) are reckoned on it, not on this machine's clock.
   */
  get serviceClock(): ServiceClock {
    return this.#pools.serviceClock;
  }

  /** Link to a job on the dashboard of the account's region. */
  jobUrl(jobId: string): string {
    return jobDashboardUrl(jobId, {
      region: this.#region,
      ...(this.#dashboardUrl ? { baseUrl: this.#dashboardUrl } : {}),
    });
  }

  /** Closes the connection pools when the client created them. */
  async close(): Promise<void> {
    await this.#pools.close();
  }
}

/** Rejects what would otherwise fail later and obscurely (a request to `undefined`, an empty header). */
function checkOptions(options: SauceClientOptions): void {
  if (options.region !== undefined && !isAutomationRegion(options.region)) {
    throw new TypeError(`unknown region "${options.region}": use one of ${AUTOMATION_REGIONS.join(', ')}`);
  }
  if (options.mobileRegion !== undefined && !isMobileRegion(options.mobileRegion)) {
    throw new TypeError(
      `unknown mobile distribution region "${options.mobileRegion}": use one of ${MOBILE_REGIONS.join(', ')}`,
    );
  }
  if (
    options.maxAnswerBytes !== undefined &&
    !(Number.isSafeInteger(options.maxAnswerBytes) && options.maxAnswerBytes > 0)
  ) {
    throw new TypeError(
      `maxAnswerBytes must be a whole number of bytes above 0, got ${options.maxAnswerBytes}`,
    );
  }
  if (options.oidcToken !== undefined && !options.oidcConfigKey) {
    throw new TypeError('an OIDC token needs its configuration key (oidcConfigKey)');
  }
}

function withCredentials(credentials: Credentials | undefined): { credentials?: Credentials } {
  return credentials ? { credentials } : {};
}
