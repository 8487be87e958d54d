import { SauceClient } from '@sauce-actions/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clearSecrets,
  clientOptions,
  createClient,
  InputError,
  InputReader,
  inputSource,
  onSecret,
  readApiUrl,
  readMobileConnection,
  readSauceConnection,
  recordingLogger,
  redactSecrets,
} from '../../src/index.ts';

let masked: string[];
let stopMasking: () => void;

beforeEach(() => {
  clearSecrets();
  masked = [];
  stopMasking = onSecret((secret) => masked.push(secret));
});

afterEach(() => stopMasking());

function reader(values: Record<string, string>, env: Record<string, string> = {}): InputReader {
  return new InputReader(inputSource(values, { env }));
}

describe('readMobileConnection', () => {
  it('reads the api key from the input and masks it at once', () => {
    const connection = readMobileConnection(reader({ 'api-key': 'key-from-input', email: 'me@example.com' }));
    expect(connection).toEqual({
      service: 'mobile',
      apiKey: 'key-from-input',
      email: 'me@example.com',
      region: 'us-east-1',
    });
    expect(masked).toContain('key-from-input');
    expect(redactSecrets('x key-from-input y')).toBe('x *** y');
    const basic = Buffer.from('me@example.com:key-from-input').toString('base64');
    expect(masked).toContain(basic);
    expect(redactSecrets(basic)).toBe('***');
  });

  it('falls back to SAUCE_APPDIST_API_KEY', () => {
    const connection = readMobileConnection(
      reader({ region: 'eu-central-1' }, { SAUCE_APPDIST_API_KEY: 'key-from-env' }),
    );
    expect(connection).toMatchObject({ apiKey: 'key-from-env', region: 'eu-central-1' });
    expect(masked).toContain('key-from-env');
  });

  it('prefers an OIDC token and requires its config key', () => {
    expect(() => readMobileConnection(reader({ 'oidc-token': 'token-123' }))).toThrow(/oidc-config-key/);
    const connection = readMobileConnection(
      reader({ 'oidc-token': 'token-123', 'oidc-config-key': 'cfg', 'api-key': 'ignored' }),
    );
    expect(connection.oidcToken).toBe('token-123');
    expect(clientOptions(connection)).toEqual({
      mobileRegion: 'us-east-1',
      oidcToken: 'token-123',
      oidcConfigKey: 'cfg',
    });
  });

  it("asks the job's ID token for the audience `sauce-labs` unless `oidc-audience` says another", () => {
    const github = { oidc: 'github', 'oidc-config-key': 'cfg' };
    expect(readMobileConnection(reader(github)).oidcAudience).toBe('sauce-labs');
    expect(readMobileConnection(reader({ ...github, 'oidc-audience': 'other' })).oidcAudience).toBe('other');
    expect(readMobileConnection(reader({ 'api-key': 'k' })).oidcAudience).toBeUndefined();
  });

  it('fails without any credential, naming what to set', () => {
    const error = (() => {
      try {
        readMobileConnection(reader({}));
      } catch (e) {
        return e as InputError;
      }
      throw new Error('expected a failure');
    })();
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toContain('SAUCE_APPDIST_API_KEY');
  });

  it('requires the email where REST calls need it, saying how an email is written', () => {
    expect(() => readMobileConnection(reader({ 'api-key': 'k' }), { needsEmail: true })).toThrow(
      'Input "email" is required with `api-key` but was empty. Allowed: the account\'s email that goes with the API key: an email address, `name@host` such as `alice@example.com`.',
    );
  });

  it('refuses an email that is not name@host, before anything is sent', () => {
    for (const email of ['demo', 'demo@localhost', 'demo example.com']) {
      const error = (() => {
        try {
          readMobileConnection(reader({ 'api-key': 'k', email }));
        } catch (e) {
          return e as InputError;
        }
        throw new Error(`accepted ${email}`);
      })();
      expect(error).toBeInstanceOf(InputError);
      expect(error.input).toBe('email');
      expect(error.message).toContain('which is not an email address');
      expect(error.allowed).toContain('`name@host`');
    }
  });

  it('rejects an unknown region, listing the mobile ones', () => {
    expect(() => readMobileConnection(reader({ 'api-key': 'k', region: 'us-west-1' }))).toThrow(
      'Allowed: `us-east-1`, `eu-central-1`, `legacy`',
    );
  });
});

