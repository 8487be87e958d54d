/**
 * State and state transitions of the automation interface: one part per resource, all over one
 * data object. Routes only translate HTTP to calls of these parts.
 */
import { Store, StoreState, type StoreEnvironment } from '../../shared/store-state.ts';
import type { AutomationData } from '../model.ts';
import { AutomationAccounts } from './accounts.ts';
import { Bugs } from './bugs.ts';
import { AutomationJobs } from './jobs.ts';
import { JsTests } from './js-tests.ts';
import { SauceConnectBuilds } from './sauce-connect-builds.ts';
import { TemporaryStorage } from './storage.ts';
import { AutomationTunnels } from './tunnels.ts';

export class AutomationStore extends Store<AutomationData> {
  readonly accounts: AutomationAccounts;
  readonly tunnels: AutomationTunnels;
  readonly jobs: AutomationJobs;
  readonly storage: TemporaryStorage;
  readonly jsTests: JsTests;
  readonly bugs: Bugs;
  readonly sauceConnect: SauceConnectBuilds;

  /** `jobDurationMs`: how long a simulated job takes from creation to its end. */
  constructor(env: StoreEnvironment, data: AutomationData, jobDurationMs: number) {
    super(new StoreState(env, data));
    this.accounts = new AutomationAccounts(this.state);
    this.tunnels = new AutomationTunnels(this.state);
    this.jobs = new AutomationJobs(this.state, this.tunnels, jobDurationMs);
    this.storage = new TemporaryStorage(this.state);
    this.jsTests = new JsTests(this.state);
    this.bugs = new Bugs(this.state);
    this.sauceConnect = new SauceConnectBuilds(this.state);
  }
}
