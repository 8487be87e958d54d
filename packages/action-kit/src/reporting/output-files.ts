/**
 * Files a step writes: a report at a path an input names, a results file in the runner's
 * temporary folder. They are checked before the run starts, so that a path that cannot be written
 * is refused before anything is queued, and their folders are made one level at a time: Node's
 * recursive `mkdir` loops forever, at full CPU and deaf to signals, under a folder that exists but
 * answers ENOENT to any new child (`/proc`). The file itself must be a plain file or missing: a
 * named pipe would hold the step forever in `open` (deaf to signals and to `timeout`), and a
 * symbolic link would have the report written wherever it points. A file is written whole to a
 * new file beside it, then renamed over the path, so that a link or a pipe put there meanwhile is
 * replaced, never followed.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, readlink, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ActionError } from '../step/failure.ts';
import { InputError, quoteValue } from '../step/input-error.ts';

/** Who names an output file: an input (a refusal is then that input's error), or the step itself. */
export type OutputFileOwner =
  | { input: string }
  | {
      /** What the file is, as a sentence starts: "The results file". */
      what: string;
      /** What makes the place writable, for example "Check that RUNNER_TEMP is a writable folder." */
      fix: string;
    };

/**
 * The check's open: never through a symbolic link, never waiting on a pipe (ENXIO instead when
 * nothing reads it). Windows has neither flag, nor pipes at a path.
 */
const PROBE_FLAGS =
  constants.O_WRONLY |
  constants.O_APPEND |
  constants.O_CREAT |
  (constants.O_NOFOLLOW ?? 0) |
  (constants.O_NONBLOCK ?? 0);

/**
 * Checks that `file` can be written: a plain file or nothing (not a folder, a symbolic link, a
 * pipe or a device), its folder made (one level at a time) or already there, and a file there can
 * be opened for writing. A file the check had to create is removed again. Throws an `InputError`
 * naming the input, or an `ActionError` of kind `input`.
 */
export async function checkOutputFile(file: string, owner: OutputFileOwner): Promise<void> {
  const resolved = path.resolve(file);
  let existing: Stats | undefined;
  try {
    existing = await lstatOrUndefined(resolved);
  } catch (error) {
    throw refusal(file, owner, await reasonOf(error, resolved));
  }
  if (existing !== undefined && !existing.isFile()) {
    throw refusal(file, owner, await notAFile(existing, resolved), true);
  }
  try {
    await ensureFolder(path.dirname(resolved));
    // Appending creates the file when missing and never truncates one that is there.
    const handle = await open(resolved, PROBE_FLAGS, 0o666);
    await handle.close();
  } catch (error) {
    throw refusal(file, owner, await reasonOf(error, resolved));
  }
  if (existing === undefined) await unlink(resolved).catch(() => {});
}

/** Checks several output files, in order; the first that cannot be written is thrown. */
export async function checkOutputFiles(
  files: readonly { file: string; owner: OutputFileOwner }[],
): Promise<void> {
  for (const { file, owner } of files) await checkOutputFile(file, owner);
}

/**
 * Writes `text` to `file`, making its folder first: to a new file in the same folder (created
 * exclusively, so no link is followed), then renamed over `file`, which replaces whatever is
 * there (a link, a pipe) instead of writing through it; a reader sees the old file or the new one.
 */
export async function writeOutputFile(file: string, text: string): Promise<void> {
  const target = path.resolve(file);
  const folder = path.dirname(target);
  await ensureFolder(folder);
  const temporary = path.join(folder, `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(temporary, text, { encoding: 'utf8', flag: 'wx' });
  try {
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}

/**
 * Makes `folder` and any missing parent, one `mkdir` per missing level: the walk up ends at the
 * first folder that exists (or the root), so it is bounded by the path's depth, and any `mkdir`
 * that fails ends it with that error.
 */
export async function ensureFolder(folder: string): Promise<void> {
  const missing: string[] = [];
  for (let at = path.resolve(folder); ;) {
    const found = await statOrUndefined(at);
    if (found) {
      if (!found.isDirectory()) throw fsError('ENOTDIR', `not a folder: ${at}`, at);
      break;
    }
    missing.push(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const level of missing.reverse()) {
    try {
      await mkdir(level);
    } catch (error) {
      // Made meanwhile by someone else: the next level (or the write) tells whether it is a folder.
      if (codeOf(error) !== 'EEXIST') throw error;
    }
  }
}

async function statOrUndefined(at: string): Promise<Stats | undefined> {
  try {
    return await stat(at);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** The entry itself, a symbolic link not followed. */
async function lstatOrUndefined(at: string): Promise<Stats | undefined> {
  try {
    return await lstat(at);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** What the entry at `at` is, when it is no plain file, in words. */
async function notAFile(found: Stats, at: string): Promise<string> {
  if (found.isDirectory()) return 'is a folder';
  if (found.isSymbolicLink()) {
    const target = await readlink(at).catch(() => undefined);
    return `is a symbolic link${target !== undefined ? ` (to ${target})` : ''}: the file would be written where it points`;
  }
  if (found.isFIFO()) return 'is a named pipe (FIFO): writing to it would wait for a reader';
  if (found.isSocket()) return 'is a socket';
  return 'is a device, not a file';
}

/** The refusal of `file`; `isWhat` when `reason` says what the entry is ("is a folder"). */
function refusal(file: string, owner: OutputFileOwner, reason: string, isWhat = false): Error {
  if ('input' in owner) {
    return new InputError(
      owner.input,
      `names ${quoteValue(file)}, which ${isWhat ? reason : `cannot be written: ${reason}`}`,
      'the path of a plain file (or none yet) in a writable folder, not a symbolic link, a pipe or a device, for example `reports/junit.xml`',
    );
  }
  return new ActionError(
    'input',
    `${owner.what} ${file} ${isWhat ? reason : `cannot be written: ${reason}`}. ${owner.fix}`,
  );
}

/** Why a file system call on `file` failed, in words. */
async function reasonOf(error: unknown, file: string): Promise<string> {
  const where = (error as { path?: unknown }).path;
  const code = codeOf(error);
  const at = code === 'ENOTDIR' ? await fileInTheWay(file) : typeof where === 'string' ? where : undefined;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return at ? `permission denied on ${at}` : 'permission denied';
    case 'EROFS':
      return at ? `${at} is on a read-only file system` : 'the file system is read-only';
    case 'ENOTDIR':
      return at ? `${at} is not a folder` : 'a part of the path is not a folder';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENOENT':
      return at ? `${at} cannot be created there` : 'its folder cannot be created';
    case 'ENOSPC':
      return 'no space is left on the device';
    case 'ELOOP':
      return 'it is a symbolic link';
    case 'ENXIO':
      return 'it is a named pipe (FIFO) that nothing reads';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

/** The first part of the path that exists and is not a folder; bounded by the path's depth. */
async function fileInTheWay(file: string): Promise<string | undefined> {
  for (let at = path.dirname(file); ; at = path.dirname(at)) {
    const found = await stat(at).catch(() => undefined);
    if (found && !found.isDirectory()) return at;
    if (path.dirname(at) === at) return undefined;
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function fsError(code: string, message: string, at: string): Error {
  return Object.assign(new Error(`${code}: ${message}`), { code, path: at });
}
