/**
 * Where the Sauce Connect archive comes from and what it must match. By default the service's
 * download listing names the archive of the version and platform with its checksums; a mirror
 * (`sc-download-url`) is held to the same published checksum unless `sc-checksum` pins its own;
 * an archive already on the runner is checked against `sc-checksum` when one is given.
 */
import { ActionError, type Logger } from '@sauce-actions/action-kit';
import { ApiError, type AutomationInfo, type SauceConnectDownload } from '@sauce-actions/api';
import { checksumOf, describeChecksum, type Checksum, type ExpectedChecksum } from './checksum.ts';

const LISTING = 'the Sauce Labs download listing';
const FROM_LISTING = { from: LISTING, claim: `${LISTING} publishes` };
const FROM_INPUT = { from: '`sc-checksum`', claim: '`sc-checksum` says' };

/** How to give a checksum, for the failures that lack one. */
const GIVE_CHECKSUM =
  "Give `sc-checksum`: the archive's sha256 as Sauce Labs shows it on its download page, or as `sha256sum` prints it for a copy you trust.";

/** This machine as the listing names platforms (`os`, `arch`), or undefined where there is no build. */
function listingPlatform(
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): { os: string; arch: string } | undefined {
  const os = ({ linux: 'linux', darwin: 'macos', win32: 'windows' } as Partial<Record<string, string>>)[
    platform
  ];
  const cpu = ({ x64: 'x86_64', arm64: 'arm64' } as Partial<Record<string, string>>)[arch];
  return os && cpu ? { os, arch: cpu } : undefined;
}

/** The official build's address for this platform, used when the listing cannot be read. */
function defaultDownloadUrl(
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): string | undefined {
  const base = 'https://saucelabs.com/downloads/sauce-connect/{version}/sauce-connect-{version}_';
  const cpu = arch === 'arm64' ? 'aarch64' : arch === 'x64' ? 'x86_64' : undefined;
  if (platform === 'darwin') return `${base}darwin.all.zip`;
  if (cpu === undefined) return undefined;
  if (platform === 'linux') return `${base}linux.${cpu}.tar.gz`;
  if (platform === 'win32') return `${base}windows.${cpu}.zip`;
  return undefined;
}

export interface ArchiveSource {
  /** An https:// address (or, from a listing read over plain http, one on its origin), or a local path. */
  location: string;
  local: boolean;
  /** Every checksum the archive must match; empty only for an archive on the runner without `sc-checksum`. */
  checksums: ExpectedChecksum[];
}

export interface SourceOptions {
  version: string;
  /** `sc-download-url` as an https:// template. */
  downloadUrl?: string;
  /** `sc-download-url` as a file on the runner. */
  archive?: string;
  checksum?: Checksum;
  listing: Pick<AutomationInfo, 'getSauceConnectDownload'>;
  /**
   * The origin of the listing when it is read over plain http (an `api-url` such as the emulator):
   * an address it names there is as trustworthy as the checksums that came with it.
   */
  plainHttpOrigin?: string;
  logger: Logger;
  signal?: AbortSignal;
}

export async function resolveSource(options: SourceOptions): Promise<ArchiveSource> {
  const pinned: ExpectedChecksum[] = options.checksum ? [{ ...options.checksum, ...FROM_INPUT }] : [];
  if (options.archive !== undefined) {
    if (pinned.length === 0) {
      options.logger.info(
        `Sauce Connect comes from ${options.archive}, a file on the runner, without \`sc-checksum\`: it is not verified.`,
      );
    }
    return { location: options.archive, local: true, checksums: pinned };
  }
  if (options.downloadUrl !== undefined) {
    const location = options.downloadUrl.replaceAll('{version}', options.version);
    if (pinned.length > 0) return { location, local: false, checksums: pinned };
    // A mirror of the official build serves the very archive the listing publishes a checksum of.
    const listed = await readListing(options);
    return { location, local: false, checksums: requireChecksums(listed.checksums, options.version) };
  }
  let listed: ListedBuild;
  try {
    listed = await readListing(options);
  } catch (error) {
    const fallback = defaultDownloadUrl();
    if (pinned.length === 0 || fallback === undefined || options.signal?.aborted) throw error;
    options.logger.warning(
      `Could not read ${LISTING} (${(error as Error).message}); downloading the official build, verified by \`sc-checksum\`.`,
    );
    return { location: fallback.replaceAll('{version}', options.version), local: false, checksums: pinned };
  }
  // Both must match when both are known; `sc-checksum` alone stands for a listing that has none.
  const checksums = [...pinned, ...listed.checksums];
  return { location: listed.url, local: false, checksums: requireChecksums(checksums, options.version) };
}

