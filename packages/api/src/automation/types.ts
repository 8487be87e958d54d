/**
 * Types of the automation REST interface. Fields follow the interface's documents; answers are
 * returned as parsed, so fields not listed here still pass through.
 */
import type { JsTestFramework } from './js-frameworks.ts';

/** The account a `:username` path names, when it is not the client's own. */
export interface ForAccount {
  /** Account named in the path; default the client's username. */
  username?: string;
}

/** A point in time: a `Date`, or Unix time in seconds. */
export type AutomationTime = Date | number;

// ---- accounts ----

/** An account as `GET /users/:username` answers it. */
export interface AutomationUser {
  id?: string;
  username?: string;
  email?: string;
  first_name?: string | null;
  last_name?: string | null;
  name?: string | null;
  parent?: string | null;
  [field: string]: unknown;
}

/** Body of a sub-account creation; `plan` only for partner accounts. */
export interface NewSubAccount {
  username: string;
  password: string;
  name: string;
  email: string;
  /** Partner accounts: the plan the new sub-account subscribes to. */
  plan?: string;
}

/** One bucket of concurrency counts. */
export interface ConcurrencyCounts {
  overall?: number;
  mac?: number;
  manual?: number;
  [kind: string]: number | undefined;
}

/** Concurrency of an account: limits and current use, keyed by account (or organisation and team). */
export interface AutomationConcurrency {
  concurrency: Record<
    string,
    { current?: ConcurrencyCounts; remaining?: ConcurrencyCounts; [k: string]: unknown }
  >;
  [field: string]: unknown;
}

/** Job counts of one account. */
export interface ActivityCounts {
  'in progress': number;
  all: number;
  queued: number;
}

/** Real-time job counts of an account and its sub-accounts (`GET /:username/activity`). */
export interface AutomationActivity {
  subaccounts: Record<string, ActivityCounts>;
  totals: ActivityCounts;
}

/** Concurrency (mean and peak), minutes and jobs over a duration (`GET /users/:username/activity`). */
export type AutomationUserActivity = Record<string, unknown>;

/** One day of usage: the date and `[number of jobs, VM time in seconds]`. */
export type AutomationUsageDay = [date: string, usage: [jobs: number, vmSeconds: number]];

export interface AutomationUsage {
  usage: AutomationUsageDay[];
  username: string;
}

/** The answer to an access key change: the account, with the new key in `access_key`. */
export interface AccessKeyChange {
  access_key?: string;
  [field: string]: unknown;
}

// ---- jobs ----

/** Overall outcome the service derives for a job. */
export type ConsolidatedStatus = 'error' | 'passed' | 'failed' | 'complete';

/** A job with every field (`GET /:username/jobs/:job_id`, or the list with `full=true`). */
export interface Job {
  id: string;
  name: string | null;
  build: string | null;
  /** new, queued, in progress, complete, error; real-device jobs also passed and failed. */
  status: string;
  /** Null when never set. */
  passed: boolean | null;
  consolidated_status: ConsolidatedStatus | string;
  error: string | null;
  owner: string;
  browser: string;
  browser_version: string;
  browser_short_version: string;
  os: string;
  automation_backend: string;
  /** Unix seconds; null when the service gave none, or none that reads as a time. */
  creation_time: number | null;
  start_time: number | null;
  end_time: number | null;
  modification_time: number | null;
  video_url: string | null;
  log_url: string | null;
  tags: string[];
  'custom-data': Record<string, unknown> | null;
  public: string | boolean;
  assigned_tunnel_id: string | null;
  proxied: boolean;
  manual: boolean;
  commands_not_successful: number;
  base_config: Record<string, unknown>;
  command_counts: Record<string, number>;
  record_video: boolean;
  record_screenshots: boolean;
  [field: string]: unknown;
}

/** A list entry without `full=true`: the id only. */
export interface JobRef {
  id: string;
}

export interface ListJobsParams extends ForAccount {
  /** Jobs per answer (service default 100). */
  limit?: number;
  /** Whole jobs instead of ids. */
  full?: boolean;
  /** Jobs to pass over first. */
  skip?: number;
  /** Earliest creation time. */
  from?: AutomationTime;
  /** Latest creation time. */
  to?: AutomationTime;
  /** Answer format (service default json); csv answers text. */
  format?: 'json' | 'csv';
}

export interface IterateJobsParams extends ForAccount {
  full?: boolean;
  from?: AutomationTime;
  to?: AutomationTime;
  /** Jobs per request (default 100). */
  pageSize?: number;
  /** Stop after this many jobs. */
  maxItems?: number;
}

/** What a job update may change. */
export interface JobUpdate {
  tags?: string[];
  name?: string;
  /** Sent as `custom-data`. */
  customData?: Record<string, unknown>;
  passed?: boolean;
  build?: string;
  public?: string | boolean;
}

/** Asset names (`sauce-log`, `selenium-log`, `video`, `screenshots`, …) mapped to file names, or null when not captured. */
export type JobAssetList = Record<string, string | string[] | null>;

