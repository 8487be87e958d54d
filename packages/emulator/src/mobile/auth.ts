/** Who is calling: Basic email:api-key, or an OIDC bearer token with its X-OIDC-Config-Key. */
import type { FastifyRequest } from 'fastify';
import { basicAuthOf, bearerTokenOf } from '../shared/credentials.ts';
import { CODE, MobileError } from './errors.ts';
import type { MobileAccount } from './model.ts';
import type { MobileAccounts } from './store/accounts.ts';
import type { Actor } from './store/audits.ts';

/** The account of an OIDC bearer request; undefined when the request carries no bearer token. */
export function oidcAccount(accounts: MobileAccounts, request: FastifyRequest): MobileAccount | undefined {
  const token = bearerTokenOf(request);
  if (!token) return undefined;
  const configKey = request.headers['x-oidc-config-key'];
  if (typeof configKey !== 'string' || !configKey) {
    throw new MobileError(401, CODE.invalidApiKey, 'Missing header: X-OIDC-Config-Key');
  }
  const account = accounts.byOidc(token, configKey);
  if (!account) throw new MobileError(401, CODE.invalidApiKey, 'Invalid OIDC token or configuration key');
  return account;
}

/** The caller of a REST request, or a 401 failure. */
export function restActor(accounts: MobileAccounts, request: FastifyRequest): Actor {
  const bearer = oidcAccount(accounts, request);
  if (bearer) return { account: bearer, ipAddress: request.ip };
  const basic = basicAuthOf(request);
  if (!basic) {
    throw new MobileError(
      401,
      CODE.invalidApiKey,
      'Authentication required: Basic email:api-key or an OIDC bearer token',
    );
  }
  const account = accounts.byApiKey(basic.password, basic.user);
  if (!account) throw new MobileError(401, CODE.invalidApiKey, 'Invalid email or API key');
  return { account, ipAddress: request.ip };
}
