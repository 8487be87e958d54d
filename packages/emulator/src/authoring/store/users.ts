/**
 * The authoring users: one per automation account, whose username and access key sign in here
 * too (the two interfaces share their accounts).
 */
import type { AutomationAccounts } from '../../automation/store/accounts.ts';
import type { StoreState } from '../../shared/store-state.ts';
import { newUuid } from '../ids.ts';
import type { AuthoringData, AuthoringUser } from '../model.ts';
import { AuthoringPart } from './part.ts';

export class AuthoringUsers extends AuthoringPart {
  readonly #accounts: Pick<AutomationAccounts, 'verify'>;

  constructor(state: StoreState<AuthoringData>, accounts: Pick<AutomationAccounts, 'verify'>) {
    super(state);
    this.#accounts = accounts;
  }

  /** The user an account's username and access key sign in as; undefined when they are not an account's. */
  signIn(username: string, accessKey: string): AuthoringUser | undefined {
    return this.#accounts.verify(username, accessKey) ? this.forAccount(username) : undefined;
  }

  /**
   * The authoring user of an automation account. An account the seed does not list gets a user
   * (a new UUID, in the default team) on its first request, as every Sauce account has one.
   */
  forAccount(username: string): AuthoringUser {
    const { data } = this.state;
    const known = data.users.find((user) => user.username === username);
    if (known) return known;
    const user: AuthoringUser = { id: newUuid(), username, name: username, teamId: data.defaultTeamId };
    data.users.push(user);
    this.state.changed();
    return user;
  }

  byId(id: string): AuthoringUser | undefined {
    const wanted = id.toLowerCase();
    return this.state.data.users.find((user) => user.id.toLowerCase() === wanted);
  }

  nameOf(id: string): string {
    return this.byId(id)?.name ?? '';
  }
}
