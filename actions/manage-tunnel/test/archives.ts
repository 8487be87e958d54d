/**
 * Sauce Connect archives for tests: a tiny tar writer (so that an archive can hold what no tool
 * would write: `../` names, absolute names, links that point out), and the emulator's admin
 * endpoint that publishes a build in the download listing.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { admin } from './helpers.ts';

export interface TarEntry {
  name: string;
  type?: 'file' | 'directory' | 'symlink';
  body?: string | Buffer;
  /** The target of a symlink. */
  linkname?: string;
  mode?: number;
}

const BLOCK = 512;

function header(entry: TarEntry, size: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  const field = (text: string, offset: number, length: number) => {
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length > length) throw new Error(`tar field too long: ${text}`);
    bytes.copy(block, offset);
  };
  const octal = (value: number, offset: number, length: number) =>
    field(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length);
  field(entry.name, 0, 100);
  octal(entry.mode ?? (entry.type === 'directory' ? 0o755 : 0o644), 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(size, 124, 12);
  octal(1_700_000_000, 136, 12);
  block.fill(0x20, 148, 156);
  field({ file: '0', directory: '5', symlink: '2' }[entry.type ?? 'file'], 156, 1);
  field(entry.linkname ?? '', 157, 100);
  field('ustar\0', 257, 6);
  field('00', 263, 2);
  let sum = 0;
  for (const byte of block) sum += byte;
  field(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return block;
}

/** A gzipped ustar archive of the entries, in order, as they are given. */
export function tarGz(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const body =
      entry.type === 'file' || entry.type === undefined ? Buffer.from(entry.body ?? '') : Buffer.alloc(0);
    parts.push(header(entry, body.length), body, Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK));
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  return gzipSync(Buffer.concat(parts));
}

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** This machine as the download listing names platforms. */
export function listingPlatform(): { os: string; arch: string } {
  const os =
    { linux: 'linux', darwin: 'macos', win32: 'windows' }[process.platform as string] ?? process.platform;
  return { os, arch: process.arch === 'x64' ? 'x86_64' : process.arch };
}

/**
 * Publishes a build of this machine's platform in the emulator's listing, as a `.tar.gz` whatever
 * the platform; `checksums` is what the listing says (default the archive's sha256).
 */
export async function publishBuild(
  base: string,
  version: string,
  archive: Buffer,
  checksums?: { algorithm: string; value: string }[],
): Promise<{ fileName: string; url: string }> {
  const fileName = `sauce-connect-${version}.tar.gz`;
  await admin(base, 'POST', 'sauce-connect', {
    version,
    ...listingPlatform(),
    archive: archive.toString('base64'),
    fileName,
    ...(checksums ? { checksums } : {}),
  });
  return { fileName, url: `${base}/downloads/sauce-connect/${version}/${fileName}` };
}
