/** What the mobile part of the seed holds: accounts, testers, groups and optional history. */

import type { OidcConfig } from './oidc-token.ts';

/** Roles seen in the permissions list; `tester` accounts can sign in but not manage builds. */
export type MobileRole = 'account-owner' | 'account-manager' | 'admin' | 'member' | 'tester';

interface MobileAccountSeed {
  email: string;
  /** REST password (Basic email:api-key) and the upload form's `api_key`. */
  apiKey: string;
  /** OIDC access token accepted as `Authorization: Bearer <token>` ... */
  oidcToken?: string;
  /** ... together with this `X-OIDC-Config-Key`. */
  oidcConfigKey?: string;
  /**
   * Keyless sign-in: any ID token of JWT form whose `aud` names `audience` (and whose `iss` is
   * `issuer`, when set), not expired, with `X-OIDC-Config-Key: configKey`; the signature is not
   * checked. A CI job's own token (GitHub's `id-token: write`) signs in so.
   */
  oidc?: OidcConfig;
  /** Default account-owner. */
  role?: MobileRole;
  /** `<project_id>:<mode>` or `*:<mode>`, mode r or rw. Default `*:rw`. */
  permissions?: string[];
}

interface MobileTesterSeed {
  email: string;
  /** Names of groups the tester belongs to (created when absent). */
  groups?: string[];
  blocked?: boolean;
}

interface MobileGroupSeed {
  name: string;
  private?: boolean;
}

interface MobileFeedbackSeed {
  text: string;
  buildId?: number;
  projectId?: number;
  /** Milliseconds since the epoch; default the emulator's start. */
  recordedAt?: number;
  source?: string;
  reportedBy?: string;
  screenshotUrl?: string;
}

export interface MobileSeed {
  accounts: MobileAccountSeed[];
  /** The account setting "landing pages require login": forbids landing_page_mode open (error 156). */
  requireLogin?: boolean;
  /** The account's site: its subdomain and enterprise id (audit `site` filter, site list). */
  siteName?: string;
  enterpriseId?: string;
  testers?: MobileTesterSeed[];
  groups?: MobileGroupSeed[];
  feedbacks?: MobileFeedbackSeed[];
}

/**
 * Default mobile seed. Besides the API key fixed by the interface, the account accepts the OIDC
 * bearer token `demo-oidc-token` with the `X-OIDC-Config-Key` `demo-oidc-config`, and any ID
 * token (a JWT) for the audience `sauce-labs` with that key. There are no builds: the first
 * upload creates a project.
 */
export function defaultMobileSeed(): MobileSeed {
  return {
    accounts: [
      {
        email: 'demo@example.com',
        apiKey: 'demo-api-key',
        oidcToken: 'demo-oidc-token',
        oidcConfigKey: 'demo-oidc-config',
        oidc: { configKey: 'demo-oidc-config', audience: 'sauce-labs' },
        role: 'account-owner',
        permissions: ['*:rw'],
      },
    ],
    requireLogin: false,
    siteName: 'demo',
    enterpriseId: '1001',
    groups: [{ name: 'qa' }, { name: 'beta', private: true }],
    testers: [
      { email: 'alice@example.com', groups: ['qa'] },
      { email: 'bob@example.com', groups: ['qa', 'beta'] },
      { email: 'carol@example.com', groups: ['beta'] },
    ],
    feedbacks: [],
  };
}
