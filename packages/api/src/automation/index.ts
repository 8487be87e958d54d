import type { HttpTransport } from '../core/transport/transport.ts';
import { AutomationJobAssets } from './assets.ts';
import { AutomationBugs } from './bugs.ts';
import type { AutomationContext } from './context.ts';
import { AutomationInfo } from './info.ts';
import { AutomationJobs } from './jobs.ts';
import { AutomationJsTests } from './js-tests.ts';
import { AutomationPartners } from './partners.ts';
import { AutomationStorage } from './storage.ts';
import { AutomationTunnels } from './tunnels.ts';
import { AutomationUsers } from './users.ts';

export * from './types.ts';
export { jsTestFinished, jsTestJobId, jsTestsFinished } from './js-results.ts';
export {
  JS_FRAMEWORKS,
  JS_TEST_FRAMEWORKS,
  jsReportedTests,
  jsResultSeconds,
  jsTestCounts,
  jsTestPassed,
  type JsReportedTest,
  type JsTestCounts,
} from './js-frameworks.ts';
export { AutomationJobAssets } from './assets.ts';
export { AutomationBugs } from './bugs.ts';
export {
  AutomationInfo,
  type SauceConnectChecksum,
  type SauceConnectDownload,
  type SauceConnectDownloadParams,
} from './info.ts';
export { AutomationJobs } from './jobs.ts';
export { AutomationJsTests } from './js-tests.ts';
export { AutomationPartners } from './partners.ts';
export { AutomationStorage } from './storage.ts';
export { AutomationTunnels } from './tunnels.ts';
export {
  AutomationUsers,
  type CreateSubAccountParams,
  type GetUsageParams,
  type GetUserActivityParams,
} from './users.ts';

export interface AutomationClientOptions {
  http: HttpTransport;
  /** The account every `:username` path names unless a call gives another. */
  username: string;
}

/** Automation REST: users, activity, usage, jobs, assets, tunnels, info, partners, storage, JS unit tests, bugs. */
export class AutomationClient implements AutomationContext {
  readonly http: HttpTransport;
  readonly username: string;
  /** Accounts and sub-accounts, concurrency, activity, usage, access keys. */
  readonly users: AutomationUsers;
  readonly jobs: AutomationJobs;
  readonly assets: AutomationJobAssets;
  readonly tunnels: AutomationTunnels;
  /** Public service status and platforms. */
  readonly info: AutomationInfo;
  readonly partners: AutomationPartners;
  /** Temporary storage. */
  readonly storage: AutomationStorage;
  readonly jsTests: AutomationJsTests;
  readonly bugs: AutomationBugs;

  constructor(options: AutomationClientOptions) {
    this.http = options.http;
    this.username = options.username;
    this.users = new AutomationUsers(this);
    this.jobs = new AutomationJobs(this);
    this.assets = new AutomationJobAssets(this);
    this.tunnels = new AutomationTunnels(this);
    this.info = new AutomationInfo(this);
    this.partners = new AutomationPartners(this);
    this.storage = new AutomationStorage(this);
    this.jsTests = new AutomationJsTests(this);
    this.bugs = new AutomationBugs(this);
  }
}
