/** Reading credentials from requests. */
import type { FastifyRequest } from 'fastify';

interface BasicAuth {
  user: string;
  password: string;
}

/** A request target in absolute form (`http://host/path`), as proxies and some clients send it. */
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The path and query of a request target, whether in origin form (`/path?q`) or absolute form. */
export function originFormOf(url: string): string {
  if (!ABSOLUTE_FORM.test(url)) return url;
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}

/** User name and password written in an absolute-form request target (`http://user:key@host/…`). */
function urlCredentialsOf(url: string): BasicAuth | undefined {
  if (!ABSOLUTE_FORM.test(url)) return undefined;
  try {
    const parsed = new URL(url);
    if (!parsed.username) return undefined;
    return { user: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) };
  } catch {
    return undefined;
  }
}

/**
 * The user name and password of a Basic `Authorization` header, if it has one; else those of the
 * request URL, where seed 002 allows them too (most clients turn them into the header themselves).
 */
export function basicAuthOf(request: FastifyRequest): BasicAuth | undefined {
  const header = request.headers.authorization;
  if (!header || !/^basic\s+/i.test(header)) return urlCredentialsOf(request.url);
  const decoded = Buffer.from(header.replace(/^basic\s+/i, ''), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The token of a Bearer `Authorization` header, if it has one. */
export function bearerTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header || !/^bearer\s+/i.test(header)) return undefined;
  return header.replace(/^bearer\s+/i, '').trim() || undefined;
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}
