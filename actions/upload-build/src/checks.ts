/**
 * What is checked on the account before the file is sent, in one request at most: the tester
 * groups of `groups`, which must exist (the service ignores unknown ones, and the testers would
 * never see the build), and, above 20 MiB, the credentials (a refused key then costs that
 * request, not the upload). Listing the groups proves the credentials too. Both need the REST
 * interface, so `email` with the API key (or an OIDC token); without it nothing is checked, and
 * the log says what would be. Only a refused key, a cancel or an unknown group stop the step;
 * anything else on the REST side is for the upload itself to tell.
 */
import path from 'node:path';
import { ActionError, formatBytes, type StepDeps } from '@sauce-actions/action-kit';
import { checkTesterGroups, unknownGroupsMessage } from '@sauce-actions/action-kit/services/tester-groups';
import { ApiError, type MobileClient } from '@sauce-actions/api';
import { explainUploadFailure } from './failures.ts';
import type { UploadInputs } from './inputs.ts';

/** Above this size a refused key would cost a wasted upload: the credentials are checked first. */
export const CHECK_CREDENTIALS_ABOVE_BYTES = 20 * 1024 * 1024;

/** What the checks use of the step. */
type CheckDeps = Pick<StepDeps, 'logger' | 'signal'> & {
  client: { mobile: Pick<MobileClient, 'projects' | 'testerGroups'> };
};

/** The groups to send: under the names the account has them once checked (an id becomes its name). */
export async function checkBeforeUpload(
  inputs: Pick<UploadInputs, 'connection' | 'groups' | 'timeoutMs'>,
  deps: CheckDeps,
  file: { path: string; size: number },
): Promise<string[]> {
  const { connection, groups } = inputs;
  const large = file.size > CHECK_CREDENTIALS_ABOVE_BYTES;
  if (connection.oidcToken === undefined && connection.email === undefined) {
    if (groups.length > 0) {
      deps.logger.warning(
        `The tester groups (${groups.join(', ')}) were not checked: set \`email\` with \`api-key\` so that a group that does not exist is found before the file is sent.`,
      );
    } else if (large) {
      deps.logger.info(
        `The API key is checked only by the upload itself: set \`email\` so that a wrong key is found before ${formatBytes(file.size)} are sent.`,
      );
    }
    return [...groups];
  }
  const ask = async <T>(
    what: string,
    request: () => Promise<T>,
    otherwise: string,
  ): Promise<T | undefined> => {
    try {
      return await request();
    } catch (error) {
      if (isRefusedKey(error) || deps.signal.aborted) {
        throw explainUploadFailure(error, {
          connection,
          file: path.basename(file.path),
          timeoutMs: inputs.timeoutMs,
        });
      }
      deps.logger.warning(
        `Could not check ${what} before the upload (${(error as Error).message}); ${otherwise}.`,
      );
      return undefined;
    }
  };
  if (groups.length > 0) {
    const check = await ask(
      'the tester groups',
      () => checkTesterGroups(deps.client.mobile.testerGroups, groups, { signal: deps.signal }),
      'sending the file with `groups` unchecked',
    );
    if (check === undefined) return [...groups];
    if (check.unknown.length > 0) {
      throw new ActionError(
        'refused',
        unknownGroupsMessage(
          check,
          'Fix `groups`: the file was not sent. To create groups, run invite-testers with `create-groups: true` after the upload instead.',
        ),
      );
    }
    deps.logger.debug(`The tester groups exist: ${check.found.map((g) => g.name).join(', ')}.`);
    return check.found.map((g) => g.name);
  }
  if (large) {
    const listed = await ask(
      'the credentials',
      () => deps.client.mobile.projects.list({ perPage: 1 }, { signal: deps.signal }),
      'sending the file anyway',
    );
    if (listed !== undefined) deps.logger.debug('The credentials were accepted; sending the file.');
  }
  return [];
}

/** A key the service refused: a bare 401 on REST, code 5 on the upload interface. */
function isRefusedKey(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || String(error.code) === '5');
}
