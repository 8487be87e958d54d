/** Connection inputs of the three services, read, checked and masked before anything is sent. */
import * as core from '@actions/core';
import {
  AUTOMATION_REGIONS,
  MOBILE_REGIONS,
  SauceClient,
  type AutomationRegion,
  type Logger,
  type MobileRegion,
  type SauceClientOptions,
} from '@sauce-actions/api';
import { InputError, quoteValue } from './input-error.ts';
import { readEnum, readString } from './inputs.ts';
import { registerSecret } from './secrets.ts';

export interface MobileConnection {
  region: MobileRegion;
  apiUrl: string | undefined;
  email: string | undefined;
  apiKey: string | undefined;
  oidcToken: string | undefined;
  oidcConfigKey: string | undefined;
}

export interface SauceConnection {
  region: AutomationRegion;
  apiUrl: string | undefined;
  username: string;
  accessKey: string;
}

/** A secret from its input or, when that is empty, from an environment variable; masked at once. */
function readSecret(name: string, envName?: string): string | undefined {
  const value = readString(name) ?? (envName ? process.env[envName]?.trim() || undefined : undefined);
  if (value !== undefined) registerSecret(value);
  return value;
}

/** `api-url`: an http(s) address without credentials in it. */
export function readApiUrl(name = 'api-url'): string | undefined {
  const value = readString(name);
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

/** Mobile distribution: `api-key` (or `SAUCE_APPDIST_API_KEY`) with `email`, or an OIDC token and config key. */
export function readMobileConnection(options: { needsEmail?: boolean } = {}): MobileConnection {
  const region = readEnum('region', MOBILE_REGIONS, 'us-east-1');
  const apiUrl = readApiUrl();
  const oidcToken = readSecret('oidc-token');
  const oidcConfigKey = readString('oidc-config-key');
  const email = readString('email');
  const apiKey = oidcToken === undefined ? readSecret('api-key', 'SAUCE_APPDIST_API_KEY') : undefined;
  if (oidcToken !== undefined && oidcConfigKey === undefined) {
    throw new InputError(
      'oidc-config-key',
      'is required with `oidc-token` but was empty',
      'the OIDC configuration key of the account',
    );
  }
  if (oidcToken === undefined && apiKey === undefined) {
    throw new InputError(
      'api-key',
      'is required but was empty, and SAUCE_APPDIST_API_KEY is not set',
      'the API key of the data center in `region` (store it as a secret), or `oidc-token` with `oidc-config-key`',
    );
  }
  if (apiKey !== undefined && email !== undefined) registerSecret(apiKey, email);
  if (options.needsEmail && apiKey !== undefined && email === undefined) {
    throw new InputError(
      'email',
      'is required with `api-key` but was empty',
      'the account email that goes with the API key',
    );
  }
  return { region, apiUrl, email, apiKey, oidcToken, oidcConfigKey };
}

/** Automation REST and AI authoring: `username` and `access-key`, with `SAUCE_USERNAME`/`SAUCE_ACCESS_KEY` fallbacks. */
export function readSauceConnection(): SauceConnection {
  const region = readEnum('region', AUTOMATION_REGIONS, 'us-west-1');
  const apiUrl = readApiUrl();
  const username = readString('username') ?? (process.env.SAUCE_USERNAME?.trim() || undefined);
  const accessKey = readSecret('access-key', 'SAUCE_ACCESS_KEY');
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
  return { region, apiUrl, username, accessKey };
}

/** The client's logger, bridged to the step log: debug lines only show with step debugging on. */
export const actionsLogger: Logger = {
  debug: (message) => core.debug(message),
  warn: (message) => core.warning(message),
};

export function mobileClientOptions(connection: MobileConnection): SauceClientOptions {
  return {
    mobileRegion: connection.region,
    ...(connection.apiUrl !== undefined ? { apiUrl: connection.apiUrl } : {}),
    ...(connection.email !== undefined ? { email: connection.email } : {}),
    ...(connection.apiKey !== undefined ? { apiKey: connection.apiKey } : {}),
    ...(connection.oidcToken !== undefined ? { oidcToken: connection.oidcToken } : {}),
    ...(connection.oidcConfigKey !== undefined ? { oidcConfigKey: connection.oidcConfigKey } : {}),
  };
}

export function sauceClientOptions(connection: SauceConnection): SauceClientOptions {
  return {
    region: connection.region,
    username: connection.username,
    accessKey: connection.accessKey,
    ...(connection.apiUrl !== undefined ? { apiUrl: connection.apiUrl } : {}),
  };
}

/** Makes the client with the step-log logger; the caller closes it. */
export function createClient(options: SauceClientOptions, logger: Logger = actionsLogger): SauceClient {
  return new SauceClient({ ...options, logger });
}
