/**
 * `build-id: latest`: the newest build of the project that carries every tag of `tags` (a pull
 * request's `pr-42`, a branch's `main`), so that a later job promotes the build that passed its
 * tests without carrying its id between workflows.
 */
import { ActionError, describeFailure, type StepDeps } from '@sauce-actions/action-kit';
import { ApiError, buildTagsOf, ResponseShapeError, type MobileClient } from '@sauce-actions/api';
import { LATEST_BUILD, type InviteInputs } from './inputs.ts';

interface LatestBuildDeps extends Pick<StepDeps, 'logger' | 'signal'> {
  client: { mobile: { builds: Pick<MobileClient['builds'], 'newest'> } };
}

/** The id of the build to invite: the one given, or the newest one carrying `tags`. */
export async function buildToInvite(
  inputs: Pick<InviteInputs, 'projectId' | 'buildId' | 'tags'>,
  deps: LatestBuildDeps,
): Promise<string> {
  if (inputs.buildId !== LATEST_BUILD) return inputs.buildId;
  const tagged = inputs.tags.length > 0 ? ` tagged ${inputs.tags.join(', ')}` : '';
  let newest;
  try {
    newest = await deps.client.mobile.builds.newest(
      inputs.projectId,
      { tags: inputs.tags },
      { signal: deps.signal },
    );
  } catch (error) {
    if (error instanceof ResponseShapeError && error.field.endsWith('.uploadedAt')) {
      throw new ActionError(
        'service',
        `${describeFailure(error).message} No one was invited. Until the service answers times again, give \`build-id\` the build's id instead of \`latest\`.`,
        { cause: error },
      );
    }
    if (error instanceof ApiError && error.status === 404) {
      throw new ActionError(
        'refused',
        `Project ${inputs.projectId} was not found: check \`project-id\` (upload-build's output of the same name), and that it belongs to the account of the key.`,
        { cause: error },
      );
    }
    throw error;
  }
  if (newest === undefined) {
    throw new ActionError(
      'refused',
      `No build of project ${inputs.projectId} is${tagged || ' there'}, so no one was invited. Check \`tags\` (upload-build tags a pull request's build \`pr-<number>\`), and that the upload ran before this step.`,
    );
  }
  const id = String(newest.id);
  const tags = buildTagsOf(newest) ?? [];
  deps.logger.info(
    `build-id: latest is build ${id} of project ${inputs.projectId}${tagged}${newest.uploadedAt ? `, uploaded ${newest.uploadedAt}` : ''}${tags.length > 0 ? ` (tags: ${tags.join(', ')})` : ''}.`,
  );
  return id;
}
