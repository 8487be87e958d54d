/** The inputs of upload-build, read and checked before anything is sent. */
import {
  InputError,
  optionalProperty,
  readMobileConnection,
  TIMEOUT_BOUNDS,
  type InputReader,
  type MobileConnection,
} from '@sauce-actions/action-kit';
import type { MobileUploadPlatform } from '@sauce-actions/api';

const PLATFORMS = [
  'Xbox',
  'PlayStation',
  'switch',
  'windows',
  'macos',
] as const satisfies readonly MobileUploadPlatform[];

export interface UploadInputs {
  connection: MobileConnection;
  /** A path or a glob, relative to the workspace. */
  file: string;
  appName?: string;
  symbolsFile?: string;
  groups: string[];
  notify: boolean;
  /** Text of `release-notes` (not `auto`). */
  releaseNotes?: string;
  releaseNotesFile?: string;
  /** `release-notes: auto`: the commits since the project's last uploaded build, from git. */
  releaseNotesAuto: boolean;
  autoUpdate: boolean;
  tags: string[];
  folderName?: string;
  landingPageMode?: 'open' | 'closed';
  uploadToVendor: boolean;
  platform?: MobileUploadPlatform;
  metadata: Record<string, string>;
  /** Adds the CI system's commit, branch or tag, pull request, repository and run address (`git-metadata`). */
  gitMetadata: boolean;
  /** Longest wait for the service to take the file once it is sent. */
  timeoutMs: number;
  /** Keep a comment on the pull request with the build's links. */
  prComment: boolean;
  /** Writes the pull-request comment; masked as read. */
  githubToken?: string;
}

/** The value of `release-notes` that asks for notes from git. */
const AUTO_RELEASE_NOTES = 'auto';

export function readInputs(read: InputReader): UploadInputs {
  const connection = readMobileConnection(read);
  const releaseNotes = read.string('release-notes');
  const releaseNotesFile = read.string('release-notes-file');
  if (releaseNotes !== undefined && releaseNotesFile !== undefined) {
    throw new InputError(
      'release-notes-file',
      'is set together with `release-notes`',
      'either the notes as text (or `auto`) in `release-notes`, or a path to a file holding them, relative to the workspace, in `release-notes-file`',
    );
  }
  const releaseNotesAuto = releaseNotes === AUTO_RELEASE_NOTES;
  // The last build is read, and the notes written onto the new one, through the REST interface.
  if (releaseNotesAuto && connection.email === undefined && connection.oidcConfigKey === undefined) {
    throw new InputError(
      'release-notes',
      "is `auto`, which reads the project's last build through the REST interface, but `email` is empty",
      '`auto` with `email` (the account email that goes with `api-key`) or with OIDC (`oidc: github` or `oidc-token`); or the notes as text',
    );
  }
  return {
    connection,
    file: read.requiredString(
      'file',
      'the path of the app file (APK, AAB, IPA or macOS ZIP) relative to the workspace, or a glob matching exactly one, such as `app/build/outputs/apk/release/*.apk`',
    ),
    ...optionalProperty('appName', read.string('app-name')),
    ...optionalProperty('symbolsFile', read.string('symbols-file')),
    groups: read.list('groups'),
    notify: read.boolean('notify', false),
    ...optionalProperty('releaseNotes', releaseNotesAuto ? undefined : releaseNotes),
    ...optionalProperty('releaseNotesFile', releaseNotesFile),
    releaseNotesAuto,
    autoUpdate: read.boolean('auto-update', false),
    tags: read.list('tags'),
    ...optionalProperty('folderName', read.string('folder-name')),
    ...optionalProperty('landingPageMode', read.enum('landing-page-mode', ['open', 'closed'])),
    uploadToVendor: read.boolean('upload-to-vendor', false),
    ...optionalProperty('platform', read.enum('platform', PLATFORMS)),
    metadata: read.keyValues('metadata'),
    gitMetadata: read.boolean('git-metadata', true),
    timeoutMs: read.duration('timeout', 30 * 60_000, TIMEOUT_BOUNDS),
    prComment: read.boolean('pr-comment', false),
    ...optionalProperty('githubToken', read.secret('github-token')),
  };
}
