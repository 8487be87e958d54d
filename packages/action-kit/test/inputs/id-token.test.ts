import { startIdTokenService, type IdTokenStandIn } from '@sauce-actions/action-harness';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requestIdToken } from '../../src/hosts/github-id-token.ts';
import type { MobileConnection } from '../../src/inputs/connection.ts';
import { noIdToken, runnerIdToken, withJobIdToken } from '../../src/inputs/id-token.ts';
import { ActionError } from '../../src/step/failure.ts';
import { InputError } from '../../src/step/input-error.ts';
import { clearSecrets, redactSecrets } from '../../src/step/secrets.ts';

let service: IdTokenStandIn;

beforeAll(async () => {
  service = await startIdTokenService({ repository: 'octo/app' });
});

afterAll(async () => {
  await service.close();
});

afterEach(() => {
  clearSecrets();
});

const claimsOf = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

describe("the runner's ID token", () => {
  it('is asked for with the request token and the audience, and masked at once', async () => {
    const fetchToken = runnerIdToken(service.env, requestIdToken);
    const token = await fetchToken('sauce-labs');
    expect(token).toBe(service.issued.at(-1));
    expect(claimsOf(token)).toMatchObject({
      aud: 'sauce-labs',
      iss: 'https://token.actions.githubusercontent.com',
    });
    expect(service.requests.at(-1)).toEqual({ audience: 'sauce-labs', authorized: true, status: 200 });
    expect(redactSecrets(`token ${token}`)).toBe('token ***');
    expect(redactSecrets(service.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN)).toBe('***');
  });

  it("has GitHub's default audience when none is asked for", async () => {
    const token = await runnerIdToken(service.env, requestIdToken)(undefined);
    expect(claimsOf(token).aud).toBe('https://github.com/octo');
    expect(service.requests.at(-1)).toEqual({ authorized: true, status: 200 });
  });

  it.each([
    ['no request address', { ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'x' }],
    ['no request token', { ACTIONS_ID_TOKEN_REQUEST_URL: 'http://127.0.0.1:9/x?a=1' }],
    ['neither', {}],
  ])(
    'without `id-token: write` (%s) is an input error naming the permission, with no request',
    async (_name, env) => {
      const before = service.requests.length;
      const error = await runnerIdToken(env, requestIdToken)('sauce-labs').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).input).toBe('oidc');
      expect((error as Error).message).toContain('`permissions: id-token: write`');
      expect(service.requests.length).toBe(before);
    },
  );

  it('refused by the runner is a refusal naming the permission', async () => {
    service.refuse(403);
    const error = await runnerIdToken(service.env, requestIdToken)('sauce-labs').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActionError);
    expect((error as ActionError).kind).toBe('refused');
    expect((error as Error).message).toMatch(
      /^The runner did not give the job's ID token for the audience "sauce-labs" \(the runner answered 403\)\. Check that the job has `permissions: id-token: write`/,
    );
  });

  it('with a wrong request token is refused by the service', async () => {
    const env = { ...service.env, ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'wrong' };
    await expect(runnerIdToken(env, requestIdToken)(undefined)).rejects.toThrow('the runner answered 401');
  });
});

describe('the connection with the job ID token', () => {
  const github: MobileConnection = {
    service: 'mobile',
    region: 'us-east-1',
    oidc: 'github',
    oidcAudience: 'aud-1',
    oidcConfigKey: 'cfg',
  };

  it('gets the token for its audience', async () => {
    const asked: (string | undefined)[] = [];
    const connection = await withJobIdToken(github, async (audience) => {
      asked.push(audience);
      return 'header.claims.signature';
    });
    expect(asked).toEqual(['aud-1']);
    expect(connection).toEqual({ ...github, oidcToken: 'header.claims.signature' });
    expect(redactSecrets('header.claims.signature')).toBe('***');
  });

  it.each<MobileConnection>([
    { service: 'mobile', region: 'us-east-1', apiKey: 'k' },
    { service: 'mobile', region: 'us-east-1', oidcToken: 'given', oidcConfigKey: 'cfg' },
  ])('leaves any other connection as it is, asking for nothing', async (connection) => {
    const untouched = await withJobIdToken(connection, async () => {
      throw new Error('asked for a token');
    });
    expect(untouched).toBe(connection);
  });

  it('on the command line is refused, saying what to pass instead', async () => {
    const error = await withJobIdToken(github, noIdToken).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain(
      'Input "oidc" is `github`, which only a step on the GitHub runner can use',
    );
    expect((error as Error).message).toContain('in `oidc-token` with `oidc-config-key`');
  });
});
