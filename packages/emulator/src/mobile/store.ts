/**
 * State and state transitions of mobile app distribution: one part per resource, all over one
 * data object. Routes only translate HTTP to calls of these parts.
 */
import { Store, type StoreEnvironment } from '../shared/store-state.ts';
import type { MobileData } from './model.ts';
import { MobileAccounts } from './store/accounts.ts';
import { MobileAudits } from './store/audits.ts';
import { MobileBuildSettings } from './store/build-settings.ts';
import { MobileBuilds } from './store/builds.ts';
import { MobileFiles } from './store/files.ts';
import { MobileGroups } from './store/groups.ts';
import { MobileInvites } from './store/invites.ts';
import { MobileProjects } from './store/projects.ts';
import { MobileSites } from './store/sites.ts';
import { MobileState } from './store/state.ts';
import { MobileTesters } from './store/testers.ts';
import { MobileWebhooks } from './store/webhooks.ts';

export class MobileStore extends Store<MobileData, MobileState> {
  readonly accounts: MobileAccounts;
  readonly projects: MobileProjects;
  readonly builds: MobileBuilds;
  readonly buildSettings: MobileBuildSettings;
  readonly groups: MobileGroups;
  readonly testers: MobileTesters;
  readonly invites: MobileInvites;
  readonly webhooks: MobileWebhooks;
  readonly sites: MobileSites;
  readonly files: MobileFiles;

  constructor(env: StoreEnvironment, data: MobileData) {
    super(new MobileState(env, data));
    const state = this.state;
    const audits = new MobileAudits(state);
    this.accounts = new MobileAccounts(state);
    this.groups = new MobileGroups(state, audits);
    this.projects = new MobileProjects(state, this.groups);
    this.testers = new MobileTesters(state, audits, this.groups);
    this.builds = new MobileBuilds(state, audits, this.projects, this.groups);
    this.buildSettings = new MobileBuildSettings(state, audits, this.groups);
    this.invites = new MobileInvites(state, audits, this.groups);
    this.webhooks = new MobileWebhooks(state, audits);
    this.sites = new MobileSites(state, audits);
    this.files = new MobileFiles(state);
  }
}
