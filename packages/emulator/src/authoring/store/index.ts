/**
 * State and state transitions of the AI authoring interface: one part per resource, all over one
 * data object. Routes only translate HTTP to calls of these parts.
 */
import type { AutomationAccounts } from '../../automation/store/accounts.ts';
import { Store, StoreState, type StoreEnvironment } from '../../shared/store-state.ts';
import type { AuthoringData } from '../model.ts';
import { Artifacts } from './artifacts.ts';
import { Runs, type SimulatedJobs } from './runs.ts';
import { TestSchedules } from './schedules.ts';
import { ScriptedOutcomes } from './scripted-outcomes.ts';
import { TestSuites } from './suites.ts';
import { TestCases } from './test-cases.ts';
import { AuthoringUsers } from './users.ts';

/**
 * What the authoring interface takes from the automation one: the accounts (the two share them),
 * and the running tunnels and simulated jobs its runs need.
 */
interface AutomationLink extends SimulatedJobs {
  accounts: Pick<AutomationAccounts, 'verify'>;
}

export class AuthoringStore extends Store<AuthoringData> {
  readonly users: AuthoringUsers;
  readonly testCases: TestCases;
  readonly suites: TestSuites;
  readonly schedules: TestSchedules;
  readonly artifacts: Artifacts;
  readonly outcomes: ScriptedOutcomes;
  readonly runs: Runs;

  constructor(env: StoreEnvironment, data: AuthoringData, automation: AutomationLink) {
    super(new StoreState(env, data));
    this.users = new AuthoringUsers(this.state, automation.accounts);
    this.testCases = new TestCases(this.state);
    this.suites = new TestSuites(this.state, this.testCases);
    this.schedules = new TestSchedules(this.state, this.users);
    this.artifacts = new Artifacts(this.state);
    this.outcomes = new ScriptedOutcomes(this.state, this.testCases);
    this.runs = new Runs(this.state, this.testCases, this.suites, this.outcomes, automation);
  }
}
