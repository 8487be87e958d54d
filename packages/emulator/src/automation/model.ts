/** Records the automation store keeps: plain JSON so that snapshots and resets are trivial. */

/** The records keep the times the interface answers in Unix seconds. */
export const unixSeconds = (ms: number): number => Math.floor(ms / 1000);

export interface AccountRecord {
  id: string;
  username: string;
  accessKey: string;
  name: string;
  email: string;
  /** The account that created this one as a sub-account, or null for a top-level account. */
  parent: string | null;
  /** Partner accounts may create sub-accounts with a plan and manage their subscriptions. */
  partner: boolean;
  plan: string | null;
  concurrencyLimit: { overall: number; mac: number; realDevice: number };
  creationTime: number;
}

export interface JobRecord {
  id: string;
  owner: string;
  name: string;
  build: string | null;
  browser: string;
  browserVersion: string;
  os: string;
  automationBackend: string;
  /** The outcome the simulated run reaches when it is not stopped. */
  passes: boolean;
  /** A `passed` value a client set through an update; wins over `passes`. */
  passedOverride: boolean | null;
  tags: string[];
  customData: Record<string, unknown> | null;
  public: string;
  tunnelIdentifier: string | null;
  /** Id of the tunnel the job ran through, resolved at creation. */
  tunnelId: string | null;
  createdMs: number;
  durationMs: number;
  /**
   * Longest time the job may run once started (the `maxDuration` capability); a run that would
   * last longer ends in error when it is reached. Absent: no limit.
   */
  maxDurationMs?: number;
  stoppedMs: number | null;
  modifiedMs: number;
  assetsDeleted: boolean;
}

export type TunnelStatus = 'new' | 'booting' | 'deploying' | 'halting' | 'running' | 'terminated';

export interface TunnelRecord {
  id: string;
  owner: string;
  status: TunnelStatus;
  tunnel_identifier: string;
  creation_time: number;
  launch_time: number | null;
  last_connected: number | null;
  shutdown_time: number | null;
  user_shutdown: boolean | null;
  shared_tunnel: boolean;
  host: string;
  ip_address: string | null;
  domain_names: string[];
  direct_domains: string[] | null;
  no_ssl_bump_domains: string[] | null;
  vm_version: string;
  metadata: {
    hostname: string;
    git_version: string;
    platform: string;
    command: string;
    build: string;
    release: string;
  };
}

export interface StoredFileRecord {
  name: string;
  size: number;
  md5: string;
  /** Unix seconds. */
  mtime: number;
}

export interface JsTestRecord {
  id: string;
  owner: string;
  url: string;
  framework: string;
  platform: [string, string, string];
  jobId: string;
}

export interface BugRecord {
  id: string;
  owner: string;
  type: string;
  jobId: string | null;
  properties: Record<string, string>;
  creationTime: number;
  modificationTime: number;
}

export interface BugTypeRecord {
  id: string;
  name: string;
  description: string;
  fields: { name: string; type: string; required: boolean; editable: boolean }[];
}

export interface AutomationData {
  users: Record<string, AccountRecord>;
  jobs: Record<string, JobRecord>;
  tunnels: Record<string, TunnelRecord>;
  /** Stored files per username; the bytes live under the files folder. */
  storage: Record<string, Record<string, StoredFileRecord>>;
  jsTests: Record<string, JsTestRecord>;
  bugs: Record<string, BugRecord>;
  bugTypes: BugTypeRecord[];
  /**
   * Sauce Connect builds the download listing offers, by `version/os/arch`; the archives live under
   * the files folder. Absent in snapshots written before the listing existed.
   */
  sauceConnectBuilds?: Record<string, SauceConnectBuildRecord>;
}

/** One published Sauce Connect archive, as the download listing describes it. */
export interface SauceConnectBuildRecord {
  version: string;
  /** `linux`, `macos` or `windows`, as the listing's `os` query names them. */
  os: string;
  /** `x86_64` or `arm64`, as the listing's `arch` query names them. */
  arch: string;
  fileName: string;
  /** What the listing publishes for the archive: its digests, or wrong ones to stand for tampering. */
  checksums: { algorithm: string; value: string }[];
}
