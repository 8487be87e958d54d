import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clearSecrets,
  InputError,
  mobileClientOptions,
  readApiUrl,
  readMobileConnection,
  readSauceConnection,
  redactSecrets,
} from '../src/index.ts';
import { captureStdout } from './capture-stdout.ts';

let written: string[];

beforeEach(() => {
  clearSecrets();
  written = captureStdout();
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('readMobileConnection', () => {
  it('reads the api key from the input and masks it at once', () => {
    vi.stubEnv('INPUT_API-KEY', 'key-from-input');
    vi.stubEnv('INPUT_EMAIL', 'me@example.com');
    const connection = readMobileConnection();
    expect(connection).toMatchObject({
      apiKey: 'key-from-input',
      email: 'me@example.com',
      region: 'us-east-1',
    });
    expect(written.join('')).toContain('::add-mask::key-from-input');
    expect(redactSecrets('x key-from-input y')).toBe('x *** y');
    const basic = Buffer.from('me@example.com:key-from-input').toString('base64');
    expect(redactSecrets(basic)).toBe('***');
  });

  it('falls back to SAUCE_APPDIST_API_KEY', () => {
    vi.stubEnv('SAUCE_APPDIST_API_KEY', 'key-from-env');
    vi.stubEnv('INPUT_REGION', 'eu-central-1');
    expect(readMobileConnection()).toMatchObject({ apiKey: 'key-from-env', region: 'eu-central-1' });
    expect(written.join('')).toContain('::add-mask::key-from-env');
  });

  it('prefers an OIDC token and requires its config key', () => {
    vi.stubEnv('INPUT_OIDC-TOKEN', 'token-123');
    expect(() => readMobileConnection()).toThrow(/oidc-config-key/);
    vi.stubEnv('INPUT_OIDC-CONFIG-KEY', 'cfg');
    const connection = readMobileConnection();
    expect(connection.oidcToken).toBe('token-123');
    expect(mobileClientOptions(connection)).toEqual({
      mobileRegion: 'us-east-1',
      oidcToken: 'token-123',
      oidcConfigKey: 'cfg',
    });
  });

  it('fails without any credential, naming what to set', () => {
    vi.stubEnv('SAUCE_APPDIST_API_KEY', '');
    const error = (() => {
      try {
        readMobileConnection();
      } catch (e) {
        return e as InputError;
      }
      throw new Error('expected a failure');
    })();
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toContain('SAUCE_APPDIST_API_KEY');
  });

  it('rejects an unknown region, listing the mobile ones', () => {
    vi.stubEnv('INPUT_API-KEY', 'k');
    vi.stubEnv('INPUT_REGION', 'us-west-1');
    expect(() => readMobileConnection()).toThrow('Allowed: `us-east-1`, `eu-central-1`, `legacy`');
  });
});

describe('readSauceConnection', () => {
  it('uses the environment fallbacks and masks the access key', () => {
    vi.stubEnv('SAUCE_USERNAME', 'demo');
    vi.stubEnv('SAUCE_ACCESS_KEY', 'access-xyz');
    expect(readSauceConnection()).toMatchObject({
      username: 'demo',
      accessKey: 'access-xyz',
      region: 'us-west-1',
    });
    expect(written.join('')).toContain('::add-mask::access-xyz');
  });

  it('requires a username', () => {
    vi.stubEnv('SAUCE_USERNAME', '');
    vi.stubEnv('INPUT_ACCESS-KEY', 'k');
    expect(() => readSauceConnection()).toThrow(/Input "username" is required/);
  });
});

describe('readApiUrl', () => {
  it('accepts http(s) and refuses embedded credentials without echoing them', () => {
    vi.stubEnv('INPUT_API-URL', 'http://127.0.0.1:4545/');
    expect(readApiUrl()).toBe('http://127.0.0.1:4545');
    vi.stubEnv('INPUT_API-URL', 'https://me:hunter22@example.com');
    let message = '';
    try {
      readApiUrl();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('user name or password');
    expect(message).not.toContain('hunter22');
    vi.stubEnv('INPUT_API-URL', 'ftp://example.com');
    expect(() => readApiUrl()).toThrow(/http/);
  });
});
