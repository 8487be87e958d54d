/**
 * Accounts of the automation interface, which the AI authoring interface signs in with too: their
 * access keys, sub-accounts and plans.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { StoreState } from '../../shared/store-state.ts';
import { hexId } from '../ids.ts';
import { unixSeconds, type AccountRecord, type AutomationData } from '../model.ts';

interface NewAccountInput {
  username: string;
  name: string;
  email: string;
  plan?: string;
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

export class AutomationAccounts {
  readonly #state: StoreState<AutomationData>;

  constructor(state: StoreState<AutomationData>) {
    this.#state = state;
  }

  /** Whether username and access key belong to an account. */
  verify(username: string, accessKey: string): boolean {
    const user = this.get(username);
    if (!user) return false;
    return timingSafeEqual(digest(user.accessKey), digest(accessKey));
  }

  get(username: string): AccountRecord | undefined {
    const { users } = this.#state.data;
    return Object.hasOwn(users, username) ? users[username] : undefined;
  }

  /** Whether `target` is `caller` or one of its sub-accounts, at any depth. */
  canActFor(caller: string, target: string): boolean {
    let current = this.get(target);
    for (let depth = 0; current && depth < 100; depth++) {
      if (current.username === caller) return true;
      current = current.parent === null ? undefined : this.get(current.parent);
    }
    return false;
  }

  subAccountsOf(username: string): AccountRecord[] {
    return Object.values(this.#state.data.users).filter((user) => user.parent === username);
  }

  createSubAccount(parent: string, input: NewAccountInput): AccountRecord {
    const parentRecord = this.get(parent);
    const record: AccountRecord = {
      id: hexId(),
      username: input.username,
      // A fresh access key in the service's UUID form.
      accessKey: randomUUID(),
      name: input.name,
      email: input.email,
      parent,
      partner: false,
      plan: input.plan ?? null,
      concurrencyLimit: { ...(parentRecord?.concurrencyLimit ?? { overall: 5, mac: 5, realDevice: 2 }) },
      creationTime: unixSeconds(this.#state.now()),
    };
    this.#state.data.users[record.username] = record;
    this.#state.changed();
    return record;
  }

  /** Replaces the access key; the old one stops working at once. */
  changeAccessKey(username: string): string {
    const user = this.#mustGet(username);
    user.accessKey = randomUUID();
    this.#state.changed();
    return user.accessKey;
  }

  setPlan(username: string, plan: string | null): void {
    this.#mustGet(username).plan = plan;
    this.#state.changed();
  }

  /** The access keys, which nothing the emulator records may show. */
  secrets(): string[] {
    return Object.values(this.#state.data.users).map((user) => user.accessKey);
  }

  #mustGet(username: string): AccountRecord {
    const user = this.get(username);
    if (!user) throw new Error(`no account ${username}`);
    return user;
  }
}
