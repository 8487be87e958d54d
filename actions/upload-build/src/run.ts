/**
 * Uploads the app file and reports what the service made of it: the files and the account
 * checked first (nothing is sent when they are wrong), the build stored, its notes from git
 * written on it after, and one report of what was done, failures after the upload included.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ActionError,
  createProgressReporter,
  describeFailure,
  formatBytes,
  type ActionResult,
  type Failure,
  type Logger,
  type StepDeps,
} from '@sauce-actions/action-kit';
import { ResponseShapeError, type MobileClient } from '@sauce-actions/api';
import { buildLabels } from './build-metadata.ts';
import { checkBeforeUpload } from './checks.ts';
import { uploadComment } from './comment.ts';
import { explainUploadFailure } from './failures.ts';
import { checkAppFile, checkOptionalFile, resolveAppFile } from './files.ts';
import { checkHistory, writeGitNotes, type GitNotes, type HistoryState } from './git-notes.ts';
import type { UploadInputs } from './inputs.ts';
import { uploadReport, uploadSummary, type UploadOutputs } from './report.ts';
import { uploadRequest, type PreparedUpload } from './request.ts';

export interface UploadDeps extends Pick<StepDeps, 'logger' | 'workspace' | 'signal' | 'ci' | 'git'> {
  client: { mobile: Pick<MobileClient, 'upload' | 'projects' | 'testerGroups' | 'builds'> };
}

export async function run(inputs: UploadInputs, deps: UploadDeps): Promise<ActionResult<UploadOutputs>> {
  const file = await resolveAppFile(inputs.file, deps.workspace);
  const size = await checkAppFile(file, inputs.platform, inputs.file);
  const prepared = await prepare(inputs, deps, { path: file, size });
  const sent = await send(inputs, deps, file, size, prepared);
  const report = uploadReport(sent.answer, {
    inputs,
    size,
    groups: [...prepared.groups],
    tags: prepared.labels.tags,
  });
  report.metadata = prepared.labels.metadata;
  logUploaded(report.outputs, deps.logger);
  let failure = sent.failure;
  if (prepared.history !== undefined && failure === undefined) {
    try {
      const notifyGroups = prepared.notifyLater ? [...prepared.groups] : [];
      const notes = await afterUpload(prepared.history, report.outputs, notifyGroups, deps);
      if (notes !== undefined) report.releaseNotes = notes.basis;
    } catch (error) {
      failure = describeFailure(error, deps.signal);
    }
  }
  return {
    outputs: report.outputs,
    summary: uploadSummary(report),
    annotations: [],
    ...(inputs.prComment ? { comment: uploadComment(report) } : {}),
    ...(failure !== undefined ? { failure } : {}),
  };
}

/** Everything before the upload: the other files read, the labels, git's history, the account checked. */
async function prepare(
  inputs: UploadInputs,
  deps: UploadDeps,
  file: { path: string; size: number },
): Promise<PreparedUpload & { history?: HistoryState | undefined; labels: ReturnType<typeof buildLabels> }> {
  const symbolsFile =
    inputs.symbolsFile !== undefined ? path.resolve(deps.workspace, inputs.symbolsFile) : undefined;
  await checkOptionalFile('symbols-file', symbolsFile, inputs.symbolsFile);
  const releaseNotes = await releaseNotesOf(inputs, deps.workspace);
  const labels = buildLabels(inputs, deps.ci);
  if (labels.fromCi.length > 0) {
    deps.logger.info(
      `Build metadata from the CI system: ${labels.fromCi.join(', ')} (\`git-metadata: false\` leaves it out).`,
    );
  }
  const history = inputs.releaseNotesAuto ? await checkHistory(deps) : undefined;
  const groups = await checkBeforeUpload(inputs, deps, file);
  // With notes from git, the emails wait until the notes are on the build: the invitation sends them.
  const notifyLater = inputs.releaseNotesAuto && inputs.notify && groups.length > 0;
  return { symbolsFile, releaseNotes, groups, labels, notifyLater, history };
}

/**
 * Sends the file. An answer that cannot be read in full is published as far as it can be read,
 * with its failure: the build was stored.
 */
async function send(
  inputs: UploadInputs,
  deps: UploadDeps,
  file: string,
  size: number,
  prepared: PreparedUpload,
): Promise<{ answer: unknown; failure?: Failure }> {
  const { connection } = inputs;
  deps.logger.info(
    `Uploading ${path.relative(deps.workspace, file) || file} (${formatBytes(size)}) to ${connection.apiUrl ?? connection.region}`,
  );
  const onProgress = createProgressReporter({
    label: `Uploading ${path.basename(file)}`,
    logger: deps.logger,
  });
  try {
    const answer = await deps.client.mobile.upload(
      file,
      { ...uploadRequest(inputs, prepared), onProgress },
      { signal: deps.signal, timeouts: { headersMs: inputs.timeoutMs } },
    );
    return { answer };
  } catch (error) {
    if (!(error instanceof ResponseShapeError)) {
      throw explainUploadFailure(error, {
        connection,
        file: path.basename(file),
        timeoutMs: inputs.timeoutMs,
      });
    }
    return { answer: error.answer, failure: describeFailure(error, deps.signal) };
  }
}

function logUploaded(outputs: UploadOutputs, logger: Pick<Logger, 'info'>): void {
  if (outputs['build-id'] === '') return;
  logger.info(
    `Uploaded ${outputs['app-name']} ${outputs['app-version']}: build ${outputs['build-id']} of project ${outputs['project-id']}`,
  );
}

/**
 * `release-notes: auto` once the build is stored: the notes from git written onto it, then the
 * testers of `groups` emailed (`notify`), which waited for them. The build stays whatever fails.
 */
async function afterUpload(
  history: HistoryState,
  outputs: UploadOutputs,
  notifyGroups: string[],
  deps: UploadDeps,
): Promise<GitNotes | undefined> {
  const build = { projectId: outputs['project-id'], buildId: outputs['build-id'] };
  if (build.projectId === '' || build.buildId === '') return undefined;
  const notes = await writeGitNotes(history, build, deps);
  if (notifyGroups.length > 0) {
    try {
      await deps.client.mobile.builds.invite(
        build.projectId,
        build.buildId,
        { groups: notifyGroups, notify: true },
        { signal: deps.signal },
      );
    } catch (error) {
      if (deps.signal.aborted) throw error;
      throw new ActionError(
        'refused',
        `Build ${build.buildId} was uploaded, but the testers of ${notifyGroups.join(', ')} could not be emailed (\`notify\`): ${(error as Error).message}. Run invite-testers with \`notify: true\` to email them.`,
        { cause: error },
      );
    }
    deps.logger.info(`Emailed the testers of ${notifyGroups.join(', ')} about build ${build.buildId}.`);
  }
  return notes;
}

async function releaseNotesOf(inputs: UploadInputs, workspace: string): Promise<string | undefined> {
  if (inputs.releaseNotesFile === undefined) return inputs.releaseNotes;
  const file = path.resolve(workspace, inputs.releaseNotesFile);
  await checkOptionalFile('release-notes-file', file, inputs.releaseNotesFile);
  return (await readFile(file, 'utf8')).trim();
}
