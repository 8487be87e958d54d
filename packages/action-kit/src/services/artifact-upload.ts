/**
 * A step's workflow artifacts: a name unique within the run, and an upload that never fails the
 * step.
 *
 * The service refuses a second artifact under a name the run has (artifacts are immutable), and
 * nothing in a step's environment tells the legs of a matrix apart: the job id and the step id
 * are the same in each. The name says what the step knows (the job, the step's own id, the
 * shard, the run attempt), so that it reads well and a later job finds it by pattern; where the
 * run has that name already, it takes a short random part more.
 */
import { randomBytes } from 'node:crypto';
import type { Artifacts, ArtifactUpload, WorkflowRun } from '../deps.ts';
import type { Shard } from '../inputs/inputs.ts';
import type { Logger } from '../step/logger.ts';

/** What a part of a name keeps: what every file system and the service take, no separator. */
const UNSAFE = /[^A-Za-z0-9._-]+/g;
/** Each part of a name at most: a long tunnel or job name must not crowd out the shard and attempt. */
const PART_LENGTH = 60;
/** Names tried: the readable one, then with a random part (three bytes: a second clash is unlikely). */
const NAME_TRIES = 3;

/**
 * `<prefix>-<job>[-<step id>][-<label>][-<i>-of-<n>][-attempt-<n>]`, for example
 * `sauce-job-assets-e2e-2-of-3-attempt-1`. A step without an id of the workflow's is named by the
 * runner (`__run`, `__owner_repo_2`): that name is left out, as a reader cannot tell it.
 */
export function artifactName(
  prefix: string,
  workflow: WorkflowRun,
  options: { label?: string; shard?: Shard } = {},
): string {
  const { label, shard } = options;
  const parts = [
    prefix,
    workflow.job,
    workflow.step?.startsWith('__') ? undefined : workflow.step,
    label,
    shard && shard.total > 1 ? `${shard.index}-of-${shard.total}` : undefined,
    workflow.runAttempt ? `attempt-${workflow.runAttempt}` : undefined,
  ];
  return parts
    .flatMap((part) => {
      const safe = (part ?? '')
        .replace(UNSAFE, '-')
        .slice(0, PART_LENGTH)
        .replace(/^[-.]+|[-.]+$/g, '');
      return safe === '' ? [] : [safe];
    })
    .join('-');
}

export interface ArtifactRequest {
  /** What the files are, as the log says it: `the Sauce Connect log`. */
  what: string;
  name: string;
  files: readonly string[];
  /** The folder the files' paths in the artifact start from. */
  root: string;
  /** None: as long as the repository's settings say. */
  retentionDays?: number;
  /** The sentence that says where the files stay when they are not uploaded. */
  kept: string;
}

/**
 * Uploads the files as one artifact, under the request's name or, where the run has it, another
 * made from it. Answers the name it took, or undefined when the files stay where they are, with a
 * warning that says why (no artifact service here, or the upload failed). Never throws.
 */
export async function uploadArtifact(
  artifacts: Artifacts,
  logger: Logger,
  request: ArtifactRequest,
): Promise<string | undefined> {
  const options = request.retentionDays !== undefined ? { retentionDays: request.retentionDays } : {};
  const taken: string[] = [];
  let name = request.name;
  for (;;) {
    let upload: ArtifactUpload;
    try {
      upload = await artifacts.upload(name, request.files, request.root, options);
    } catch (error) {
      logger.warning(
        `Could not upload ${request.what} as an artifact: ${(error as Error).message}. ${request.kept}`,
      );
      return undefined;
    }
    if (upload.outcome === 'uploaded') {
      const id = upload.id !== undefined ? ` (id ${upload.id})` : '';
      logger.info(`Uploaded ${request.what} as artifact "${name}"${id}.`);
      return name;
    }
    if (upload.outcome === 'unavailable') {
      logger.warning(`Could not upload ${request.what} as an artifact: ${upload.reason}. ${request.kept}`);
      return undefined;
    }
    taken.push(name);
    if (taken.length === NAME_TRIES) {
      logger.warning(
        `Could not upload ${request.what} as an artifact: the run has artifacts named ${taken.map((n) => `"${n}"`).join(', ')} already. ${request.kept}`,
      );
      return undefined;
    }
    name = `${request.name}-${randomBytes(3).toString('hex')}`;
    logger.info(
      `The artifact name "${taken.at(-1)}" is taken in this run (by another job of the matrix, or another step): uploading ${request.what} as "${name}".`,
    );
  }
}
