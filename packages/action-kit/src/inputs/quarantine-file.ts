/**
 * Reading the quarantine file that `quarantine-file` names, or the default where it exists. It
 * must be a plain file in the workspace: a path that leaves it is refused, and so is a symbolic
 * link whose target does (a link within the workspace is followed, as git keeps them). A named
 * pipe would hold the step in `read` forever and a device could be endless, so only a plain file
 * of at most 1 MiB is opened, without waiting and without following a link put there meanwhile.
 */
import { constants, type Stats } from 'node:fs';
import { lstat, open, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { InputError, quoteValue } from '../step/input-error.ts';
import { formatSize } from '../values/size.ts';
import { pathFormHint } from './input-forms.ts';
import { DEFAULT_QUARANTINE_FILE, MAX_QUARANTINE_BYTES, QUARANTINE_INPUT } from './quarantine-entry.ts';

export interface QuarantineFile {
  /** The path as the input names it (or the default), for messages and `parseQuarantine`. */
  file: string;
  /** Where it was read. */
  path: string;
  text: string;
}

const FILE_ALLOWED = `the path of a YAML file in the workspace, relative to it, such as \`${DEFAULT_QUARANTINE_FILE}\` (the default, read where it exists)`;
/** Windows has neither flag, nor pipes at a path. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * The quarantine file's text: the file `input` names, or `.sauce/quarantine.yml` when the input is
 * empty; `undefined` when the input is empty and that default does not exist. Throws an
 * `InputError` of `quarantine-file` when a named file is missing, or either is outside the
 * workspace, not a plain file, over 1 MiB, not UTF-8 or unreadable.
 */
export async function readQuarantineFile(
  workspace: string,
  input: string | undefined,
): Promise<QuarantineFile | undefined> {
  const given = input?.trim() || undefined;
  const file = given ?? DEFAULT_QUARANTINE_FILE;
  const shown = given === undefined ? `${quoteValue(file)} (the default)` : quoteValue(file);
  const refuse = (problem: string): InputError =>
    new InputError(QUARANTINE_INPUT, `names ${shown}, ${problem}`, FILE_ALLOWED);
  const root = path.resolve(workspace);
  const resolved = path.resolve(root, file);
  if (!isWithin(root, resolved)) throw refuse(`which is outside the workspace (${shownPath(root)})`);

  const entry = await lstat(resolved).catch((error: unknown) => {
    const code = codeOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw refuse(`which cannot be read: ${reasonOf(error)}`);
  });
  if (entry === undefined) {
    if (given === undefined) return undefined;
    throw refuse(`which does not exist (looked for ${shownPath(resolved)})${pathFormHint(file)}`);
  }

  let real: string;
  try {
    real = await realpath(resolved);
  } catch (error) {
    const target = entry.isSymbolicLink() ? await readlink(resolved).catch(() => undefined) : undefined;
    if (codeOf(error) === 'ENOENT' && target !== undefined) {
      throw refuse(`a symbolic link to ${quoteValue(target)}, which does not exist`);
    }
    throw refuse(`which cannot be read: ${reasonOf(error)}`);
  }
  const realRoot = await realpath(root).catch(() => root);
  if (!isWithin(realRoot, real)) {
    throw refuse(`which leads outside the workspace, to ${shownPath(real)} (through a symbolic link)`);
  }
  const found = await stat(real).catch((error: unknown) => {
    throw refuse(`which cannot be read: ${reasonOf(error)}`);
  });
  const notPlain = notAPlainFile(found);
  if (notPlain !== undefined) throw refuse(notPlain);
  if (found.size > MAX_QUARANTINE_BYTES) throw refuse(tooLarge(found.size));

  const bytes = await readAtMost(real, MAX_QUARANTINE_BYTES + 1).catch((error: unknown) => {
    throw refuse(`which cannot be read: ${reasonOf(error)}`);
  });
  if (typeof bytes === 'string') throw refuse(bytes);
  if (bytes.length > MAX_QUARANTINE_BYTES) throw refuse(tooLarge(bytes.length));
  try {
    // Fatal: a file in another encoding would otherwise be read as some other text.
    return { file, path: real, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    throw refuse('which is not UTF-8 text');
  }
}

/**
 * Up to `limit` bytes of the file, or what it turned out to be when it is no plain file any more
 * (replaced between the check and the open).
 */
async function readAtMost(file: string, limit: number): Promise<Buffer | string> {
  const handle = await open(file, READ_FLAGS);
  try {
    const opened = notAPlainFile(await handle.stat());
    if (opened !== undefined) return opened;
    const buffer = Buffer.alloc(limit);
    let length = 0;
    while (length < limit) {
      const { bytesRead } = await handle.read(buffer, length, limit - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

/** A path in a refusal: as it is, or quoted whole when a control character would break the line. */
function shownPath(at: string): string {
  return /\p{Cc}/u.test(at) ? JSON.stringify(at) : at;
}

/** Whether `target` is `root` or inside it. */
function isWithin(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/** What the entry is when it is no plain file, as the refusal says it. */
function notAPlainFile(found: Stats): string | undefined {
  if (found.isFile()) return undefined;
  if (found.isDirectory()) return 'which is a folder, not a file';
  if (found.isFIFO()) return 'which is a named pipe (FIFO), not a file';
  if (found.isSocket()) return 'which is a socket, not a file';
  return 'which is a device, not a file';
}

function tooLarge(bytes: number): string {
  return `which is ${formatSize(bytes)}, more than ${formatSize(MAX_QUARANTINE_BYTES)}`;
}

function reasonOf(error: unknown): string {
  switch (codeOf(error)) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ELOOP':
      return 'its symbolic links loop';
    case 'EISDIR':
      return 'it is a folder';
    default:
      // Node's message holds the path, which may hold a line break.
      return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
