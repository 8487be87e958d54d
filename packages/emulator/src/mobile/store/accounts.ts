/** The accounts that call the interface: finding them by credential, and what they may do. */
import { timingSafeEqual } from 'node:crypto';
import type { MobileAccount } from '../model.ts';
import { oidcTokenProblem } from '../oidc-token.ts';
import type { MobileState } from './state.ts';

function sameSecret(given: string, expected: string | undefined): boolean {
  if (expected === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export class MobileAccounts {
  readonly #state: MobileState;

  constructor(state: MobileState) {
    this.#state = state;
  }

  byApiKey(apiKey: string, email?: string): MobileAccount | undefined {
    return this.#state.data.accounts.find(
      (account) => (email === undefined || account.email === email) && sameSecret(apiKey, account.apiKey),
    );
  }

  /**
   * The account whose fixed token and configuration key these are, or whose OIDC configuration
   * (`oidc`) takes this configuration key and this token (a JWT for its audience, not expired).
   */
  byOidc(token: string, configKey: string): MobileAccount | undefined {
    return this.#state.data.accounts.find(
      (account) =>
        (sameSecret(token, account.oidcToken) && sameSecret(configKey, account.oidcConfigKey)) ||
        (account.oidc !== undefined &&
          sameSecret(configKey, account.oidc.configKey) &&
          oidcTokenProblem(token, account.oidc, this.#state.now()) === undefined),
    );
  }

  /** API keys and OIDC values, which nothing the emulator records may show. */
  secrets(): string[] {
    return this.#state.data.accounts.flatMap((account) =>
      [account.apiKey, account.oidcToken, account.oidcConfigKey, account.oidc?.configKey].filter(
        (secret): secret is string => Boolean(secret),
      ),
    );
  }
}

/** Whether the account may change builds of this project (`<id>:rw` or `*:rw`). */
export function canWrite(account: MobileAccount, projectId: number): boolean {
  return account.permissions.some((entry) => entry === '*:rw' || entry === `${projectId}:rw`);
}

/** Admin permissions with all-projects access, which the v2 audits require. */
export function isAllProjectsAdmin(account: MobileAccount): boolean {
  const admin = ['account-owner', 'account-manager', 'admin'].includes(account.role);
  return admin && account.permissions.some((entry) => entry.startsWith('*:'));
}