describe('readSauceConnection', () => {
  it('uses the environment fallbacks and masks the access key', () => {
    const connection = readSauceConnection(
      reader({}, { SAUCE_USERNAME: 'demo', SAUCE_ACCESS_KEY: 'access-xyz' }),
    );
    expect(connection).toEqual({
      service: 'sauce',
      username: 'demo',
      accessKey: 'access-xyz',
      region: 'us-west-1',
    });
    expect(masked).toContain('access-xyz');
    expect(clientOptions(connection)).toEqual({
      region: 'us-west-1',
      username: 'demo',
      accessKey: 'access-xyz',
    });
  });

  it('prefers the inputs to the environment', () => {
    const connection = readSauceConnection(
      reader(
        { username: 'me', 'access-key': 'mine', 'api-url': 'http://127.0.0.1:1' },
        { SAUCE_USERNAME: 'demo', SAUCE_ACCESS_KEY: 'other' },
      ),
    );
    expect(connection).toMatchObject({ username: 'me', accessKey: 'mine', apiUrl: 'http://127.0.0.1:1' });
  });

  it.each<[string, Record<string, string>, Record<string, string>]>([
    ['name:key', { username: 'demo:k3y-x1', 'access-key': 'k' }, {}],
    ['a trailing colon', { username: 'demo:', 'access-key': 'k' }, {}],
    ['a leading colon', { username: ':d3mo', 'access-key': 'k' }, {}],
    ['SAUCE_USERNAME', { 'access-key': 'k' }, { SAUCE_USERNAME: 'demo:pasted-k3y' }],
  ])(
    'refuses a username with a colon (%s), naming the input, not what follows the colon',
    (_case, inputs, env) => {
      let message = '';
      try {
        readSauceConnection(reader(inputs, env));
      } catch (error) {
        expect(error).toBeInstanceOf(InputError);
        message = (error as Error).message;
      }
      expect(message).toMatch(/^Input "username" .*holds a `:`.*Allowed: the Sauce Labs user name alone/);
      const afterColon = (inputs.username ?? env.SAUCE_USERNAME ?? '').split(':')[1] ?? '';
      if (afterColon !== '') expect(message).not.toContain(afterColon);
    },
  );

  it('requires a username', () => {
    expect(() => readSauceConnection(reader({ 'access-key': 'k' }))).toThrow(/Input "username" is required/);
  });
});

describe('readApiUrl', () => {
  it('accepts http(s) and refuses embedded credentials without echoing them', () => {
    expect(readApiUrl(reader({ 'api-url': 'http://127.0.0.1:4545/' }))).toBe('http://127.0.0.1:4545');
    let message = '';
    try {
      readApiUrl(reader({ 'api-url': 'https://me:hunter22@example.com' }));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('user name or password');
    expect(message).not.toContain('hunter22');
    expect(redactSecrets('https://me:hunter22@example.com')).toBe('***');
    expect(() => readApiUrl(reader({ 'api-url': 'ftp://example.com' }))).toThrow(/http/);
  });
});

describe('createClient', () => {
  it('makes a client whose retries and warnings land on the action logger', async () => {
    const logger = recordingLogger();
    const client = createClient(
      { service: 'sauce', region: 'us-west-1', username: 'demo', accessKey: 'k' },
      logger,
    );
    expect(client).toBeInstanceOf(SauceClient);
    expect(client.jobUrl('abc')).toContain('/tests/abc');
    await client.close();
  });
});
