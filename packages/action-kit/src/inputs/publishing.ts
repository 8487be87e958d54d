/**
 * The inputs that say where a test step's report goes on GitHub besides the summary: the
 * pull-request comment, the check run, the token that writes them, and the pull request when the
 * event names none. Read the same way by every action that offers them.
 */
import { InputError } from '../step/input-error.ts';
import { optionalProperty } from '../values/optional-property.ts';
import type { InputReader } from './inputs.ts';

export interface PublishingInputs {
  /** Keep a comment on the pull request with the counts and the failed and flaky items. */
  prComment: boolean;
  /** Writes the comment and the check run; masked as read. */
  githubToken?: string;
  /** The name of a check run of the results, the same whatever the shard count. */
  checkName?: string;
  /** The pull request to comment on when the event names none (a fork's, on `workflow_run`). */
  pullRequest?: number;
}

/** GitHub shows a check's name on one line; longer names are cut in the pull request's list. */
const MAX_CHECK_NAME = 100;

export function readPublishingInputs(read: InputReader): PublishingInputs {
  const checkName = read.string('check-name');
  if (checkName !== undefined && (checkName.length > MAX_CHECK_NAME || /[\r\n]/.test(checkName))) {
    throw new InputError(
      'check-name',
      checkName.length > MAX_CHECK_NAME ? `is ${checkName.length} characters long` : 'has a line break',
      `one line of at most ${MAX_CHECK_NAME} characters, such as \`Sauce Labs Regression\``,
    );
  }
  return {
    prComment: read.boolean('pr-comment', false),
    ...optionalProperty('githubToken', read.secret('github-token')),
    ...optionalProperty('checkName', checkName),
    ...optionalProperty('pullRequest', read.integer('pull-request', undefined, { min: 1 })),
  };
}
