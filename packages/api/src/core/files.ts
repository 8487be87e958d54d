/** Streaming downloads to disk, with service-given file names reduced to safe base names. */
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Headers } from './transport.ts';

/** Names Windows keeps for devices, whatever the extension: `NUL.txt` opens the null device. */
const WINDOWS_DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i;

/**
 * Reduces a file name that came from the service to a base name that cannot leave the target
 * folder: no separators, no `..`, no control characters. Falls back to `fallback` when nothing is left.
 * It is also a name every runner OS can hold: `< > : " | ? *` become `_` (on Windows a `:` would
 * write an alternate data stream of another file, and the artifact service refuses all seven on
 * every OS), and a Windows device name (`CON`, `NUL`, `COM1.log`, ...) gets a leading `_`.
 */
export function safeBaseName(name: string | undefined, fallback = 'download'): string {
  const base = (name ?? '').split(/[/\\]/).pop() ?? '';
  const cleaned = base
    // Control and format characters (bidirectional overrides can disguise an extension).
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .replace(/[<>:"|?*]/g, '_')
    // Spaces first: " .." must not become "..". Trailing dots and spaces are dropped by Windows.
    .trim()
    .replace(/^\.+/, '')
    .replace(/[. ]+$/, '')
    .trim();
  // Cut by code points so a surrogate pair is never split.
  const short = [...cleaned].slice(0, 200).join('');
  if (short === '') return safeBaseName(fallback);
  return WINDOWS_DEVICE_NAME.test(short) ? `_${short}` : short;
}

/** The file name a `Content-Disposition` header suggests, if any. */
export function fileNameFromDisposition(headers: Headers): string | undefined {
  const raw = headers['content-disposition'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return undefined;
  // RFC 6266 / 5987: filename*=charset'language'percent-encoded
  const extended = /filename\*\s*=\s*(?:[\w-]*'[\w-]*')?([^;]+)/i.exec(value);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(value);
  return plain ? (plain[2] ?? plain[1])?.trim() : undefined;
}

export interface DownloadResult {
  /** Where the file was written. */
  path: string;
  bytes: number;
}

/** Writes a response stream to `dir/name`; a partial file is removed when the stream fails. */
export async function writeStreamToFile(
  stream: Readable,
  dir: string,
  name: string,
): Promise<DownloadResult> {
  await mkdir(dir, { recursive: true });
  const target = path.join(dir, safeBaseName(name));
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  try {
    await pipeline(stream, counter, createWriteStream(target));
  } catch (error) {
    await rm(target, { force: true });
    throw error;
  }
  return { path: target, bytes };
}
