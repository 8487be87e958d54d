/**
 * State and state transitions of mobile app distribution: one part per resource, all over one
 * data object. Routes only translate HTTP to calls of these parts.
 */
import { Store, type StoreEnvironment } from '../../shared/store-state.ts';
import type { MobileData } from '../model.ts';
import { MobileAccounts } from './accounts.ts';
import { MobileAudits } from './audits.ts';
import { MobileBuildSettings } from './build-settings.ts';
import { MobileBuilds } from './builds.ts';
import { MobileFiles } from './files.ts';
import { MobileGroups } from './groups.ts';
import { MobileInvites } from './invites.ts';
import { MobileProjects } from './projects.ts';
import { MobileSites } from './sites.ts';
import { MobileState } from './state.ts';
import { MobileTesters } from './testers.ts';
import { MobileWebhooks } from './webhooks.ts';

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
