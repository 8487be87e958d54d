/**
 * A stand-in for the runner's ID-token service, which a job granted `id-token: write` reaches
 * through `ACTIONS_ID_TOKEN_REQUEST_URL` with `ACTIONS_ID_TOKEN_REQUEST_TOKEN` as bearer. It checks
 * that token, and answers `{ "value": "<jwt>" }`: a token of JWT form for the `audience` asked
 * (the repository owner's address when none is), issued by GitHub's issuer, valid five minutes.
 * Its signature is random: whoever reads the token checks its form and claims, not a key.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const GITHUB_OIDC_ISSUER = 'https://token.actions.githubusercontent.com';

export interface IdTokenRequest {
  /** The `audience` query member, when there was one. */
  audience?: string;
  /** Whether the bearer was the request token. */
  authorized: boolean;
  status: number;
}

export interface IdTokenStandIn {
  /** The variables the runner sets for a job granted `id-token: write`: the step's `env`. */
  env: { ACTIONS_ID_TOKEN_REQUEST_URL: string; ACTIONS_ID_TOKEN_REQUEST_TOKEN: string };
  requests: IdTokenRequest[];
  /** Every token issued, in order. */
  issued: string[];
  /** Answers the next `times` requests with this status and no token. */
  refuse(status: number, times?: number): void;
  close(): Promise<void>;
}

export async function startIdTokenService(
  options: { repository?: string; ref?: string } = {},
): Promise<IdTokenStandIn> {
  const repository = options.repository ?? 'example/sauce-app';
  const ref = options.ref ?? 'refs/heads/main';
  const requestToken = `ghs_idTokenRequest${randomBytes(12).toString('hex')}`;
  const requests: IdTokenRequest[] = [];
  const issued: string[] = [];
  let refusals: { status: number; left: number } | undefined;

  const server = createServer((request, response) => {
    const address = new URL(request.url ?? '/', 'http://stand-in');
    const audience = address.searchParams.get('audience') ?? undefined;
    const authorized = request.headers.authorization === `Bearer ${requestToken}`;
    const answer = (status: number, body: unknown): void => {
      requests.push({ ...(audience !== undefined ? { audience } : {}), authorized, status });
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    request.resume();
    if (!authorized) return answer(401, { message: 'Bad credentials' });
    if (refusals && refusals.left > 0) {
      refusals.left -= 1;
      return answer(refusals.status, { message: 'refused by the stand-in' });
    }
    const token = jwt({
      iss: GITHUB_OIDC_ISSUER,
      aud: audience ?? `https://github.com/${repository.split('/')[0]}`,
      sub: `repo:${repository}:ref:${ref}`,
      repository,
      ref,
      jti: randomUUID(),
    });
    issued.push(token);
    answer(200, { count: 1, value: token });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    env: {
      // The runner's address already has a query: the toolkit appends `&audience=`.
      ACTIONS_ID_TOKEN_REQUEST_URL: `http://127.0.0.1:${port}/_apis/idtoken?api-version=2.0`,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: requestToken,
    },
    requests,
    issued,
    refuse: (status, times = 1) => {
      refusals = { status, left: times };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function jwt(claims: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const header = { alg: 'RS256', typ: 'JWT', kid: 'stand-in' };
  const body = { ...claims, iat: now, nbf: now - 5, exp: now + 300 };
  return `${part(header)}.${part(body)}.${randomBytes(64).toString('base64url')}`;
}
