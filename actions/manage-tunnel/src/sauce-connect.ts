/**
 * Where the Sauce Connect executable comes from: a path already on the runner, or the tool cache,
 * filled once per version from a download address (the official builds by default).
 */
import { constants } from 'node:fs';
import { access, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { ActionError, type Logger, type ToolCache } from '@sauce-actions/action-kit';

export const TOOL_NAME = 'sauce-connect';
const EXECUTABLES = ['sc', 'sc.exe'];

/** The official build's address for this platform; `{version}` stands for the version. */
export function defaultDownloadUrl(
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): string | undefined {
  const base = 'https://saucelabs.com/downloads/sauce-connect/{version}/sauce-connect-{version}_';
  if (platform === 'linux' && arch === 'x64') return `${base}linux.x86_64.tar.gz`;
  if (platform === 'linux' && arch === 'arm64') return `${base}linux.aarch64.tar.gz`;
  if (platform === 'darwin') return `${base}darwin.all.zip`;
  if (platform === 'win32' && arch === 'x64') return `${base}windows.x86_64.zip`;
  return undefined;
}

export interface LocateOptions {
  scPath?: string;
  version: string;
  /** Download address; `{version}` is replaced. Default the official build for this platform. */
  downloadUrl?: string;
  tools: ToolCache;
  logger: Logger;
  /** Ends the download on a cancel or the step's deadline. */
  signal?: AbortSignal;
}

/** The absolute path of the Sauce Connect executable, downloading it when it is not cached. */
export async function locateSauceConnect(options: LocateOptions): Promise<string> {
  if (options.scPath !== undefined) {
    return checkExecutable(path.resolve(options.scPath), '`sc-path`', 'input');
  }
  const cached = await options.tools.find(TOOL_NAME, options.version);
  if (cached) {
    options.logger.info(`Sauce Connect ${options.version} found in the tool cache.`);
    return checkExecutable(await findExecutable(cached), 'the tool cache', 'service');
  }
  const template = options.downloadUrl ?? defaultDownloadUrl();
  if (template === undefined) {
    throw new ActionError(
      'input',
      `There is no Sauce Connect build for ${process.platform} ${process.arch}. Give \`sc-path\` or \`sc-download-url\`.`,
    );
  }
  const url = template.replaceAll('{version}', options.version);
  options.logger.info(`Downloading Sauce Connect ${options.version} from ${url}.`);
  let archive: string;
  try {
    archive = await options.tools.downloadTool(url, options.signal);
  } catch (error) {
    // A cancel or the deadline is told as such, not as a failed download.
    if (options.signal?.aborted) throw error;
    throw new ActionError(
      'service',
      `Could not download Sauce Connect from ${url}: ${(error as Error).message}. Check \`sc-version\` and \`sc-download-url\`, or give \`sc-path\`.`,
      { cause: error },
    );
  }
  let extracted: string;
  try {
    extracted = /\.zip$/i.test(new URL(url).pathname)
      ? await options.tools.extractZip(archive)
      : await options.tools.extractTar(archive);
  } catch (error) {
    throw new ActionError(
      'service',
      `Could not unpack the Sauce Connect archive from ${url}: ${(error as Error).message}. Check that \`sc-download-url\` names a .tar.gz or .zip archive, or give \`sc-path\`.`,
      { cause: error },
    );
  }
  const dir = await options.tools.cacheDir(extracted, TOOL_NAME, options.version);
  return checkExecutable(await findExecutable(dir), `the archive at ${url}`, 'service');
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
