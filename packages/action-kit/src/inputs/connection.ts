/** Connection inputs of the three services, read, checked and masked before anything is sent. */
import {
  AUTOMATION_REGIONS,
  MOBILE_REGIONS,
  SauceClient,
  type AutomationRegion,
  type MobileRegion,
  type SauceClientOptions,
} from '@sauce-actions/api';
import { InputError, quoteValue } from '../step/input-error.ts';
import { clientLogger, type Logger } from '../step/logger.ts';
import { registerSecret } from '../step/secrets.ts';
import { DEFAULT_OIDC_AUDIENCE } from '../step/oidc-refusal.ts';
import { EMAIL_FORM, type InputReader } from './inputs.ts';

/** Mobile distribution: an API key (with the email for REST calls), or an OIDC token. */
export interface MobileConnection {
  service: 'mobile';
  region: MobileRegion;
  apiUrl?: string;
  email?: string;
  apiKey?: string;
  oidcToken?: string;
  oidcConfigKey?: string;
  /**
   * `github`: the token is the job's own ID token, fetched by the host (`withJobIdToken`) once
   * the inputs are read and before the client is made; `oidcToken` then holds it.
   */
  oidc?: 'github';
  /** The ID token's audience with `oidc: github`: `oidc-audience`, default `sauce-labs`. */
  oidcAudience?: string;
}

/** Values of `oidc`. */
const OIDC_PROVIDERS = ['github'] as const;

/** Automation REST and AI authoring: a user name and access key. */
export interface SauceConnection {
  service: 'sauce';
  region: AutomationRegion;
  apiUrl?: string;
  username: string;
  accessKey: string;
}

export type Connection = MobileConnection | SauceConnection;

/** `api-url`: an http(s) address without credentials in it. */
export function readApiUrl(read: InputReader, name = 'api-url'): string | undefined {
  const value = read.string(name);
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InputError(
      name,
      `has ${quoteValue(value)}, which is not an address`,
      'an http:// or https:// address',
    );
  }
  if (url.username || url.password) {
    registerSecret(value);
    throw new InputError(
      name,
      'holds a user name or password',
      'an address without credentials; use the credential inputs',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InputError(name, `has ${quoteValue(value)}`, 'an http:// or https:// address');
  }
  return value.replace(/\/+$/, '');
}

/**
 * `api-key` (or `SAUCE_APPDIST_API_KEY`) with `email`, or `oidc-token` with `oidc-config-key`, or
 * `oidc: github` (the job's own ID token, with `oidc-audience`) with `oidc-config-key`.
 */
export function readMobileConnection(
  read: InputReader,
  options: { needsEmail?: boolean } = {},
): MobileConnection {
  const region = read.enum('region', MOBILE_REGIONS, 'us-east-1');
  const apiUrl = readApiUrl(read);
  const oidc = read.enum('oidc', OIDC_PROVIDERS);
  const oidcAudience = read.string('oidc-audience');
  const oidcToken = read.secret('oidc-token');
  const oidcConfigKey = read.string('oidc-config-key');
  const email = read.email('email');
  checkOidcInputs(oidc, oidcToken, oidcConfigKey, oidcAudience);
  const keyless = oidcToken !== undefined || oidc !== undefined;
  const apiKey = keyless ? undefined : read.secret('api-key', 'SAUCE_APPDIST_API_KEY');
  if (!keyless && apiKey === undefined) {
    throw new InputError(
      'api-key',
      'is required but was empty, and SAUCE_APPDIST_API_KEY is not set',
      'the API key of the data center in `region` (store it as a secret), or `oidc-token` with `oidc-config-key`, or `oidc: github` with `oidc-config-key`',
    );
  }
  if (apiKey !== undefined && email !== undefined) registerSecret(apiKey, email);
  if (options.needsEmail && apiKey !== undefined && email === undefined) {
    throw new InputError(
      'email',
      'is required with `api-key` but was empty',
      `the account's email that goes with the API key: ${EMAIL_FORM}`,
    );
  }
  return {
    service: 'mobile',
    region,
    ...(apiUrl !== undefined ? { apiUrl } : {}),
    ...(email !== undefined ? { email } : {}),
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(oidcToken !== undefined ? { oidcToken } : {}),
    ...(keyless ? { oidcConfigKey: oidcConfigKey as string } : {}),
    ...(oidc !== undefined ? { oidc, oidcAudience: oidcAudience ?? DEFAULT_OIDC_AUDIENCE } : {}),
  };
}

