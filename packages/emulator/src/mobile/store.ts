/**
 * State and state transitions of mobile app distribution: one part per resource, all over one
 * data object. Routes only translate HTTP to calls of these parts.
 */
import type { StoreEnvironment } from '../store-environment.ts';
import type { MobileData } from './model.ts';
import type { MobileSeed } from './seed.ts';
import { MobileAccounts } from './store/accounts.ts';
import { MobileAudits } from './store/audits.ts';
import { MobileBuildSettings } from './store/build-settings.ts';
import { MobileBuilds } from './store/builds.ts';
import { MobileGroups } from './store/groups.ts';
import { MobileInvites } from './store/invites.ts';
import { MobileProjects } from './store/projects.ts';
import { MobileSites } from './store/sites.ts';
import { MobileState } from './store/state.ts';
import { MobileTesters } from './store/testers.ts';
import { MobileWebhooks } from './store/webhooks.ts';

export type { MobileData } from './model.ts';

export class MobileStore {
  /** The records themselves, for reads that need no rule (lists, the dashboard, the snapshot). */
  readonly data: MobileData;
  readonly accounts: MobileAccounts;
  readonly projects: MobileProjects;
  readonly builds: MobileBuilds;
  readonly buildSettings: MobileBuildSettings;
  readonly groups: MobileGroups;
  readonly testers: MobileTesters;
  readonly invites: MobileInvites;
  readonly webhooks: MobileWebhooks;
  readonly sites: MobileSites;

  constructor(env: Pick<StoreEnvironment, 'now' | 'changed'>, data: MobileData) {
    const state = new MobileState(env, data);
    const audits = new MobileAudits(state);
    this.data = data;
    this.accounts = new MobileAccounts(data, () => env.now());
    this.groups = new MobileGroups(state, audits);
    this.projects = new MobileProjects(data, this.groups);
    this.testers = new MobileTesters(state, audits, this.groups);
    this.builds = new MobileBuilds(state, audits, this.projects, this.groups);
    this.buildSettings = new MobileBuildSettings(state, audits, this.groups);
    this.invites = new MobileInvites(state, audits, this.groups);
    this.webhooks = new MobileWebhooks(state, audits);
    this.sites = new MobileSites(state, audits);
  }

  static initialData(seed: MobileSeed, env: Pick<StoreEnvironment, 'now' | 'changed'>): MobileData {
    const now = env.now();
    const data: MobileData = {
      accounts: seed.accounts.map((account, index) => ({
        id: index + 1,
        email: account.email,
        apiKey: account.apiKey,
        oidcToken: account.oidcToken,
        oidcConfigKey: account.oidcConfigKey,
        ...(account.oidc !== undefined ? { oidc: { ...account.oidc } } : {}),
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
    // Groups and testers go in as the interface adds them, without an actor: nothing is audited.
    const { groups, testers } = new MobileStore(env, data);
    for (const group of seed.groups ?? []) groups.ensure(group.name, group.private ?? false);
    for (const tester of seed.testers ?? []) {
      const created = testers.ensure(tester.email);
      created.blocked = tester.blocked ?? false;
      for (const name of tester.groups ?? []) groups.join(groups.ensure(name, false), [created]);
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
}