function requireChecksums(listed: ExpectedChecksum[], version: string): ExpectedChecksum[] {
  if (listed.length > 0) return listed;
  throw new ActionError(
    'refused',
    `${capitalized(LISTING)} publishes no checksum for Sauce Connect ${version} on this platform that can be checked (sha256, sha384 or sha512), so the download cannot be verified. ${GIVE_CHECKSUM}`,
  );
}

interface ListedBuild {
  url: string;
  checksums: ExpectedChecksum[];
}

/** The listing's entry for this platform and the version, checked before anything is trusted. */
async function readListing(options: SourceOptions): Promise<ListedBuild> {
  const platform = listingPlatform();
  if (!platform) {
    throw new ActionError(
      'input',
      `Sauce Labs publishes no Sauce Connect build for ${process.platform} ${process.arch}. Give \`sc-path\`, or \`sc-download-url\` with \`sc-checksum\`.`,
    );
  }
  const what = `Sauce Connect ${options.version} for ${platform.os} ${platform.arch}`;
  let answer: SauceConnectDownload;
  try {
    answer = await options.listing.getSauceConnectDownload(
      { ...platform, version: options.version },
      options.signal ? { signal: options.signal } : {},
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw noBuild(what);
    throw error;
  }
  const download = (answer as { download?: unknown } | null)?.download as
    Partial<SauceConnectDownload['download']> | undefined;
  if (typeof download !== 'object' || download === null) {
    if (answer && typeof answer === 'object' && 'error' in answer) throw noBuild(what);
    throw new ActionError('service', `${capitalized(LISTING)} answered without a download for ${what}.`);
  }
  if (download.version !== options.version) {
    throw new ActionError(
      'service',
      `${capitalized(LISTING)} offered version ${JSON.stringify(download.version)} for ${what}. Check \`sc-version\`.`,
    );
  }
  const url = checkListedUrl(download.url, what, options.plainHttpOrigin);
  const checksums = (Array.isArray(download.checksums) ? download.checksums : []).flatMap((item: unknown) => {
    const entry = item as { algorithm?: unknown; value?: unknown } | null;
    const checksum =
      typeof entry?.algorithm === 'string' && typeof entry.value === 'string'
        ? checksumOf(entry.algorithm, entry.value)
        : undefined;
    return checksum ? [{ ...checksum, ...FROM_LISTING }] : [];
  });
  options.logger.info(
    `${capitalized(LISTING)} names ${url} for ${what}${checksums.length > 0 ? ` (${checksums.map(describeChecksum).join(', ')})` : ''}.`,
  );
  return { url, checksums };
}

/** Only https, or plain http on the listing's own origin when the listing itself came that way. */
function checkListedUrl(value: unknown, what: string, plainHttpOrigin: string | undefined): string {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url && (url.protocol === 'https:' || (url.protocol === 'http:' && url.origin === plainHttpOrigin))) {
    return url.href;
  }
  throw new ActionError(
    'service',
    `${capitalized(LISTING)} names ${JSON.stringify(value)} for ${what}, which is not an https:// address; nothing was downloaded.`,
  );
}

function noBuild(what: string): ActionError {
  return new ActionError(
    'refused',
    `${capitalized(LISTING)} has no ${what}. Check \`sc-version\` (a full version such as \`5.4.1\`), or give \`sc-path\`.`,
  );
}

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
