/**
 * `build-id: latest`: the newest build of the project that carries every tag of `tags` (a pull
 * request's `pr-42`, a branch's `main`), found with one listing of the project's builds.
 */
import { ApiError, buildTagsOf, ResponseShapeError, type MobileClient } from '@sauce-actions/api';
import type { StepDeps } from '../deps.ts';
import { LATEST_BUILD, type BuildChoice } from '../inputs/build-choice.ts';
import { ActionError, describeFailure } from '../step/failure.ts';

interface LatestBuildDeps extends Pick<StepDeps, 'logger' | 'signal'> {
  client: { mobile: { builds: Pick<MobileClient['builds'], 'newest'> } };
}

/**
 * The id of the build chosen: the one given, or the newest one carrying `tags`. `nothing` says
 * what did not happen for want of a build (`no one was invited`), in the refusals.
 */
export async function chosenBuild(
  inputs: BuildChoice & { projectId: string },
  deps: LatestBuildDeps,
  nothing: string,
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
        `${describeFailure(error).message} ${capitalized(nothing)}. Until the service answers times again, give \`build-id\` the build's id instead of \`latest\`.`,
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
      `No build of project ${inputs.projectId} is${tagged || ' there'}, so ${nothing}. Check \`tags\` (upload-build tags a pull request's build \`pr-<number>\`), and that the upload ran before this step.`,
    );
  }
  const id = String(newest.id);
  const tags = buildTagsOf(newest) ?? [];
  deps.logger.info(
    `build-id: latest is build ${id} of project ${inputs.projectId}${tagged}${newest.uploadedAt ? `, uploaded ${newest.uploadedAt}` : ''}${tags.length > 0 ? ` (tags: ${tags.join(', ')})` : ''}.`,
  );
  return id;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
