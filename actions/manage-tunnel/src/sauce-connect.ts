/**
 * Where the Sauce Connect executable comes from: a path already on the runner, or the tool cache,
 * filled once per verified archive. Both hosts' tool caches (the runner's and the command line's)
 * go through here, so an archive is always checked the same way before it is unpacked, cached and
 * run: its checksum first, then where its entries point.
 */
import { constants } from 'node:fs';
import { access, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { ActionError, type ToolCache } from '@sauce-actions/action-kit';
import { outsideEntry } from './archive-tree.ts';
import { describeChecksum, verifyArchive } from './checksum.ts';
import { resolveSource, type ArchiveSource, type SourceOptions } from './download-source.ts';

const TOOL_NAME = 'sauce-connect';
const EXECUTABLES = ['sc', 'sc.exe'];

/** Where the archive may come from (`SourceOptions`), and where an executable may be found. */
interface LocateOptions extends SourceOptions {
  scPath?: string;
  tools: ToolCache;
}

interface LocatedSauceConnect {
  executable: string;
  /** How it was verified, for the summary. */
  verified: string;
}

/** The absolute path of the Sauce Connect executable, downloading and verifying it when needed. */
export async function locateSauceConnect(options: LocateOptions): Promise<LocatedSauceConnect> {
  if (options.scPath !== undefined) {
    const executable = await checkExecutable(path.resolve(options.scPath), '`sc-path`', 'input');
    return { executable, verified: 'not verified: `sc-path` is already on the runner' };
  }
  const source = await resolveSource(options);
  const [first] = source.checksums;
  const verified = first
    ? source.checksums.map((c) => `${describeChecksum(c)} (${c.from})`).join(', ')
    : 'not verified: a file on the runner, without `sc-checksum`';
  // Keyed by what it was verified against: a build from another source never stands in for it.
  const key = first ? `${options.version}-${first.algorithm}-${first.value}` : undefined;
  if (first && key) {
    const cached = await options.tools.find(TOOL_NAME, key);
    if (cached) {
      options.logger.info(
        `Sauce Connect ${options.version} found in the tool cache (${describeChecksum(first)}).`,
      );
      const executable = await checkExecutable(await findExecutable(cached), 'the tool cache', 'service');
      return { executable, verified };
    }
  }
  const archive = source.local ? source.location : await download(source, options);
  try {
    return { executable: await unpack(archive, source, key, options), verified };
  } finally {
    if (!source.local) await rm(archive, { force: true });
  }
}

async function download(source: ArchiveSource, options: LocateOptions): Promise<string> {
  const expected = source.checksums.map((c) => `${describeChecksum(c)} from ${c.from}`).join(', ');
  options.logger.info(
    `Downloading Sauce Connect ${options.version} from ${source.location}; expecting ${expected}.`,
  );
  try {
    return await options.tools.downloadTool(source.location, options.signal);
  } catch (error) {
    // A cancel or the deadline is told as such, not as a failed download.
    if (options.signal?.aborted) throw error;
    throw new ActionError(
      'service',
      `Could not download Sauce Connect from ${source.location}: ${(error as Error).message}. Check \`sc-version\` and \`sc-download-url\`, or give \`sc-path\`.`,
      { cause: error },
    );
  }
}

/** Verifies, unpacks, checks the tree, and caches it when it was verified; the executable's path. */
async function unpack(
  archive: string,
  source: ArchiveSource,
  key: string | undefined,
  options: LocateOptions,
): Promise<string> {
  const what = `from ${source.location}`;
  await verifyArchive(archive, source.checksums, what);
  let extracted: string;
  try {
    extracted = /\.zip$/i.test(source.local ? source.location : new URL(source.location).pathname)
      ? await options.tools.extractZip(archive)
      : await options.tools.extractTar(archive);
  } catch (error) {
    throw new ActionError(
      'service',
      `Could not unpack the Sauce Connect archive ${what}: ${(error as Error).message}. Nothing was cached or run. Check that the archive (\`sc-download-url\`, when given) is a .tar.gz or .zip of Sauce Connect, or give \`sc-path\`.`,
      { cause: error },
    );
  }
  const outside = await outsideEntry(extracted);
  if (outside !== undefined) {
    await rm(extracted, { recursive: true, force: true });
    throw new ActionError(
      'service',
      `The Sauce Connect archive ${what} is refused: ${outside}. Nothing was cached or run.`,
    );
  }
  // An archive on the runner that nothing verified runs from where it was unpacked, uncached.
  const dir = key === undefined ? extracted : await options.tools.cacheDir(extracted, TOOL_NAME, key);
  if (key !== undefined) await rm(extracted, { recursive: true, force: true });
  return checkExecutable(await findExecutable(dir), `the archive ${what}`, 'service');
}

/** `sc` at the top of the archive, or one folder down (older archives wrap it in a folder). */
async function findExecutable(dir: string): Promise<string> {
  for (const name of EXECUTABLES) {
    const direct = path.join(dir, name);
    if (await isFile(direct)) return direct;
  }
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    for (const name of EXECUTABLES) {
      const nested = path.join(dir, entry.name, name);
      if (await isFile(nested)) return nested;
    }
  }
  return path.join(dir, 'sc');
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** `kind`: whose mistake a missing or unusable file is, the user's (`sc-path`) or the archive's. */
async function checkExecutable(file: string, from: string, kind: 'input' | 'service'): Promise<string> {
  if (!(await isFile(file))) {
    throw new ActionError(kind, `No Sauce Connect executable at ${file} (from ${from}).`);
  }
  try {
    if (process.platform !== 'win32') await access(file, constants.X_OK);
  } catch {
    throw new ActionError(kind, `${file} (from ${from}) is not executable: run \`chmod +x\` on it.`);
  }
  return file;
}
