/** Uploads the app file and reports what the service made of it. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ActionError,
  createProgressReporter,
  describeFailure,
  formatBytes,
  mobileBuildUrl,
  mobileInviteUrl,
  mobileWebBase,
  type ActionResult,
  type Failure,
  type StepDeps,
} from '@sauce-actions/action-kit';
import {
  checkTesterGroups,
  unknownGroupsMessage,
  type TesterGroupCheck,
} from '@sauce-actions/action-kit/services/tester-groups';
import { ApiError, ResponseShapeError, type MobileClient, type MobileUploadResult } from '@sauce-actions/api';
import { buildLabels } from './build-metadata.ts';
import { explainUploadFailure } from './failures.ts';
import { checkHistory, writeGitNotes, type GitNotes, type HistoryState } from './git-notes.ts';
import { uploadComment } from './comment.ts';
import { checkAppFile, checkOptionalFile, resolveAppFile } from './files.ts';
import type { UploadInputs } from './inputs.ts';
import { uploadSummary, type UploadOutputs, type UploadReport } from './report.ts';

export interface UploadDeps extends Pick<StepDeps, 'logger' | 'workspace' | 'signal' | 'ci' | 'git'> {
  client: { mobile: Pick<MobileClient, 'upload' | 'projects' | 'testerGroups' | 'builds'> };
}

/** Above this size a refused key would cost a wasted upload: the credentials are checked first. */
const CHECK_CREDENTIALS_ABOVE_BYTES = 20 * 1024 * 1024;

export async function run(inputs: UploadInputs, deps: UploadDeps): Promise<ActionResult<UploadOutputs>> {
  const { connection } = inputs;
  const file = await resolveAppFile(inputs.file, deps.workspace);
  const size = await checkAppFile(file, inputs.platform, inputs.file);
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
  const groups = await checkGroups(inputs, deps, file);
  // Listing the groups has already proved the credentials.
  if (size > CHECK_CREDENTIALS_ABOVE_BYTES && !groups.checked) {
    await checkCredentials(inputs, deps, file, size);
  }
  // With notes from git, the emails wait until the notes are on the build: the invitation sends them.
  const notifyLater = inputs.releaseNotesAuto && inputs.notify && groups.names.length > 0;

  deps.logger.info(
    `Uploading ${path.relative(deps.workspace, file) || file} (${formatBytes(size)}) to ${connection.apiUrl ?? connection.region}`,
  );
  let answer: unknown;
  let failure: Failure | undefined;
  try {
    answer = await deps.client.mobile.upload(
      file,
      {
        ...(inputs.appName !== undefined ? { appName: inputs.appName } : {}),
        ...(symbolsFile !== undefined ? { symbolsFile } : {}),
        ...(groups.names.length > 0 ? { groups: groups.names } : {}),
        notify: inputs.notify && !notifyLater,
        ...(releaseNotes !== undefined ? { releaseNotes } : {}),
        autoUpdate: inputs.autoUpdate,
        ...(labels.tags.length > 0 ? { tags: labels.tags } : {}),
        ...(inputs.folderName !== undefined ? { folderName: inputs.folderName } : {}),
        ...(inputs.landingPageMode !== undefined ? { landingPageMode: inputs.landingPageMode } : {}),
        uploadToVendor: inputs.uploadToVendor,
        ...(inputs.platform !== undefined ? { platform: inputs.platform } : {}),
        metadata: labels.metadata,
        onProgress: createProgressReporter({
          label: `Uploading ${path.basename(file)}`,
          logger: deps.logger,
        }),
      },
      { signal: deps.signal, timeouts: { headersMs: inputs.timeoutMs } },
    );
  } catch (error) {
    // The build was stored, but part of the answer cannot be read: what can be read is published.
    if (!(error instanceof ResponseShapeError)) {
      throw explainUploadFailure(error, {
        connection,
        file: path.basename(file),
        timeoutMs: inputs.timeoutMs,
      });
    }
    answer = error.answer;
    failure = describeFailure(error, deps.signal);
  }

  const report = uploadReport(answer, { inputs, size, groups: groups.names, tags: labels.tags });
  report.metadata = labels.metadata;
  const { outputs } = report;
  if (outputs['build-id'] !== '') {
    deps.logger.info(
      `Uploaded ${outputs['app-name']} ${outputs['app-version']}: build ${outputs['build-id']} of project ${outputs['project-id']}`,
    );
  }
  if (history !== undefined && failure === undefined) {
    try {
      const notes = await afterUpload(history, outputs, notifyLater ? groups.names : [], deps);
      if (notes !== undefined) report.releaseNotes = notes.basis;
    } catch (error) {
      failure = describeFailure(error, deps.signal);
    }
  }
  return {
    outputs,
    summary: uploadSummary(report),
    annotations: [],
    ...(inputs.prComment ? { comment: uploadComment(report) } : {}),
    ...(failure !== undefined ? { failure } : {}),
  };
}

/**
 * The outputs and the summary from the upload's answer. A field of another type than the
 * interface documents counts as absent, so that what can be read of an answer the client refused
 * is still published; links the answer lacks are built from the ids, when those were read.
 */
