/** Finding and checking the app file before anything is sent. */
import { glob, stat } from 'node:fs/promises';
import path from 'node:path';
import { InputError, pathFormHint, quoteValue } from '@sauce-actions/action-kit';

const ACCEPTED_EXTENSIONS = ['.apk', '.aab', '.ipa', '.zip'] as const;

const GLOB_CHARS = /[*?[\]{}]/;

/** A path or a glob, relative to the workspace; a glob must match exactly one file. */
export async function resolveAppFile(pattern: string, workspace: string): Promise<string> {
  if (!GLOB_CHARS.test(pattern)) return path.resolve(workspace, pattern);
  const matches: string[] = [];
  for await (const match of glob(pattern, { cwd: workspace })) {
    const full = path.resolve(workspace, match);
    if ((await stat(full)).isFile()) matches.push(full);
  }
  matches.sort();
  if (matches.length === 0) {
    throw new InputError(
      'file',
      `is the pattern ${quoteValue(pattern)}, which matches no file in ${workspace}${pathFormHint(pattern)}`,
      'a path or a glob matching exactly one app file; check that the build step ran and where it writes',
    );
  }
  if (matches.length > 1) {
    const list = matches.map((m) => path.relative(workspace, m)).join(', ');
    throw new InputError(
      'file',
      `is the pattern ${quoteValue(pattern)}, which matches ${matches.length} files (${list})`,
      'a path or a glob matching exactly one app file; make the pattern narrower',
    );
  }
  return matches[0] as string;
}

/**
 * The file exists, is not empty, and is an app the service accepts (or `platform` says what it
 * is); `given` is the input as written, for a hint when its form explains why it was not found.
 */
export async function checkAppFile(
  file: string,
  platform: string | undefined,
  given: string = file,
): Promise<number> {
  const info = await stat(file).catch(() => undefined);
  if (!info)
    throw new InputError(
      'file',
      `names ${file}, which does not exist${pathFormHint(given)}`,
      'the path of the built app file, relative to the workspace; check that the build step ran',
    );
  if (!info.isFile())
    throw new InputError('file', `names ${file}, which is not a file`, 'the path of the built app file');
  if (info.size === 0)
    throw new InputError(
      'file',
      `names ${file}, which is empty`,
      'a complete app file; check the build step',
    );
  const extension = path.extname(file).toLowerCase();
  if (platform === undefined && !(ACCEPTED_EXTENSIONS as readonly string[]).includes(extension)) {
    throw new InputError(
      'file',
      `names ${path.basename(file)}, whose extension ${quoteValue(extension || '(none)')} is not an app package`,
      `${ACCEPTED_EXTENSIONS.join(', ')}; for other apps set \`platform\``,
    );
  }
  return info.size;
}

export async function checkOptionalFile(
  input: string,
  file: string | undefined,
  given: string = file ?? '',
): Promise<void> {
  if (file === undefined) return;
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile())
    throw new InputError(
      input,
      `names ${file}, which is not an existing file${info === undefined ? pathFormHint(given) : ''}`,
      'a path relative to the workspace',
    );
}
