/** The credentials the emulator knows, which nothing it records may show. */
import type { EmulatorContext } from '../context.ts';

/** Access keys of the automation and authoring accounts, API keys and OIDC values of the mobile ones. */
export function knownSecrets(ctx: EmulatorContext): string[] {
  const secrets: string[] = [];
  for (const user of Object.values(ctx.automation.data.users)) secrets.push(user.accessKey);
  for (const account of ctx.mobile.data.accounts) {
    secrets.push(account.apiKey);
    if (account.oidcToken) secrets.push(account.oidcToken);
    if (account.oidcConfigKey) secrets.push(account.oidcConfigKey);
    if (account.oidc) secrets.push(account.oidc.configKey);
  }
  // Longest first, so that a secret containing another is masked whole.
  return secrets.sort((a, b) => b.length - a.length);
}