export interface DownloadJobAssetParams extends ForAccount {
  /** Name of the file written in the folder (default the asset's file name); reduced to a safe base name. */
  saveAs?: string;
  /** Most bytes to write: past them (or announced over them) the download stops, nothing is kept, and it fails with `DownloadLimitError`. */
  maxBytes?: number;
}

// ---- tunnels ----

export type TunnelStatus = 'new' | 'booting' | 'deploying' | 'halting' | 'running' | 'terminated';

export interface TunnelMetadata {
  hostname?: string;
  git_version?: string;
  platform?: string;
  command?: string;
  build?: string;
  release?: string;
  [field: string]: unknown;
}

export interface Tunnel {
  id: string;
  owner: string;
  status: TunnelStatus | string;
  /** The name the tunnel's client gave it. */
  tunnel_identifier: string | null;
  /** Unix seconds; null when the service gave none, or none that reads as a time (so the other times). */
  creation_time: number | null;
  launch_time: number | null;
  last_connected: number | null;
  shutdown_time: number | null;
  user_shutdown: boolean | null;
  shared_tunnel: boolean;
  host: string | null;
  ip_address: string | null;
  domain_names: string[] | null;
  direct_domains: string[] | null;
  no_ssl_bump_domains: string[] | null;
  vm_version: string | null;
  metadata: TunnelMetadata | null;
  [field: string]: unknown;
}

export interface ListTunnelsParams extends ForAccount {
  /** Whole tunnels instead of ids. */
  full?: boolean;
}

export interface DeleteTunnelParams extends ForAccount {
  /** Why the tunnel is shut down, sent as a JSON body. */
  reason?: string;
}

export interface TunnelDeletion {
  result: boolean;
  id: string;
  /** Jobs still running through the tunnel. */
  jobs_running: number;
}

// ---- information ----

export interface AutomationServiceStatus {
  service_operational?: boolean;
  status_message?: string;
  wait_time?: number;
  [field: string]: unknown;
}

/** Automation interfaces whose platforms can be listed; the service may accept others. */
export type AutomationApi = 'webdriver' | 'appium' | 'all' | (string & {});

export interface AutomationPlatform {
  api_name?: string;
  long_name?: string;
  short_version?: string;
  long_version?: string;
  os?: string;
  automation_backend?: string;
  device?: string;
  [field: string]: unknown;
}

// ---- partners ----

export type PartnerSubscription = Record<string, unknown>;

// ---- temporary storage ----

export interface UploadTemporaryFileParams extends ForAccount {
  /** Name stored on the service (default the local file's base name). */
  fileName?: string;
  /** Replace a stored file of the same name (the service keeps it by default). */
  overwrite?: boolean;
}

export interface TemporaryFileUpload {
  username?: string;
  filename?: string;
  size?: number;
  md5?: string;
  etag?: string;
  [field: string]: unknown;
}

export interface TemporaryFile {
  name: string;
  size?: number;
  mtime?: number;
  md5?: string;
  [field: string]: unknown;
}

export interface TemporaryFileList {
  files: TemporaryFile[];
  [field: string]: unknown;
}

// ---- JS unit tests ----

/** A framework the JS unit tests interface accepts: a row of `JS_FRAMEWORKS`. */
export type { JsTestFramework };

/** `[operating system, browser, version]`. */
export type JsTestPlatform = [os: string, browser: string, version: string];

export interface StartJsTestsParams extends ForAccount {
  platforms: JsTestPlatform[];
  url: string;
  framework: JsTestFramework;
  tunnelIdentifier?: string;
  parentTunnel?: string;
  build?: string;
  name?: string;
  tags?: string[];
  /** Seconds (service default 180). */
  maxDuration?: number;
  /** Further desired capabilities, passed on as members of the body. */
  capabilities?: Record<string, unknown>;
}

export interface JsTestsStarted {
  /** One id per platform, in the order given. */
  'js tests': string[];
}

/** What the test page reported; its members depend on the framework (custom: `window.global_test_results`). */
export interface JsTestResult {
  passed?: number | boolean;
  failed?: number;
  total?: number;
  failures?: number;
  passes?: number;
  duration?: number;
  tests?: { name: string; result: boolean; message?: string; duration?: number }[];
  [field: string]: unknown;
}

export interface JsTestStatus {
  id: string;
  /** The job's id, or a placeholder text until a job is assigned. */
  job_id: string;
  platform: JsTestPlatform;
  url: string;
  /**
   * What the page reported; null until then and for a job that ended without results (stopped);
   * a text for a job cut off at its maximum duration ("Test exceeded maximum duration after 180
   * seconds"). Only an object can pass.
   */
  result: JsTestResult | string | null;
  [field: string]: unknown;
}

export interface JsTestStatusAnswer {
  completed: boolean;
  'js tests': JsTestStatus[];
}

// ---- bugs ----

export type AutomationBugType = Record<string, unknown>;
export type AutomationBugTypeFields = Record<string, unknown>;
export type AutomationBug = Record<string, unknown>;

/** The only properties of a bug the service lets a client change. */
export interface AutomationBugUpdate {
  Title?: string;
  Description?: string;
}
