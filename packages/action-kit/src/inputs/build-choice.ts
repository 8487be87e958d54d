/**
 * Which build a mobile step acts on: `build-id`, a build's id, or `latest`, the newest build of
 * the project carrying every tag of `tags` (a pull request's `pr-42`, a branch's `main`), so that
 * a later job or workflow acts on the build that passed its tests without carrying its id.
 */
import { InputError } from '../step/input-error.ts';
import type { InputReader } from './inputs.ts';

/** The value of `build-id` that picks the newest build carrying `tags`. */
export const LATEST_BUILD = 'latest';

export interface BuildChoice {
  /** A build's id, or `latest`. */
  buildId: string;
  /** With `build-id: latest`: the tags the build must carry. */
  tags: string[];
}

/** `build-id` (a build's id, or `latest`) and `tags`, which only `latest` reads. */
export function readBuildChoice(read: InputReader): BuildChoice {
  const tags = read.list('tags');
  if (read.string('build-id') === LATEST_BUILD) return { buildId: LATEST_BUILD, tags };
  const buildId = read.id('build-id', 'positive-integer', {
    required: true,
    hint: 'the `build-id` output of upload-build, or `latest` with `tags` for the newest build carrying them',
  });
  if (tags.length > 0) {
    throw new InputError(
      'tags',
      `is set, but \`build-id\` names build ${buildId}`,
      '`tags` together with `build-id: latest`, which picks the newest build of the project carrying every one of them',
    );
  }
  return { buildId, tags };
}
