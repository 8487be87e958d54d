/**
 * Keyless sign-in (`oidc: github`): the job's own ID token stands for the API key. Each host hands
 * an `IdTokenSource` in deps: the GitHub runner's asks the runner for a token, the command line's
 * refuses and says what to pass instead. The token is fetched once the inputs are read, before
 * the client is made, so that a job that may not have one fails before any request.
 */
import { ActionError } from '../step/failure.ts';
import { InputError } from '../step/input-error.ts';
import { registerSecret } from '../step/secrets.ts';
import type { Connection } from './connection.ts';

/**
 * Fetches the job's ID token for an audience (the issuer's default when absent). A host that
 * cannot throws an `InputError` naming `oidc` and what the job needs.
 */
export type IdTokenSource = (audience: string | undefined) => Promise<string>;

/** What a workflow grants so that its jobs may ask for an ID token. */
const ID_TOKEN_PERMISSION = '`permissions: id-token: write` on the job (or the workflow)';

/**
 * With `oidc: github`, the connection with the job's ID token in `oidcToken`, masked at once; any
 * other connection as it is.
 */
export async function withJobIdToken<C extends Connection>(
  connection: C,
  idToken: IdTokenSource,
): Promise<C> {
  if (
    connection.service !== 'mobile' ||
    connection.oidc === undefined ||
    connection.oidcToken !== undefined
  ) {
    return connection;
  }
  const token = await idToken(connection.oidcAudience);
  registerSecret(token);
  return { ...connection, oidcToken: token };
}

/**
 * The GitHub runner's source: the runner offers a token only to a job granted `id-token: write`
 * (it then sets `ACTIONS_ID_TOKEN_REQUEST_URL` and `_TOKEN`); without them the step stops before
 * any request, naming the permission. `request` asks the runner's address for the token.
 */
export function runnerIdToken(
  env: Readonly<Record<string, string | undefined>>,
  request: (url: string, requestToken: string, audience: string | undefined) => Promise<string>,
): IdTokenSource {
  return async (audience) => {
    const url = env.ACTIONS_ID_TOKEN_REQUEST_URL;
    const requestToken = env.ACTIONS_ID_TOKEN_REQUEST_TOKEN;
    if (!url || !requestToken) {
      throw new InputError(
        'oidc',
        'is `github`, but the runner offers this job no ID token (ACTIONS_ID_TOKEN_REQUEST_URL is not set)',
        `${ID_TOKEN_PERMISSION}, which lets it ask for one; or \`api-key\` instead of \`oidc\``,
      );
    }
    registerSecret(requestToken);
    let token: string;
    try {
      token = await request(url, requestToken, audience);
    } catch (error) {
      throw new ActionError(
        'refused',
        `The runner did not give the job's ID token${audience !== undefined ? ` for the audience ${JSON.stringify(audience)}` : ''} (${(error as Error).message}). Check that the job has ${ID_TOKEN_PERMISSION}.`,
        { cause: error },
      );
    }
    registerSecret(token);
    return token;
  };
}

/** A host with no ID token of its own: the command line on GitLab CI, Jenkins, CircleCI or a terminal. */
export const noIdToken: IdTokenSource = async () => {
  throw new InputError(
    'oidc',
    'is `github`, which only a step on the GitHub runner can use: the command line has no job ID token to fetch',
    "on another CI system, its own OIDC token (GitLab CI's `id_tokens:`, CircleCI's `CIRCLE_OIDC_TOKEN_V2`) in `oidc-token` with `oidc-config-key`, or `api-key`",
  );
};
