/** State and state transitions of mobile app distribution. Routes only translate HTTP to these calls. */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { StoreEnvironment } from '../store-environment.ts';
import { AUDIT, type AuditKind } from './audit-types.ts';
import { CODE, MobileError, invalid, notFound } from './errors.ts';
import type {
  Build,
  Group,
  Invite,
  MobileAccount,
  MobileData,
  Project,
  Site,
  Tester,
  Webhook,
} from './model.ts';
import type { MobileSeed } from './seed.ts';

export type { MobileData } from './model.ts';

/** Who did something, for the audit trail. */
export interface Actor {
  account: MobileAccount;
  ipAddress: string;
}

export interface NewBuild {
  appName: string;
  appVersion: string;
  appVersionCode: string;
  packageName: string;
  platform: string;
  fileName: string;
  storedFile: string;
  fileSize: number;
  symbolsFile?: string;
  tags: string[];
  metadata: Record<string, string>;
  changelog: string;
  groups: string[];
  folderName: string;
  landingPageMode: string;
  notify: boolean;
  autoUpdate: boolean;
  uploadToVendor: boolean;
}

export interface BuildChanges {
  changelog?: string;
  tags?: string[];
  groups?: string[];
  landingPageMode?: string;
  metadata?: Record<string, string>;
}

export interface CopyRequest {
  folderName: string;
  appName?: string;
  groups?: string[];
  projectGroups?: string[];
  allowAllTesters?: boolean;
}

export interface WebhookInput {
  name: string;
  url: string;
  enabled: boolean;
  actions: string[];
  projectIds: number[];
}

export const WEBHOOK_ACTIONS = ['crash', 'feedback', 'upload', 'new-udid'] as const;

export function code(): string {
  return randomBytes(12).toString('hex');
}

