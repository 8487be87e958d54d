/**
 * Credentials for the three interfaces. Secrets are kept in private fields so that they
 * never show in `JSON.stringify`, `util.inspect`, `toString()` or an error's properties.
 */

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/** Basic authentication: username and access key (automation, authoring) or email and API key (mobile). */
export class BasicCredentials {
  readonly type = 'basic';
  readonly username: string;
  readonly #secret: string;

  constructor(username: string, secret: string) {
    this.username = username;
    this.#secret = secret;
  }

  /** The secret itself, for the transport and for masking in logs. */
  revealSecret(): string {
    return this.#secret;
  }

  authorizationHeader(): string {
    return `Basic ${Buffer.from(`${this.username}:${this.#secret}`).toString('base64')}`;
  }

  toString(): string {
    return `BasicCredentials(${this.username}:***)`;
  }

  toJSON(): object {
    return { type: this.type, username: this.username };
  }

  [inspectSymbol](): string {
    return this.toString();
  }
}

/** OIDC bearer token with the `X-OIDC-Config-Key` header (mobile distribution). */
export class BearerCredentials {
  readonly type = 'bearer';
  readonly configKey: string;
  readonly #token: string;

  constructor(token: string, configKey: string) {
    this.#token = token;
    this.configKey = configKey;
  }

  revealSecret(): string {
    return this.#token;
  }

  /** Whom the token says it is for and who issued it; `undefined` when it is not a JWT. */
  claims(): TokenClaims | undefined {
    return tokenClaimsOf(this.#token);
  }

  authorizationHeader(): string {
    return `Bearer ${this.#token}`;
  }

  toString(): string {
    return 'BearerCredentials(***)';
  }

  toJSON(): object {
    return { type: this.type };
  }

  [inspectSymbol](): string {
    return this.toString();
  }
}

export type Credentials = BasicCredentials | BearerCredentials;

/**
 * The claims of an ID token that are not secret and tell why a service refuses it: its audience
 * (`aud`, one or several) and its issuer (`iss`), each absent when the token does not carry it.
 */
export interface TokenClaims {
  audience: string[] | undefined;
  issuer: string | undefined;
}

/**
 * The audience and issuer of a token of JWT form (three base64url parts, the second a JSON
 * object), read without verifying anything: they only word a refusal. `undefined` for any other
 * token. The token itself is never part of the result.
 */
export function tokenClaimsOf(token: string): TokenClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]+$/.test(part))) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
  const { aud, iss } = payload as Record<string, unknown>;
  const audiences = (Array.isArray(aud) ? aud : [aud]).filter(
    (item): item is string => typeof item === 'string',
  );
  return {
    audience: audiences.length > 0 ? audiences : undefined,
    issuer: typeof iss === 'string' ? iss : undefined,
  };
}

/** Headers that authenticate a request with the given credentials. */
export function authHeaders(credentials: Credentials | undefined): Record<string, string> {
  if (!credentials) return {};
  if (credentials.type === 'basic') return { authorization: credentials.authorizationHeader() };
  return { authorization: credentials.authorizationHeader(), 'x-oidc-config-key': credentials.configKey };
}

/**
 * Every secret held by the credentials in each form a service may echo it back: as is,
 * URL-encoded (a query or form) and inside the Basic header's base64.
 */
export function secretsOf(...credentials: (Credentials | undefined)[]): string[] {
  const out = new Set<string>();
  for (const c of credentials) {
    if (!c) continue;
    const secret = c.revealSecret();
    if (secret.length === 0) continue;
    out.add(secret);
    out.add(encodeURIComponent(secret));
    if (c.type === 'basic') out.add(Buffer.from(`${c.username}:${secret}`).toString('base64'));
  }
  // Longest first, so a form containing another is replaced whole.
  return [...out].sort((a, b) => b.length - a.length);
}

/** Replaces every occurrence of a secret with `***`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 3) continue;
    out = out.split(secret).join('***');
  }
  return out;
}

/**
 * An absolute address without its `user:password@`: links and messages must never carry a
 * credential. `undefined` for text that is not an absolute address.
 */
export function withoutUserInfo(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (!parsed.username && !parsed.password) return url;
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

/** Redacts every string inside a parsed body (an error body may echo what was sent). */
export function redactDeep(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return redact(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, secrets));
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [redact(key, secrets), redactDeep(item, secrets)]),
    );
  }
  return value;
}
