import { createHash, timingSafeEqual } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { StoreEnvironment } from '../store-environment.ts';
import { defaultBugTypes } from './bug-types.ts';
import { hexId, newAccessKey } from './ids.ts';
import { isFinished } from './job-view.ts';
import type {
  AccountRecord,
  AutomationData,
  BugRecord,
  JobRecord,
  JsTestRecord,
  StoredFileRecord,
  TunnelRecord,
  TunnelStatus,
} from './model.ts';
import type { AutomationSeed, TunnelSeed } from './seed.ts';

export type { AutomationData } from './model.ts';

/** What another interface (AI authoring runs, JS unit tests) gives to create a simulated job. */
export interface NewJobInput {
  name: string;
  /** Build name the job belongs to (the run's build). */
  build: string;
  browser: string;
  browserVersion?: string | undefined;
  os: string;
  /** Whether the simulated job ends passed (true) or failed (false). */
  passes: boolean;
  /** Account username owning the job; default the seed's first user. */
  owner?: string;
  tags?: string[];
  tunnelIdentifier?: string | null;
  customData?: Record<string, unknown>;
  automationBackend?: string;
  /** Longest run once started (the `maxDuration` capability), in milliseconds; absent: no limit. */
  maxDurationMs?: number;
}

/** The service keeps a file in temporary storage 7 days from its upload (seed 002, Limits). */
const STORAGE_RETENTION_MS = 7 * 86_400_000;

export interface NewAccountInput {
  username: string;
  name: string;
  email: string;
  plan?: string;
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

const seconds = (ms: number): number => Math.floor(ms / 1000);

export class AutomationStore {
  readonly data: AutomationData;
  readonly #env: StoreEnvironment;
  /** How long a simulated job takes from creation to its end. */
  readonly #jobDurationMs: number;

  constructor(env: StoreEnvironment, data: AutomationData, jobDurationMs: number) {
    this.#env = env;
    this.data = data;
    this.#jobDurationMs = jobDurationMs;
  }

  static initialData(seed: AutomationSeed, env: StoreEnvironment): AutomationData {
    const now = env.now();
    const data: AutomationData = {
      users: {},
      jobs: {},
      tunnels: {},
      storage: {},
      jsTests: {},
      bugs: {},
      bugTypes: defaultBugTypes(),
    };
    for (const user of seed.users ?? []) {
      data.users[user.username] = {
        id: hexId(),
        username: user.username,
        accessKey: user.accessKey,
        name: user.name ?? user.username,
        email: user.email ?? `${user.username}@example.com`,
        parent: user.parent ?? null,
        partner: user.partner ?? false,
        plan: user.plan ?? null,
        concurrencyLimit: {
          overall: user.concurrencyLimit ?? 5,
          mac: user.concurrencyLimit ?? 5,
          realDevice: 2,
        },
        creationTime: seconds(now) - 86_400 * 30,
      };
    }
    for (const tunnel of seed.tunnels ?? []) {
      const record = newTunnel(tunnel, now - 600_000);
      data.tunnels[record.id] = record;
    }
    for (const job of seed.jobs ?? []) {
      const durationMs = 60_000;
      const createdMs = now - (job.endedSecondsAgo ?? 600) * 1000 - durationMs;
      const record: JobRecord = {
        id: job.id ?? hexId(),
        owner: job.owner,
        name: job.name,
        build: job.build ?? null,
        browser: job.browser ?? 'chrome',
        browserVersion: job.browserVersion ?? '130.0',
        os: job.os ?? 'Windows 11',
        automationBackend: 'webdriver',
        passes: job.passes,
        passedOverride: null,
        tags: job.tags ?? [],
        customData: null,
        public: 'team',
        tunnelIdentifier: null,
        tunnelId: null,
        createdMs,
        durationMs,
        stoppedMs: null,
        modifiedMs: createdMs,
        assetsDeleted: false,
      };
      data.jobs[record.id] = record;
    }
    for (const bug of seed.bugs ?? []) {
      data.bugs[bug.id] = {
        id: bug.id,
        owner: bug.owner,
        type: bug.type,
        jobId: bug.jobId ?? null,
        properties: { Title: bug.title, Description: bug.description },
        creationTime: seconds(now) - 3000,
        modificationTime: seconds(now) - 3000,
      };
    }
    return data;
  }

