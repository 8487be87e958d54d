/**
 * Keyless sign-in with a job's ID token (a JWT for the configured audience and key), and a
 * build's tags and metadata read back as the upload and the update set them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, sampleApk, start, upload, type Harness } from './helpers.ts';

let h: Harness;
let now = Date.UTC(2026, 10, 20, 12, 0, 0);

const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: Record<string, unknown>, header: unknown = { alg: 'RS256', typ: 'JWT' }): string =>
  `${part(header)}.${part(claims)}.c2lnbmF0dXJl`;
const valid = { aud: 'sauce-labs-test', iss: 'https://token.actions.githubusercontent.com' };
const inOneHour = () => Math.floor(now / 1000) + 3600;

beforeAll(async () => {
  // The token's `exp` is judged by the emulator's clock, which the test moves.
  h = await start(
    {
      accounts: [
        {
          email: 'ci@example.com',
          apiKey: 'ci-api-key',
          oidc: {
            configKey: 'gh-config',
            audience: 'sauce-labs-test',
            issuer: 'https://token.actions.githubusercontent.com',
          },
        },
      ],
    },
    { clock: () => now },
  );
});

afterAll(async () => {
  await h.close();
});

const bearer = (token: string, configKey = 'gh-config') => ({
  authorization: `Bearer ${token}`,
  'x-oidc-config-key': configKey,
});

describe('an OIDC configuration', () => {
  it('accepts an ID token for its audience and issuer, with its configuration key, on REST and upload', async () => {
    const token = jwt({ ...valid, aud: ['other', 'sauce-labs-test'], exp: inOneHour() });
    expect((await call(h, 'GET', '/api/1/groups/', { auth: null, headers: bearer(token) })).status).toBe(200);
    const answer = await upload(h, await sampleApk(h), { api_key: '' }, bearer(token));
    expect(answer.body).toMatchObject({ status: 'ok' });
  });

  it.each([
    ['another audience', jwt({ ...valid, aud: 'someone-else', exp: 2e9 })],
    ['another issuer', jwt({ ...valid, iss: 'https://gitlab.example.com', exp: 2e9 })],
    ['no expiry', jwt({ ...valid })],
    ['not a JWT', 'demo-oidc-token'],
    ['claims that are not JSON', `${part({ alg: 'none' })}.bm90LWpzb24.c2ln`],
    ['a header without alg', jwt({ ...valid, exp: 2e9 }, { typ: 'JWT' })],
  ])('refuses %s with 401, echoing no token', async (_name, token) => {
    const answer = await call(h, 'GET', '/api/1/groups/', { auth: null, headers: bearer(token) });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ status: 'fail', code: 5 });
    expect(JSON.stringify(answer.body)).not.toContain(token);
  });

  it('refuses an expired token, and a good token with another configuration key', async () => {
    const token = jwt({ ...valid, exp: inOneHour() });
    now += 2 * 3600_000;
    expect((await call(h, 'GET', '/api/1/groups/', { auth: null, headers: bearer(token) })).status).toBe(401);
    const fresh = jwt({ ...valid, exp: inOneHour() });
    expect(
      (await call(h, 'GET', '/api/1/groups/', { auth: null, headers: bearer(fresh, 'other') })).status,
    ).toBe(401);
  });
});

describe("a build's tags and metadata", () => {
  it('are read back in the build and the project list as the upload and the update set them', async () => {
    const auth = `Basic ${Buffer.from('ci@example.com:ci-api-key').toString('base64')}`;
    const uploaded = await upload(h, await sampleApk(h, 'com.example.labels'), {
      api_key: 'ci-api-key',
      tags: 'pr-42, main',
      'metadata.commit': 'abc1234',
      'metadata.run-url': 'https://ci.example.com/run/1',
    });
    expect(uploaded.body).toMatchObject({
      tags: ['pr-42', 'main'],
      metadata: [
        { key: 'commit', value: 'abc1234' },
        { key: 'run-url', value: 'https://ci.example.com/run/1' },
      ],
    });
    const path = `/api/1/projects/${String(uploaded.body.project_id)}/builds`;
    const one = await call(h, 'GET', `${path}/${String(uploaded.body.build_id)}`, { auth });
    expect(one.body.build).toMatchObject({
      tags: ['pr-42', 'main'],
      metadata: { commit: 'abc1234', 'run-url': 'https://ci.example.com/run/1' },
    });
    await call(h, 'PATCH', `${path}/${String(uploaded.body.build_id)}/`, {
      auth,
      form: { tags: 'promoted', metadata_commit: 'def5678' },
    });
    const listed = await call(h, 'GET', `${path}/`, { auth });
    expect(listed.body.builds).toEqual([
      expect.objectContaining({
        tags: ['promoted'],
        metadata: { commit: 'def5678', 'run-url': 'https://ci.example.com/run/1' },
      }),
    ]);
  });
});
