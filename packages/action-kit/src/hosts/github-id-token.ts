/**
 * The runner's ID-token request (`oidc: github`), loaded by the GitHub host on first use. It is
 * the request the toolkit's `getIDToken` makes (a GET of the runner's address with the job's
 * request token as bearer, the audience as a query member, answered `{ "value": "<jwt>" }`),
 * made here with the toolkit's HTTP client (which honours the runner's proxy settings) rather
 * than through `@actions/core`: the bundler keeps whatever `@actions/core` uses in the chunk every
 * step loads at start, and this client with its undici would make that chunk eight times larger.
 */
import { HttpClient } from '@actions/http-client';
import { BearerCredentialHandler } from '@actions/http-client/lib/auth';

/** The longest silence of the runner's token service. */
const SOCKET_TIMEOUT_MS = 30_000;

export async function requestIdToken(
  url: string,
  requestToken: string,
  audience: string | undefined,
): Promise<string> {
  const address = new URL(url);
  if (audience !== undefined) address.searchParams.set('audience', audience);
  const client = new HttpClient('sauce-actions', [new BearerCredentialHandler(requestToken)], {
    allowRetries: true,
    maxRetries: 3,
    socketTimeout: SOCKET_TIMEOUT_MS,
  });
  try {
    const answer = await client.getJson<{ value?: unknown }>(address.toString());
    const token = answer.result?.value;
    if (typeof token !== 'string' || token === '') {
      throw new Error(`the answer (status ${answer.statusCode}) holds no token in \`value\``);
    }
    return token;
  } catch (error) {
    const status = (error as { statusCode?: unknown }).statusCode;
    throw new Error(typeof status === 'number' ? `the runner answered ${status}` : (error as Error).message, {
      cause: error,
    });
  } finally {
    client.dispose();
  }
}