function sameSecret(given: string, expected: string | undefined): boolean {
  if (expected === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

export class MobileStore {
  readonly data: MobileData;
  readonly #env: StoreEnvironment;

  constructor(env: StoreEnvironment, data: MobileData) {
    this.#env = env;
    this.data = data;
  }

  static initialData(seed: MobileSeed, env: StoreEnvironment): MobileData {
    const now = env.now();
    const data: MobileData = {
      accounts: seed.accounts.map((account, index) => ({
        id: index + 1,
        email: account.email,
        apiKey: account.apiKey,
        oidcToken: account.oidcToken,
        oidcConfigKey: account.oidcConfigKey,
        role: account.role ?? 'account-owner',
        permissions: account.permissions ?? ['*:rw'],
      })),
      requireLogin: seed.requireLogin ?? false,
      siteName: seed.siteName ?? 'demo',
      enterpriseId: seed.enterpriseId ?? '1001',
      projects: [],
      builds: [],
      testers: [],
      groups: [],
      invites: [],
      webhooks: [],
      sites: [],
      feedbacks: [],
      audits: [],
      events: [],
      nextId: { project: 1, build: 1, tester: 1, group: 1, webhook: 1, site: 1, audit: 1, feedback: 1 },
    };
    const store = new MobileStore(env, data);
    for (const group of seed.groups ?? []) store.ensureGroup(group.name, group.private ?? false);
    for (const tester of seed.testers ?? []) {
      const created = store.ensureTester(tester.email);
      created.blocked = tester.blocked ?? false;
      for (const name of tester.groups ?? []) {
        const group = store.ensureGroup(name, false);
        if (!group.testerIds.includes(created.id)) group.testerIds.push(created.id);
      }
    }
    for (const feedback of seed.feedbacks ?? []) {
      data.feedbacks.push({
        id: data.nextId.feedback++,
        text: feedback.text,
        buildId: feedback.buildId ?? null,
        projectId: feedback.projectId ?? null,
        recordedAt: feedback.recordedAt ?? now,
        source: feedback.source ?? 'shake',
        reportedBy: feedback.reportedBy ?? '',
        sessionId: String(1000 + data.feedbacks.length),
        screenshotUrl: feedback.screenshotUrl ?? '',
      });
    }
    return data;
  }

  private nextId(kind: keyof MobileData['nextId']): number {
    return this.data.nextId[kind]++;
  }

  private changed(): void {
    this.#env.changed();
  }

  // Accounts

  accountByApiKey(apiKey: string, email?: string): MobileAccount | undefined {
    return this.data.accounts.find(
      (account) => (email === undefined || account.email === email) && sameSecret(apiKey, account.apiKey),
    );
  }

  accountByOidc(token: string, configKey: string): MobileAccount | undefined {
    return this.data.accounts.find(
      (account) => sameSecret(token, account.oidcToken) && sameSecret(configKey, account.oidcConfigKey),
    );
  }

  /** Whether the account may change builds of this project (`<id>:rw` or `*:rw`). */
  canWrite(account: MobileAccount, projectId: number): boolean {
    return account.permissions.some((entry) => entry === '*:rw' || entry === `${projectId}:rw`);
  }

  /** Admin permissions with all-projects access, which the v2 audits require. */
  isAllProjectsAdmin(account: MobileAccount): boolean {
    const admin = ['account-owner', 'account-manager', 'admin'].includes(account.role);
    return admin && account.permissions.some((entry) => entry.startsWith('*:'));
  }

  // Audit trail

  audit(actor: Actor, kind: AuditKind, actionData: Record<string, unknown>): void {
    this.data.audits.push({
      id: this.nextId('audit'),
      time: this.#env.now(),
      trail: kind.trail,
      siteName: this.data.siteName,
      enterpriseId: this.data.enterpriseId,
      userId: actor.account.id,
      userEmail: actor.account.email,
      ipAddress: actor.ipAddress,
      actionType: kind.type,
      actionData,
    });
  }

  private event(actor: Actor, eventType: string, build: Build): void {
    this.data.events.push({
      id: this.data.events.length + 1,
      time: this.#env.now(),
      ipAddress: actor.ipAddress,
      eventType,
      eventData: {
        projectId: build.projectId,
        buildId: build.id,
        appName: build.appName,
        appVersion: build.appVersion,
        testerEmail: actor.account.email,
        filesize: build.fileSize,
      },
    });
  }

  // Projects and builds

  /** Projects that still have a build, oldest first. */
  projects(): Project[] {
    return this.data.projects.filter((project) => this.buildsOf(project.id).length > 0);
  }

  project(id: number): Project {
    const project = this.data.projects.find((candidate) => candidate.id === id);
    if (!project || this.buildsOf(id).length === 0) throw notFound(`project ${id}`);
    return project;
  }

  /** Builds of a project, newest first. */
  buildsOf(projectId: number): Build[] {
    return this.data.builds.filter((build) => build.projectId === projectId).sort((a, b) => b.id - a.id);
  }

  build(projectId: number, buildId: number): Build {
    const build = this.data.builds.find(
      (candidate) => candidate.id === buildId && candidate.projectId === projectId,
    );
    if (!build) throw notFound(`build ${buildId} of project ${projectId}`);
    return build;
  }

  /**
   * Adds an uploaded build. A project is one package on one platform: a new version of the same
   * package on the same platform joins its project, whichever folder the upload names (the folder
   * only places a new project).
   */
  addBuild(actor: Actor, input: NewBuild): { project: Project; build: Build } {
    let project = this.data.projects.find(
      (candidate) => candidate.packageName === input.packageName && candidate.platform === input.platform,
    );
    if (!project) {
      project = {
        id: this.nextId('project'),
        name: input.appName,
        packageName: input.packageName,
        platform: input.platform,
        folderName: input.folderName,
        landingPageMode: input.landingPageMode,
        code: code(),
      };
      this.data.projects.push(project);
    } else {
      project.name = input.appName;
      project.landingPageMode = input.landingPageMode;
      if (input.folderName) project.folderName = input.folderName;
    }
    const build: Build = {
      id: this.nextId('build'),
      projectId: project.id,
      appName: input.appName,
      appDisplayName: input.appName,
      appVersion: input.appVersion,
      appVersionCode: input.appVersionCode,
      packageName: input.packageName,
      platform: input.platform,
      fileName: input.fileName,
      storedFile: input.storedFile,
      fileSize: input.fileSize,
      symbolsFile: input.symbolsFile,
      uploadedAt: this.#env.now(),
      uploadedVia: 'Upload API',
      uploaderEmail: actor.account.email,
      tags: input.tags,
      metadata: input.metadata,
      changelog: input.changelog,
      groups: input.groups.filter((name) => this.groupByName(name)),
      projectGroups: [],
      allowAllTesters: false,
      landingPageMode: input.landingPageMode,
      notify: input.notify,
      autoUpdate: input.autoUpdate,
      uploadToVendor: input.uploadToVendor,
      downloads: 0,
      code: code(),
    };
    this.data.builds.push(build);
    this.audit(actor, AUDIT.buildUploaded, {
      projectId: project.id,
      buildId: build.id,
      appName: build.appName,
      appVersion: build.appVersion,
      groups: build.groups,
    });
    this.event(actor, 'upload_app', build);
    this.changed();
    return { project, build };
  }

  /** Checks what a build update needs: an existing build, a non-tester account with write access. */
  checkBuildWrite(account: MobileAccount, projectId: number, buildId: number): Build {
    const build = this.data.builds.find(
      (candidate) => candidate.id === buildId && candidate.projectId === projectId,
    );
    if (!build) throw new MobileError(404, CODE.missingParameter, `Missing or invalid build-id: ${buildId}`);
    if (account.role === 'tester') {
      throw new MobileError(403, CODE.testerAccount, 'Tester accounts cannot update builds');
    }
    if (!this.canWrite(account, projectId)) {
      throw new MobileError(403, CODE.noWriteAccess, `No write access to project ${projectId}`);
    }
    return build;
  }

  updateBuild(actor: Actor, build: Build, changes: BuildChanges): Build {
    if (changes.landingPageMode === 'open' && this.data.requireLogin) {
      throw new MobileError(
        400,
        CODE.landingPageRequiresLogin,
        'landing_page_mode cannot be open: the account settings require login',
      );
    }
    const from: Record<string, unknown> = {};
    const to: Record<string, unknown> = {};
    const record = (field: string, before: unknown, after: unknown): void => {
      from[field] = before;
      to[field] = after;
    };
    if (changes.changelog !== undefined) {
      record('changelog', build.changelog, changes.changelog);
      build.changelog = changes.changelog;
    }
    if (changes.tags !== undefined) {
      record('tags', build.tags, changes.tags);
      build.tags = changes.tags;
    }
    if (changes.groups !== undefined) {
      const groups = changes.groups.filter((name) => this.groupByName(name));
      record('groups', build.groups, groups);
      build.groups = groups;
    }
    if (changes.landingPageMode !== undefined) {
      record('landingPageMode', build.landingPageMode, changes.landingPageMode);
      build.landingPageMode = changes.landingPageMode;
    }
    if (changes.metadata && Object.keys(changes.metadata).length > 0) {
      record('metadata', { ...build.metadata }, { ...build.metadata, ...changes.metadata });
      build.metadata = { ...build.metadata, ...changes.metadata };
    }
    this.audit(actor, AUDIT.buildUpdated, { projectId: build.projectId, buildId: build.id, from, to });
    this.changed();
    return build;
  }

  /**
   * Copies a build into a folder. A folder holds its own projects, so the copy becomes a build of
   * a new project in that folder, with the same package and platform.
   */
  copyBuild(
    actor: Actor,
    build: Build,
    request: CopyRequest,
    storedFile: string,
  ): {
    build: Build;
    assignedGroups: string[];
    invalidGroups: string[];
    assignedProjectGroups: string[];
    invalidProjectGroups: string[];
  } {
    const original = this.project(build.projectId);
    const groups = this.resolveGroups(request.groups ?? build.groups);
    const projectGroups = this.resolveGroups(request.projectGroups ?? build.projectGroups);
    const appName = request.appName ?? build.appName;
    const project: Project = {
      ...original,
      id: this.nextId('project'),
      name: appName,
      folderName: request.folderName,
      code: code(),
    };
    this.data.projects.push(project);
    const copy: Build = {
      ...build,
      id: this.nextId('build'),
      projectId: project.id,
      appName,
      appDisplayName: appName,
      storedFile,
      tags: [...build.tags],
      metadata: { ...build.metadata },
      groups: groups.found,
      projectGroups: projectGroups.found,
      allowAllTesters: request.allowAllTesters ?? build.allowAllTesters,
      uploadedAt: this.#env.now(),
      uploadedVia: 'Copy',
      downloads: 0,
      code: code(),
    };
    this.data.builds.push(copy);
    this.audit(actor, AUDIT.buildCopied, {
      projectId: build.projectId,
      buildId: build.id,
      to: { projectId: project.id, buildId: copy.id, folderName: request.folderName },
    });
    this.changed();
    return {
      build: copy,
      assignedGroups: groups.found,
      invalidGroups: groups.invalid,
      assignedProjectGroups: projectGroups.found,
      invalidProjectGroups: projectGroups.invalid,
    };
  }

  /** Deletes a build; the project leaves the list with its last build. Returns the stored files to remove. */
  deleteBuild(actor: Actor, build: Build): string[] {
    this.data.builds = this.data.builds.filter((candidate) => candidate.id !== build.id);
    this.data.invites = this.data.invites.filter((invite) => invite.buildId !== build.id);
    const projectGone = this.buildsOf(build.projectId).length === 0;
    if (projectGone) this.data.projects = this.data.projects.filter((p) => p.id !== build.projectId);
    this.audit(actor, AUDIT.buildDeleted, {
      projectId: build.projectId,
      buildId: build.id,
      appName: build.appName,
      appVersion: build.appVersion,
      projectDeleted: projectGone,
    });
    this.changed();
    return [build.storedFile, ...(build.symbolsFile ? [build.symbolsFile] : [])];
  }

  recordDownload(actor: Actor, build: Build): void {
    build.downloads += 1;
    this.event(actor, 'download_app', build);
    this.changed();
  }

  /** Testers who can reach a project: invited to one of its builds or members of one of its groups. */
  projectTesters(projectId: number): Tester[] {
    const builds = this.buildsOf(projectId);
    const ids = new Set<number>();
    for (const build of builds) {
      for (const invite of this.data.invites) if (invite.buildId === build.id) ids.add(invite.testerId);
      for (const name of [...build.groups, ...build.projectGroups]) {
        for (const id of this.groupByName(name)?.testerIds ?? []) ids.add(id);
      }
    }
    return this.data.testers.filter((tester) => ids.has(tester.id));
  }

  // Testers

  tester(id: number): Tester {
    const tester = this.data.testers.find((candidate) => candidate.id === id);
    if (!tester) throw notFound(`tester ${id}`);
    return tester;
  }

  private ensureTester(email: string): Tester {
    const existing = this.data.testers.find((tester) => tester.email.toLowerCase() === email.toLowerCase());
    if (existing) return existing;
    const tester: Tester = {
      id: this.nextId('tester'),
      email,
      blocked: false,
      createdAt: this.#env.now(),
      lastLogin: null,
    };
    this.data.testers.push(tester);
    return tester;
  }

  groupsOf(testerId: number): Group[] {
    return this.data.groups.filter((group) => group.testerIds.includes(testerId));
  }

  /** Adds testers (one or more emails), optionally into a group created when absent. */
  addTesters(actor: Actor, emails: string[], groupName?: string): Tester[] {
    for (const email of emails) if (!EMAIL.test(email)) throw invalid('email', `${email} is not an email`);
    const group = groupName ? this.ensureGroup(groupName, false, actor) : undefined;
    const testers = emails.map((email) => this.ensureTester(email));
    if (group) {
      for (const tester of testers) if (!group.testerIds.includes(tester.id)) group.testerIds.push(tester.id);
    }
    if (testers.length > 0) {
      this.audit(actor, AUDIT.testersAdded, {
        emails: testers.map((t) => t.email),
        group: groupName ?? null,
      });
    }
    this.changed();
    return testers;
  }

  /** Blocks or unblocks; invitations stay and return with the unblock. Unchanged state does nothing. */
  setBlocked(actor: Actor, tester: Tester, blocked: boolean): void {
    if (tester.blocked === blocked) return;
    tester.blocked = blocked;
    this.audit(actor, blocked ? AUDIT.testerBlocked : AUDIT.testerUnblocked, { email: tester.email });
    this.changed();
  }

  /** Deletes a tester: out of every group (empty groups are discarded) and invitations invalidated. */
  deleteTester(actor: Actor, tester: Tester): void {
    this.data.testers = this.data.testers.filter((candidate) => candidate.id !== tester.id);
    this.data.invites = this.data.invites.filter((invite) => invite.testerId !== tester.id);
    const groups = this.groupsOf(tester.id);
    this.audit(actor, AUDIT.testerDeleted, { email: tester.email, groups: groups.map((g) => g.name) });
    for (const group of groups) this.removeMembers(actor, group, [tester.id], false);
    this.changed();
  }

  // Groups

  group(id: number): Group {
    const group = this.data.groups.find((candidate) => candidate.id === id);
    if (!group) throw notFound(`group ${id}`);
    return group;
  }

  groupByName(name: string): Group | undefined {
    return this.data.groups.find((group) => group.name.toLowerCase() === name.toLowerCase());
  }

  /** Finds groups by name or id, keeping the ones that do not exist apart. */
  resolveGroups(namesOrIds: string[]): { found: string[]; invalid: string[]; groups: Group[] } {
    const groups: Group[] = [];
    const invalidNames: string[] = [];
    for (const entry of namesOrIds) {
      const group =
        this.groupByName(entry) ??
        (/^\d+$/.test(entry) ? this.data.groups.find((g) => g.id === Number(entry)) : undefined);
      if (group) {
        if (!groups.includes(group)) groups.push(group);
      } else invalidNames.push(entry);
    }
    return { found: groups.map((group) => group.name), invalid: invalidNames, groups };
  }

  ensureGroup(name: string, isPrivate: boolean, actor?: Actor): Group {
    const existing = this.groupByName(name);
    if (existing) return existing;
    const group: Group = { id: this.nextId('group'), name, private: isPrivate, testerIds: [] };
    this.data.groups.push(group);
    // Without an actor this is the seed being loaded: nothing to audit or persist yet.
    if (actor) {
      this.audit(actor, AUDIT.groupCreated, { groupId: group.id, name });
      this.changed();
    }
    return group;
  }

  createGroup(actor: Actor, name: string): Group {
    if (this.groupByName(name)) throw invalid('groupName', `a group named ${name} already exists`);
    return this.ensureGroup(name, false, actor);
  }

  /** Adds testers by email, creating tester accounts that do not exist yet. */
  addMembers(actor: Actor, group: Group, emails: string[]): void {
    for (const email of emails) if (!EMAIL.test(email)) throw invalid('email', `${email} is not an email`);
    const testers = emails.map((email) => this.ensureTester(email));
    for (const tester of testers) if (!group.testerIds.includes(tester.id)) group.testerIds.push(tester.id);
    this.audit(actor, AUDIT.groupMembersAdded, { groupId: group.id, name: group.name, emails });
    this.changed();
  }

  /** Removes members; a group left without members is discarded. */
  removeMembers(actor: Actor, group: Group, testerIds: number[], audit = true): void {
    const removed = this.data.testers.filter(
      (t) => testerIds.includes(t.id) && group.testerIds.includes(t.id),
    );
    group.testerIds = group.testerIds.filter((id) => !testerIds.includes(id));
    if (audit) {
      this.audit(actor, AUDIT.groupMembersRemoved, {
        groupId: group.id,
        name: group.name,
        emails: removed.map((t) => t.email),
      });
    }
    if (group.testerIds.length === 0 && (removed.length > 0 || testerIds.length > 0)) {
      this.data.groups = this.data.groups.filter((candidate) => candidate.id !== group.id);
      this.audit(actor, AUDIT.groupDiscarded, { groupId: group.id, name: group.name });
    }
    this.changed();
  }

  members(group: Group): Tester[] {
    return this.data.testers.filter((tester) => group.testerIds.includes(tester.id));
  }

  /** Projects whose builds give this group access. */
  groupProjects(group: Group): Project[] {
    return this.projects().filter((project) =>
      this.buildsOf(project.id).some((build) =>
        [...build.groups, ...build.projectGroups].some(
          (name) => name.toLowerCase() === group.name.toLowerCase(),
        ),
      ),
    );
  }

  // Invitations

  /** Invites the members of groups to a build, which also gives those groups access to it. */
  invite(actor: Actor, build: Build, groups: Group[], comment: string, notify: boolean): Tester[] {
    const now = this.#env.now();
    const invited: Tester[] = [];
    for (const group of groups) {
      if (!build.groups.includes(group.name)) build.groups.push(group.name);
      for (const tester of this.members(group)) {
        if (invited.includes(tester)) continue;
        invited.push(tester);
        const existing = this.data.invites.find((i) => i.buildId === build.id && i.testerId === tester.id);
        if (existing) existing.time = now;
        else this.data.invites.push({ buildId: build.id, testerId: tester.id, time: now, code: code() });
      }
    }
    this.audit(actor, AUDIT.testersInvited, {
      projectId: build.projectId,
      buildId: build.id,
      groups: groups.map((group) => group.name),
      emails: invited.map((tester) => tester.email),
      comment,
      notify,
    });
    this.changed();
    return invited;
  }

  inviteOf(buildId: number, testerId: number): Invite | undefined {
    return this.data.invites.find((invite) => invite.buildId === buildId && invite.testerId === testerId);
  }

  // Webhooks

  webhook(id: number): Webhook {
    const webhook = this.data.webhooks.find((candidate) => candidate.id === id);
    if (!webhook) throw notFound(`webhook ${id}`);
    return webhook;
  }

  createWebhook(actor: Actor, input: WebhookInput): Webhook {
    const webhook: Webhook = { id: this.nextId('webhook'), ...input };
    this.data.webhooks.push(webhook);
    this.audit(actor, AUDIT.webhookCreated, { webhookId: webhook.id, to: { ...input } });
    this.changed();
    return webhook;
  }

  updateWebhook(actor: Actor, webhook: Webhook, input: WebhookInput): Webhook {
    const { id: _id, ...before } = webhook;
    Object.assign(webhook, input);
    this.audit(actor, AUDIT.webhookUpdated, { webhookId: webhook.id, from: before, to: { ...input } });
    this.changed();
    return webhook;
  }

  deleteWebhook(actor: Actor, webhook: Webhook): void {
    this.data.webhooks = this.data.webhooks.filter((candidate) => candidate.id !== webhook.id);
    this.audit(actor, AUDIT.webhookDeleted, { webhookId: webhook.id, name: webhook.name });
    this.changed();
  }

  // Sites

  createSite(actor: Actor, name: string, loginMethod: number): Site {
    const taken =
      name.toLowerCase() === this.data.siteName.toLowerCase() || this.data.sites.some((s) => s.name === name);
    if (taken) throw invalid('name', `a site named ${name} already exists`);
    const site: Site = {
      id: String(this.nextId('site') + 2000),
      name,
      loginMethod,
      ownerEmail: actor.account.email,
    };
    this.data.sites.push(site);
    this.audit(actor, AUDIT.siteCreated, { siteId: site.id, name, loginMethod });
    this.changed();
    return site;
  }

  deleteSite(actor: Actor, id: string): void {
    const site = this.data.sites.find((candidate) => candidate.id === id);
    if (!site) {
      if (id === this.data.enterpriseId) throw invalid('site-id', "the account's own site cannot be deleted");
      throw notFound(`site ${id}`);
    }
    this.data.sites = this.data.sites.filter((candidate) => candidate !== site);
    this.audit(actor, AUDIT.siteDeleted, { siteId: site.id, name: site.name });
    this.changed();
  }
}