/** The OIDC inputs go together: a token or `oidc: github`, either with its configuration key. */
function checkOidcInputs(
  oidc: 'github' | undefined,
  oidcToken: string | undefined,
  oidcConfigKey: string | undefined,
  oidcAudience: string | undefined,
): void {
  const configKeyForm =
    'the OIDC configuration key of the account, sent as `X-OIDC-Config-Key` with the token';
  if (oidc !== undefined && oidcToken !== undefined) {
    throw new InputError(
      'oidc-token',
      'is set together with `oidc: github`',
      "either a token in `oidc-token`, or `oidc: github` to use the job's own ID token",
    );
  }
  if (oidcToken !== undefined && oidcConfigKey === undefined) {
    throw new InputError('oidc-config-key', 'is required with `oidc-token` but was empty', configKeyForm);
  }
  if (oidc !== undefined && oidcConfigKey === undefined) {
    throw new InputError('oidc-config-key', 'is required with `oidc: github` but was empty', configKeyForm);
  }
  if (oidcAudience !== undefined && oidc === undefined) {
    throw new InputError(
      'oidc-audience',
      'is set without `oidc: github`',
      "an audience only together with `oidc: github`, which fetches the job's ID token for it",
    );
  }
}

/** `username` and `access-key`, with the `SAUCE_USERNAME` and `SAUCE_ACCESS_KEY` fallbacks. */
export function readSauceConnection(read: InputReader): SauceConnection {
  const region = read.enum('region', AUTOMATION_REGIONS, 'us-west-1');
  const apiUrl = readApiUrl(read);
  const given = read.string('username');
  const username = given ?? read.env('SAUCE_USERNAME');
  // Basic authentication ends the user name at its first `:`: the rest would be taken as the key.
  if (username?.includes(':')) {
    throw new InputError(
      'username',
      // Not quoted: what follows the `:` may be the access key, pasted with it.
      `${given === undefined ? '(from SAUCE_USERNAME) ' : ''}holds a \`:\`, which no Sauce Labs user name has, and which Basic authentication cannot carry in one`,
      'the Sauce Labs user name alone, without `:` or the access key (that goes in `access-key`)',
    );
  }
  const accessKey = read.secret('access-key', 'SAUCE_ACCESS_KEY');
  if (username === undefined) {
    throw new InputError(
      'username',
      'is required but was empty, and SAUCE_USERNAME is not set',
      'the Sauce Labs user name',
    );
  }
  if (accessKey === undefined) {
    throw new InputError(
      'access-key',
      'is required but was empty, and SAUCE_ACCESS_KEY is not set',
      'the access key (store it as a secret)',
    );
  }
  registerSecret(accessKey, username);
  return { service: 'sauce', region, username, accessKey, ...(apiUrl !== undefined ? { apiUrl } : {}) };
}

/** The client's options for a connection. */
export function clientOptions(connection: Connection): SauceClientOptions {
  if (connection.service === 'sauce') {
    const { region, username, accessKey, apiUrl } = connection;
    return { region, username, accessKey, ...(apiUrl !== undefined ? { apiUrl } : {}) };
  }
  const { service: _service, region, oidc: _oidc, oidcAudience: _audience, ...rest } = connection;
  return { mobileRegion: region, ...rest };
}

/** Makes the client, logging on the action's logger; the caller closes it. */
export function createClient(connection: Connection, logger: Logger): SauceClient {
  return new SauceClient({ ...clientOptions(connection), logger: clientLogger(logger) });
}