function uploadReport(
  answer: unknown,
  context: { inputs: UploadInputs; size: number; groups: string[]; tags: string[] },
): UploadReport {
  const { inputs } = context;
  const fields = answer !== null && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
  const text = (name: keyof MobileUploadResult): string => {
    const value = fields[name];
    return typeof value === 'string' ? value : '';
  };
  const idOf = (name: keyof MobileUploadResult): string => {
    const value = fields[name];
    if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
    return typeof value === 'string' ? value.trim() : '';
  };
  const { connection } = inputs;
  const webBase = mobileWebBase(connection.region, connection.apiUrl);
  const buildId = idOf('build_id');
  const projectId = idOf('project_id');
  const known = buildId !== '' && projectId !== '';
  const tags = Array.isArray(fields.tags) ? fields.tags.filter((tag) => typeof tag === 'string') : [];
  return {
    outputs: {
      'build-id': buildId,
      'project-id': projectId,
      'build-url': text('build_url') || (known ? mobileBuildUrl(webBase, projectId, buildId) : ''),
      'download-page-url': text('download_page_url'),
      'landing-page-url': text('build_specific_landing_page_url') || text('landing_page_url'),
      'app-name': text('app_name'),
      'app-version': text('app_version'),
    },
    sizeBytes: typeof fields.file_size === 'number' ? fields.file_size : context.size,
    platform: text('platform') || (inputs.platform ?? ''),
    inviteUrl: text('invite_testers_url') || (known ? mobileInviteUrl(webBase, projectId, buildId) : ''),
    groups: context.groups,
    tags: tags.length > 0 ? tags : context.tags,
    metadata: {},
  };
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

/** The tester groups to send, and whether the account's list confirmed them. */
interface GroupsToSend {
  /** Names as the account has them when checked (an id given becomes its group's name), else as given. */
  names: string[];
  checked: boolean;
}

/**
 * The groups of `groups` must exist before the file is sent: the service ignores unknown ones,
 * and the testers would then never see the build. The REST interface needs `email` with an API
 * key (or an OIDC token); without it the groups go unchecked, with a warning.
 */
async function checkGroups(inputs: UploadInputs, deps: UploadDeps, file: string): Promise<GroupsToSend> {
  const { connection, groups } = inputs;
  if (groups.length === 0) return { names: [], checked: false };
  if (connection.oidcToken === undefined && connection.email === undefined) {
    deps.logger.warning(
      `The tester groups (${groups.join(', ')}) were not checked: set \`email\` with \`api-key\` so that a group that does not exist is found before the file is sent.`,
    );
    return { names: groups, checked: false };
  }
  let check: TesterGroupCheck;
  try {
    check = await checkTesterGroups(deps.client.mobile.testerGroups, groups, { signal: deps.signal });
  } catch (error) {
    if (isRefusedKey(error) || deps.signal.aborted) {
      throw explainUploadFailure(error, {
        connection,
        file: path.basename(file),
        timeoutMs: inputs.timeoutMs,
      });
    }
    // As with the credentials check: trouble on the REST side is for the upload itself to tell.
    deps.logger.warning(
      `Could not check the tester groups before the upload (${(error as Error).message}); sending the file with \`groups\` unchecked.`,
    );
    return { names: groups, checked: false };
  }
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
  return { names: check.found.map((g) => g.name), checked: true };
}

/** A key the service refused: a bare 401 on REST, code 5 on the upload interface. */
function isRefusedKey(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || String(error.code) === '5');
}

/**
 * One small authenticated request before a large file: a refused key then costs that request, not
 * the upload. The REST interface needs the email with an API key; without it only the upload
 * itself can tell.
 */
async function checkCredentials(
  inputs: UploadInputs,
  deps: UploadDeps,
  file: string,
  size: number,
): Promise<void> {
  const { connection } = inputs;
  if (connection.oidcToken === undefined && connection.email === undefined) {
    deps.logger.info(
      `The API key is checked only by the upload itself: set \`email\` so that a wrong key is found before ${formatBytes(size)} are sent.`,
    );
    return;
  }
  try {
    await deps.client.mobile.projects.list({ perPage: 1 }, { signal: deps.signal });
  } catch (error) {
    // Only a refused key ends the step here; anything else (a role that may not list projects,
    // trouble on the REST side) is for the upload itself to tell.
    if (isRefusedKey(error) || deps.signal.aborted) {
      throw explainUploadFailure(error, {
        connection,
        file: path.basename(file),
        timeoutMs: inputs.timeoutMs,
      });
    }
    deps.logger.warning(
      `Could not check the credentials before the upload (${(error as Error).message}); sending the file anyway.`,
    );
    return;
  }
  deps.logger.debug('The credentials were accepted; sending the file.');
}

async function releaseNotesOf(inputs: UploadInputs, workspace: string): Promise<string | undefined> {
  if (inputs.releaseNotesFile === undefined) return inputs.releaseNotes;
  const file = path.resolve(workspace, inputs.releaseNotesFile);
  await checkOptionalFile('release-notes-file', file, inputs.releaseNotesFile);
  return (await readFile(file, 'utf8')).trim();
}
