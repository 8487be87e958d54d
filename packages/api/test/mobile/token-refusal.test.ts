/**
 * A refused OIDC bearer token, against the emulator's demo account (audience `sauce-labs`): the
 * error says a token was refused, with the token's non-secret claims and never the token; a
 * refused API key does not. And the claims read from a token's payload, table by table.
 */
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenClaimsOf } from '../../src/core/values/credentials.ts';
import { ApiError, SauceClient } from '../../src/index.ts';

const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: unknown): string =>
  `${part({ alg: 'RS256', typ: 'JWT' })}.${part(claims)}.${Buffer.from('signature').toString('base64url')}`;
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

describe("a token's claims", () => {
  it.each<[string, string, ReturnType<typeof tokenClaimsOf>]>([
    [
      'audience and issuer',
      jwt({ aud: 'sauce-labs', iss: 'https://token.actions.githubusercontent.com', sub: 'repo:o/r' }),
      { audience: ['sauce-labs'], issuer: 'https://token.actions.githubusercontent.com' },
    ],
    ['several audiences', jwt({ aud: ['a', 7, 'b'] }), { audience: ['a', 'b'], issuer: undefined }],
    ['neither', jwt({ sub: 'x' }), { audience: undefined, issuer: undefined }],
    ['claims of other types', jwt({ aud: 42, iss: { x: 1 } }), { audience: undefined, issuer: undefined }],
    ['a fixed token', 'demo-oidc-token', undefined],
    ['two parts', `${part({ alg: 'none' })}.${part({ aud: 'a' })}`, undefined],
    ['a payload that is not JSON', `${part({ alg: 'none' })}.bm90LWpzb24.c2ln`, undefined],
    ['a payload that is a list', `${part({ alg: 'none' })}.${part(['a'])}.c2ln`, undefined],
    ['characters outside base64url', 'a+b.c/d.e=f', undefined],
  ])('of %s', (_name, token, claims) => {
    expect(tokenClaimsOf(token)).toEqual(claims);
  });
});

describe('a refused bearer token, against the emulator', () => {
  let emulator: RunningEmulator;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await emulator.close();
  });

  async function listWith(options: { oidcToken?: string; oidcConfigKey?: string; apiKey?: string }) {
    const client = new SauceClient({ apiUrl: emulator.url, email: 'demo@example.com', ...options });
    try {
      return await client.mobile.projects.listV1().catch((error: unknown) => error);
    } finally {
      await client.close();
    }
  }

  it('signs in with a token for the demo account audience', async () => {
    const answer = await listWith({
      oidcToken: jwt({ aud: 'sauce-labs', iss: 'https://issuer.example', exp: inAnHour() }),
      oidcConfigKey: 'demo-oidc-config',
    });
    expect(answer).not.toBeInstanceOf(Error);
  });

  it('for another audience carries its claims, not the token', async () => {
    const token = jwt({ aud: 'https://github.com/octo', iss: 'https://issuer.example', exp: inAnHour() });
    const error = await listWith({ oidcToken: token, oidcConfigKey: 'demo-oidc-config' });
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).refusedToken).toEqual({
      claims: { audience: ['https://github.com/octo'], issuer: 'https://issuer.example' },
    });
    expect(JSON.stringify((error as ApiError).details)).not.toContain(token.split('.')[1]);
    expect((error as Error).message).not.toContain(token);
  });

  it('of another form carries no claims', async () => {
    const error = await listWith({ oidcToken: 'not-a-jwt', oidcConfigKey: 'demo-oidc-config' });
    expect((error as ApiError).refusedToken).toEqual({ claims: undefined });
  });

  it('a refused API key is not worded as a token', async () => {
    const error = await listWith({ apiKey: 'wrong-key' });
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).refusedToken).toBeUndefined();
  });
});
