/** Reading credentials from requests. */
import type { FastifyRequest } from 'fastify';

export interface BasicAuth {
  user: string;
  password: string;
}

/** The user name and password of a Basic `Authorization` header, if it has one. */
export function basicAuthOf(request: FastifyRequest): BasicAuth | undefined {
  const header = request.headers.authorization;
  if (!header || !/^basic\s+/i.test(header)) return undefined;
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
