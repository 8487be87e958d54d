/** Streaming downloads to disk, with service-given file names reduced to safe base names. */
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { headerValue } from '../timing/retry.ts';
import type { Headers } from '../values/request.ts';

/**
 * Names Windows keeps for devices, whatever the extension, and with spaces before it: `NUL.txt`
 * and `nul .txt` open the null device.
 */
const WINDOWS_DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]) *(\.|$)/i;

/**
 * Reduces a file name that came from the service to a base name that cannot leave the target
 * folder: no separators, no `..`, no control characters. Falls back to `fallback` when nothing is left.
 * It is also a name every runner OS can hold: `< > : " | ? *` become `_` (on Windows a `:` would
 * write an alternate data stream of another file, and the artifact service refuses all seven on
 * every OS), and a Windows device name (`CON`, `NUL`, `COM1.log`, ...) gets a leading `_`.
 */
export function safeBaseName(name: string | undefined, fallback = 'download'): string {
  return cleanBaseName(name ?? '') || cleanBaseName(fallback) || 'download';
}

/**
 * The path of `name` in `dir` when `name` is one plain name that every runner OS keeps as it is,
 * one that `safeBaseName` leaves unchanged (no separator of any OS, no `.` or `..`, no drive, no
 * control or reserved character, no device name, at most 200 characters); `undefined` for any
 * other. Names from the service that become a file or folder name go through it: what it refuses
 * would land elsewhere, or under another name, on some runner.
 */
export function pathInFolder(dir: string, name: string): string | undefined {
  if (name === '' || cleanBaseName(name) !== name) return undefined;
  const target = path.join(dir, name);
  // Checked again on the result: whatever the rules above miss, it is a direct child of `dir`.
  return path.relative(dir, target) === name ? target : undefined;
}

/** What `safeBaseName` makes of a name, '' when nothing is left. */
function cleanBaseName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  const cleaned = base
    // Control and format characters (bidirectional overrides can disguise an extension).
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .replace(/[<>:"|?*]/g, '_')
    // Spaces first: " .." must not become "..". Trailing dots and spaces are dropped by Windows.
    .trim()
    .replace(/^\.+/, '')
    .replace(/[. ]+$/, '')
    .trim();
  // Cut by code points so a surrogate pair is never split; what the cut leaves last is checked
  // again, so that the result is a name this function leaves as it is.
  const short = cut(cleaned, 200);
  return WINDOWS_DEVICE_NAME.test(short) ? `_${cut(short, 199)}` : short;
}

/** The first `length` code points, without the dots and spaces Windows would drop at the end. */
function cut(name: string, length: number): string {
  return [...name]
    .slice(0, length)
    .join('')
    .replace(/[. ]+$/, '');
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

interface WriteStreamOptions {
  /** Most bytes the file may hold: past them the download stops, and nothing is kept. */
  maxBytes?: number;
  /** What the answer announced (`Content-Length`): over `maxBytes`, nothing is written at all. */
  announcedBytes?: number;
}

/**
 * A download that passed its limit: the answer is closed and the partial file removed, so that a
 * cut file never passes for a whole one.
 */
export class DownloadLimitError extends Error {
  override readonly name = 'DownloadLimitError';
  /** The file name it would have had. */
  readonly fileName: string;
  readonly maxBytes: number;
  /** Bytes received before it stopped; 0 when refused on its announced length. */
  readonly receivedBytes: number;
  readonly announcedBytes: number | undefined;

  constructor(fileName: string, maxBytes: number, receivedBytes: number, announcedBytes?: number) {
    super(
      announcedBytes !== undefined
        ? `"${fileName}" announced ${announcedBytes} bytes, over its limit of ${maxBytes}: not downloaded`
        : `"${fileName}" passed its limit of ${maxBytes} bytes: the download stopped and the partial file was removed`,
    );
    this.fileName = fileName;
    this.maxBytes = maxBytes;
    this.receivedBytes = receivedBytes;
    this.announcedBytes = announcedBytes;
  }
}

/** The length an answer announces (`Content-Length`), when it is a plain number. */
export function announcedLength(headers: Headers): number | undefined {
  const value = headerValue(headers, 'content-length');
  return value !== undefined && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}

/**
 * Writes a response stream to `dir/name` (`name` reduced by `safeBaseName`); a partial file is
 * removed when the stream fails or passes `maxBytes`, counted as the bytes stream in, so that an
 * answer without end stops there too.
 */
export async function writeStreamToFile(
  stream: Readable,
  dir: string,
  name: string,
  options: WriteStreamOptions = {},
): Promise<DownloadResult> {
  const fileName = safeBaseName(name);
  const { maxBytes, announcedBytes } = options;
  if (maxBytes !== undefined && announcedBytes !== undefined && announcedBytes > maxBytes) {
    stream.destroy();
    throw new DownloadLimitError(fileName, maxBytes, 0, announcedBytes);
  }
  await mkdir(dir, { recursive: true });
  const target = pathInFolder(dir, fileName);
  if (target === undefined) throw new TypeError(`"${fileName}" is not a plain file name`);
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (maxBytes !== undefined && bytes > maxBytes) {
        callback(new DownloadLimitError(fileName, maxBytes, bytes - chunk.length));
        return;
      }
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
