/**
 * Bearer tokens of keyless sign-in, as an account's OIDC configuration accepts them: a JWT (three
 * base64url parts, header and claims JSON) whose `aud` names the configured audience, whose `iss`
 * is the configured issuer when one is set, and whose `exp` has not passed. The emulator has no
 * issuer's keys, so the signature is not checked: a stand-in token from a test's ID-token service
 * passes, a token of another form or for another audience does not.
 */

/** What an account accepts besides fixed tokens (the seed's `oidc`). */
export interface OidcConfig {
  /** The `X-OIDC-Config-Key` the tokens come with. */
  configKey: string;
  /** The `aud` the token must name (a string, or one of an array). */
  audience: string;
  /** The `iss` the token must have; any when absent. */
  issuer?: string | undefined;
}

interface JwtClaims {
  aud?: unknown;
  iss?: unknown;
  exp?: unknown;
  [claim: string]: unknown;
}

/** The claims of a token of JWT form; `undefined` for anything else. */
function jwtClaims(token: string): JwtClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]+$/.test(part))) return undefined;
  const header = decodePart(parts[0] as string);
  const claims = decodePart(parts[1] as string);
  if (header === undefined || typeof header.alg !== 'string') return undefined;
  return claims;
}

/** Why the token does not fit the configuration, or `undefined` when it does. */
export function oidcTokenProblem(token: string, config: OidcConfig, nowMs: number): string | undefined {
  const claims = jwtClaims(token);
  if (claims === undefined) return 'not a JWT';
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(config.audience)) return 'audience does not match';
  if (config.issuer !== undefined && claims.iss !== config.issuer) return 'issuer does not match';
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= nowMs) return 'expired or without exp';
  return undefined;
}

function decodePart(part: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