  // ---- accounts ----

  /** Whether username and access key belong to an account (automation and AI authoring share accounts). */
  verifyUser(username: string, accessKey: string): boolean {
    const user = this.user(username);
    if (!user) return false;
    return timingSafeEqual(digest(user.accessKey), digest(accessKey));
  }

  user(username: string): AccountRecord | undefined {
    return Object.hasOwn(this.data.users, username) ? this.data.users[username] : undefined;
  }

  /** Whether `target` is `caller` or one of its sub-accounts, at any depth. */
  canActFor(caller: string, target: string): boolean {
    let current = this.user(target);
    for (let depth = 0; current && depth < 100; depth++) {
      if (current.username === caller) return true;
      current = current.parent === null ? undefined : this.user(current.parent);
    }
    return false;
  }

  subAccountsOf(username: string): AccountRecord[] {
    return Object.values(this.data.users).filter((user) => user.parent === username);
  }

  createSubAccount(parent: string, input: NewAccountInput): AccountRecord {
    const parentRecord = this.user(parent);
    const record: AccountRecord = {
      id: hexId(),
      username: input.username,
      accessKey: newAccessKey(),
      name: input.name,
      email: input.email,
      parent,
      partner: false,
      plan: input.plan ?? null,
      concurrencyLimit: { ...(parentRecord?.concurrencyLimit ?? { overall: 5, mac: 5, realDevice: 2 }) },
      creationTime: seconds(this.#env.now()),
    };
    this.data.users[record.username] = record;
    this.#env.changed();
    return record;
  }

  /** Replaces the access key; the old one stops working at once. */
  changeAccessKey(username: string): string {
    const user = this.user(username);
    if (!user) throw new Error(`no account ${username}`);
    user.accessKey = newAccessKey();
    this.#env.changed();
    return user.accessKey;
  }

  setPlan(username: string, plan: string | null): void {
    const user = this.user(username);
    if (!user) throw new Error(`no account ${username}`);
    user.plan = plan;
    this.#env.changed();
  }

  // ---- jobs ----

  /** Creates a simulated job that moves through queued, in progress and its end over the job duration. */
  createJob(input: NewJobInput): { id: string } {
    const owner = input.owner ?? Object.keys(this.data.users)[0] ?? 'demo';
    const now = this.#env.now();
    const tunnel = input.tunnelIdentifier ? this.runningTunnel(owner, input.tunnelIdentifier) : undefined;
    const record: JobRecord = {
      id: hexId(),
      owner,
      name: input.name,
      build: input.build || null,
      browser: input.browser,
      browserVersion: input.browserVersion ?? 'latest',
      os: input.os,
      automationBackend: input.automationBackend ?? 'webdriver',
      passes: input.passes,
      passedOverride: null,
      tags: input.tags ?? [],
      customData: input.customData ?? null,
      public: 'team',
      tunnelIdentifier: input.tunnelIdentifier ?? null,
      tunnelId: tunnel?.id ?? null,
      createdMs: now,
      durationMs: this.#jobDurationMs,
      ...(input.maxDurationMs !== undefined ? { maxDurationMs: input.maxDurationMs } : {}),
      stoppedMs: null,
      modifiedMs: now,
      assetsDeleted: false,
    };
    this.data.jobs[record.id] = record;
    this.#env.changed();
    return { id: record.id };
  }

  job(id: string): JobRecord | undefined {
    return Object.hasOwn(this.data.jobs, id) ? this.data.jobs[id] : undefined;
  }

  /** The owner's jobs, newest first. */
  jobsOf(owner: string): JobRecord[] {
    return Object.values(this.data.jobs)
      .filter((job) => job.owner === owner)
      .sort((a, b) => b.createdMs - a.createdMs);
  }

  allJobs(): JobRecord[] {
    return Object.values(this.data.jobs).sort((a, b) => b.createdMs - a.createdMs);
  }

  updateJob(
    id: string,
    update: {
      name?: string;
      tags?: string[];
      customData?: Record<string, unknown> | null;
      passed?: boolean;
      build?: string;
      public?: string;
    },
  ): JobRecord {
    const job = this.mustJob(id);
    if (update.name !== undefined) job.name = update.name;
    if (update.tags !== undefined) job.tags = update.tags;
    if (update.customData !== undefined) job.customData = update.customData;
    if (update.passed !== undefined) job.passedOverride = update.passed;
    if (update.build !== undefined) job.build = update.build;
    if (update.public !== undefined) job.public = update.public;
    job.modifiedMs = this.#env.now();
    this.#env.changed();
    return job;
  }

  /** Ends a queued or running job as error; a finished job stays as it is. */
  stopJob(id: string): JobRecord {
    const job = this.mustJob(id);
    const now = this.#env.now();
    if (!isFinished(job, now)) {
      job.stoppedMs = now;
      job.modifiedMs = now;
      this.#env.changed();
    }
    return job;
  }

  /** Removes the job with its assets (assets are generated from the job, so nothing else is left). */
  deleteJob(id: string): void {
    Reflect.deleteProperty(this.data.jobs, id);
    this.#env.changed();
  }

  deleteAssets(id: string): void {
    const job = this.mustJob(id);
    job.assetsDeleted = true;
    job.modifiedMs = this.#env.now();
    this.#env.changed();
  }

  /** Jobs of the owner not finished yet that run through the tunnel. */
  runningJobsThrough(tunnel: TunnelRecord): number {
    const now = this.#env.now();
    return Object.values(this.data.jobs).filter(
      (job) => job.owner === tunnel.owner && job.tunnelId === tunnel.id && !isFinished(job, now),
    ).length;
  }

  // ---- tunnels ----

  /** Whether the user has a running tunnel with this `tunnel_identifier`. */
  hasRunningTunnel(owner: string, tunnelIdentifier: string): boolean {
    return this.runningTunnel(owner, tunnelIdentifier) !== undefined;
  }

  runningTunnel(owner: string, tunnelIdentifier: string): TunnelRecord | undefined {
    return Object.values(this.data.tunnels).find(
      (tunnel) =>
        tunnel.owner === owner &&
        tunnel.tunnel_identifier === tunnelIdentifier &&
        tunnel.status === 'running',
    );
  }

  tunnel(id: string): TunnelRecord | undefined {
    return Object.hasOwn(this.data.tunnels, id) ? this.data.tunnels[id] : undefined;
  }

  tunnelsOf(owner: string): TunnelRecord[] {
    return Object.values(this.data.tunnels).filter((tunnel) => tunnel.owner === owner);
  }

  allTunnels(): TunnelRecord[] {
    return Object.values(this.data.tunnels);
  }

  createTunnel(seed: TunnelSeed): TunnelRecord {
    const record = newTunnel(seed, this.#env.now());
    this.data.tunnels[record.id] = record;
    this.#env.changed();
    return record;
  }

  /** Changes a tunnel's status or name, keeping its timestamps consistent with the status. */
  updateTunnel(id: string, update: { status?: TunnelStatus; tunnel_identifier?: string }): TunnelRecord {
    const tunnel = this.tunnel(id);
    if (!tunnel) throw new Error(`no tunnel ${id}`);
    const now = seconds(this.#env.now());
    if (update.tunnel_identifier !== undefined) tunnel.tunnel_identifier = update.tunnel_identifier;
    if (update.status !== undefined && update.status !== tunnel.status) {
      tunnel.status = update.status;
      if (update.status === 'running') {
        tunnel.launch_time ??= now;
        tunnel.last_connected = now;
        tunnel.shutdown_time = null;
      }
      if (update.status === 'terminated') tunnel.shutdown_time = now;
    }
    this.#env.changed();
    return tunnel;
  }

  /**
   * What the service does when Sauce Connect starts a tunnel outside a pool: the running tunnels
   * of the owner with that name are shut down (Sauce Connect 5 docs, tunnel pools).
   */
  replaceCollidingTunnels(owner: string, tunnelIdentifier: string): void {
    for (const tunnel of this.tunnelsOf(owner)) {
      if (tunnel.tunnel_identifier === tunnelIdentifier && tunnel.status !== 'terminated') {
        this.updateTunnel(tunnel.id, { status: 'terminated' });
      }
    }
  }

  /** Shuts a tunnel down at the user's request. */
  shutdownTunnel(id: string): TunnelRecord {
    const tunnel = this.updateTunnel(id, { status: 'terminated' });
    tunnel.user_shutdown = true;
    this.#env.changed();
    return tunnel;
  }

  // ---- temporary storage ----

  /** Where the bytes of a stored file live. */
  storagePath(owner: string, name: string): string {
    return path.join(this.#env.filesDir, 'storage', encodeURIComponent(owner), encodeURIComponent(name));
  }

  storedFile(owner: string, name: string): StoredFileRecord | undefined {
    this.#expireStoredFiles(owner);
    const files = this.data.storage[owner];
    return files && Object.hasOwn(files, name) ? files[name] : undefined;
  }

  storedFiles(owner: string): StoredFileRecord[] {
    this.#expireStoredFiles(owner);
    return Object.values(this.data.storage[owner] ?? {});
  }

  /** Forgets the owner's files older than the retention period, with their bytes. */
  #expireStoredFiles(owner: string): void {
    const files = this.data.storage[owner];
    if (!files) return;
    const now = this.#env.now();
    let expired = false;
    for (const [name, record] of Object.entries(files)) {
      if (now < record.mtime * 1000 + STORAGE_RETENTION_MS) continue;
      Reflect.deleteProperty(files, name);
      rmSync(this.storagePath(owner, name), { force: true });
      expired = true;
    }
    if (expired) this.#env.changed();
  }

  recordStoredFile(owner: string, record: StoredFileRecord): void {
    (this.data.storage[owner] ??= {})[record.name] = record;
    this.#env.changed();
  }

  // ---- JS unit tests ----

  addJsTest(record: JsTestRecord): void {
    this.data.jsTests[record.id] = record;
    this.#env.changed();
  }

  jsTest(id: string): JsTestRecord | undefined {
    return Object.hasOwn(this.data.jsTests, id) ? this.data.jsTests[id] : undefined;
  }

  // ---- bugs ----

  bug(id: string): BugRecord | undefined {
    return Object.hasOwn(this.data.bugs, id) ? this.data.bugs[id] : undefined;
  }

  updateBug(id: string, properties: Record<string, string>): BugRecord {
    const bug = this.bug(id);
    if (!bug) throw new Error(`no bug ${id}`);
    Object.assign(bug.properties, properties);
    bug.modificationTime = seconds(this.#env.now());
    this.#env.changed();
    return bug;
  }

  private mustJob(id: string): JobRecord {
    const job = this.job(id);
    if (!job) throw new Error(`no job ${id}`);
    return job;
  }
}

function newTunnel(seed: TunnelSeed, createdMs: number): TunnelRecord {
  const created = seconds(createdMs);
  const status = seed.status ?? 'running';
  const id = seed.id ?? hexId();
  return {
    id,
    owner: seed.owner,
    status,
    tunnel_identifier: seed.tunnel_identifier,
    creation_time: created,
    launch_time: status === 'running' || status === 'halting' || status === 'terminated' ? created + 5 : null,
    last_connected: status === 'running' ? created + 5 : null,
    shutdown_time: status === 'terminated' ? created + 60 : null,
    user_shutdown: status === 'terminated' ? true : null,
    shared_tunnel: false,
    host: `maki${id.slice(0, 4)}.miami.saucelabs.com`,
    ip_address: status === 'running' ? '127.0.0.1' : null,
    domain_names: ['sauce-connect.proxy'],
    direct_domains: null,
    no_ssl_bump_domains: null,
    vm_version: '5.2.0',
    metadata: {
      hostname: 'localhost',
      git_version: 'emulated',
      platform: 'Linux x86_64',
      command: `sc run --tunnel-name ${seed.tunnel_identifier}`,
      build: 'emulated',
      release: '5.2.0',
    },
  };
}
