/**
 * Keyless sign-in refused: the service did not accept an OIDC bearer token. Worded as such (no
 * API key was sent), with what the token says of itself (its audience and issuer, which are not
 * secret) beside the inputs that decide whether the account's OIDC configuration accepts it.
 */
import type { ApiError } from '@sauce-actions/api';

/**
 * The audience `oidc: github` asks the runner's ID token for when `oidc-audience` is empty: the
 * one a Sauce Labs OIDC configuration for GitHub expects, and the emulator's demo account's.
 */
export const DEFAULT_OIDC_AUDIENCE = 'sauce-labs';

/** A claim's value quoted on one line, short: it comes from the token, not from us. */
function quoteClaim(value: string): string {
  const line = value.replace(/[\s\p{Cc}]+/gu, ' ').trim();
  return JSON.stringify(line.length > 120 ? `${line.slice(0, 117)}...` : line);
}

/** The failure's message for a refused bearer token (`error.refusedToken` set). */
export function refusedTokenMessage(error: ApiError): string {
  const claims = error.refusedToken?.claims;
  let what: string;
  if (claims === undefined) {
    what = 'The token is not a JWT, so its audience (`aud`) and issuer (`iss`) cannot be read.';
  } else {
    const audience = claims.audience?.map(quoteClaim).join(', ') ?? 'none';
    const issuer = claims.issuer !== undefined ? quoteClaim(claims.issuer) : 'none';
    what = `The token was issued for the audience (\`aud\`) ${audience} by the issuer (\`iss\`) ${issuer}.`;
  }
  return (
    `Sauce Labs refused the OIDC token (no API key was sent): ${error.message}. ${what} ` +
    "Check that `oidc-config-key` names the account's OIDC configuration, that this configuration trusts the issuer, " +
    `and that it expects the audience: with \`oidc: github\`, \`oidc-audience\` sets it (default \`${DEFAULT_OIDC_AUDIENCE}\`); with \`oidc-token\`, the token must be issued for it.`
  );
}
