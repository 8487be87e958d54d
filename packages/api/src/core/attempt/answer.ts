/**
 * Reading an answer. A body read whole is bounded in size and in time (the attempt's timer), is
 * decoded when the service or something on the way compressed it, and is looked at before it is
 * parsed: what is not JSON where JSON was asked, an HTML page (a captive portal, a gateway's
 * page), a redirect. Each becomes an `ApiError` that says what came instead.
 */
import { pipeline, type Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { Dispatcher } from 'undici';
import { redact, withoutUserInfo } from '../values/credentials.ts';
import type { AttemptTimer } from '../timing/deadline.ts';
import { ApiError, type UnusableAnswer } from '../values/errors.ts';
import type { Headers, ResponseType } from '../values/request.ts';
import { headerValue } from '../timing/retry.ts';

/** What an answer's errors name: the request, and how many times it was sent. */
export interface AnswerContext {
  operation: string;
  method: string;
  /** Path and query, without credentials. */
  url: string;
  attempts: number;
  /** Secrets that must not show in a preview of the body. */
  secrets: string[];
  /** Whether the request may be sent again: else an unusable answer may hide work the service did. */
  idempotent: boolean;
}

/** An error's body is read only this far: its message is at the start, and the rest is not needed. */
const ERROR_BODY_BYTES = 64 * 1024;

/** Reads a successful answer as asked: JSON (parsed), text, a stream left to the caller, or nothing. */
export async function readAnswer(
  response: Dispatcher.ResponseData,
  type: ResponseType,
  context: AnswerContext,
  limits: { maxBytes: number; timer: AttemptTimer },
): Promise<unknown> {
  if (type === 'stream') return response.body;
  const headers = response.headers as Headers;
  const contentType = headerValue(headers, 'content-type') ?? 'no content-type';
  let bytes: Buffer;
  try {
    bytes = await readWhole(response.body, headers, limits.maxBytes, limits.timer);
  } catch (error) {
    if (error instanceof BodyLimitError) {
      throw unusable(context, response.statusCode, 'too-large', {
        message: `the answer is larger than the ${formatBytes(limits.maxBytes)} an answer may have: ${formatBytes(error.bytes)} of ${contentType} came before it was given up`,
      });
    }
    // A compressed body that does not decode is garbled like any other: it may come whole next time.
    if (isDecodingError(error)) {
      throw unusable(context, response.statusCode, 'not-json', {
        message: `the answer's ${headerValue(headers, 'content-encoding') ?? ''} body could not be decoded (${(error as { code: string }).code})`,
      });
    }
    if (error instanceof UnknownEncodingError) {
      throw unusable(context, response.statusCode, 'encoding', {
        message: `the answer is encoded as "${error.encoding}" (${contentType}), which the client cannot read`,
      });
    }
    throw error;
  }
  await connectionReleased();
  if (type === 'none') return undefined;
  const text = bytes.toString('utf8');
  if (type === 'text') return text;
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    if (isHtml(contentType, text)) {
      throw unusable(context, response.statusCode, 'html', {
        message: `an HTML page came where JSON was expected (a captive portal, or the page of a proxy or gateway on the way?): ${htmlPreview(text, context.secrets)}`,
      });
    }
    throw unusable(context, response.statusCode, 'not-json', {
      message: `answer is not JSON (cut short or garbled: ${formatBytes(bytes.length)} of ${contentType}): ${preview(text, context.secrets)}`,
    });
  }
}

/** A redirect: the client follows none, since the address it was given should answer itself. */
export function redirectError(context: AnswerContext, status: number, headers: Headers): ApiError {
  const raw = headerValue(headers, 'location');
  const location =
    raw === undefined ? undefined : redact(withoutUserInfo(raw) ?? raw, context.secrets).slice(0, 300);
  return unusable(context, status, 'redirect', {
    message: location ? `redirected to ${location}` : 'redirected, with no Location',
    ...(location !== undefined ? { location } : {}),
  });
}

/**
 * The body of a failed answer, for its code and message: parsed JSON, else its text, else
 * nothing. Read at most `ERROR_BODY_BYTES` far, within the attempt's time; it never fails.
 */
export async function readErrorBody(
  response: Dispatcher.ResponseData,
  timer: AttemptTimer,
): Promise<unknown> {
  let text: string;
  try {
    const bytes = await readWhole(response.body, response.headers as Headers, ERROR_BODY_BYTES, timer, {
      truncate: true,
    });
    text = bytes.toString('utf8');
  } catch {
    return undefined;
  }
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function unusable(
  context: AnswerContext,
  status: number,
  kind: UnusableAnswer,
  what: { message: string; location?: string },
): ApiError {
  const answered = status >= 200 && status < 300;
  return new ApiError({
    operation: context.operation,
    method: context.method,
    url: context.url,
    status,
    serviceMessage: what.message,
    attempts: context.attempts,
    unusable: kind,
    ...(what.location !== undefined ? { location: what.location } : {}),
    // The service answered success: it did the work, whatever came back.
    ...(answered && !context.idempotent ? { mayHaveBeenProcessed: true } : {}),
  });
}

class BodyLimitError extends Error {
  readonly bytes: number;

  constructor(bytes: number) {
    super(`body over the limit after ${bytes} bytes`);
    this.bytes = bytes;
  }
}

class UnknownEncodingError extends Error {
  readonly encoding: string;

  constructor(encoding: string) {
    super(`unknown content-encoding ${encoding}`);
    this.encoding = encoding;
  }
}

/**
 * Reads a body whole, decoded, restarting the silence timer on every chunk. Past `limit` decoded
 * bytes the body is given up (its connection closed): an error, or with `truncate` what came.
 */
async function readWhole(
  body: Readable,
  headers: Headers,
  limit: number,
  timer: AttemptTimer,
  options: { truncate?: boolean } = {},
): Promise<Buffer> {
  let decoders: Transform[];
  try {
    decoders = decodersOf(headerValue(headers, 'content-encoding'));
  } catch (error) {
    discard(body);
    throw error;
  }
  const source: Readable =
    decoders.length === 0 ? body : (pipeline([body, ...decoders], () => {}) as unknown as Readable);
  if (source !== body) body.on('data', () => timer.activity());
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    timer.activity();
    size += chunk.length;
    if (size > limit) {
      discard(body);
      if (source !== body) discard(source);
      if (!options.truncate) throw new BodyLimitError(size);
      chunks.push(chunk.subarray(0, chunk.length - (size - limit)));
      break;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Gives a body up, closing its connection; undici then fails it with an abort no one needs to hear. */
export function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/** Decoders for a `Content-Encoding` list, last applied first; throws for one the client cannot read. */
function decodersOf(header: string | undefined): Transform[] {
  if (!header) return [];
  const codings = header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  return codings.reverse().map((coding) => {
    switch (coding) {
      case 'gzip':
      case 'x-gzip':
        return zlib.createGunzip();
      case 'deflate':
        return zlib.createInflate();
      case 'br':
        return zlib.createBrotliDecompress();
      case 'zstd':
        return zlib.createZstdDecompress();
      default:
        throw new UnknownEncodingError(coding);
    }
  });
}

function isDecodingError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(Z_|ERR__|ERR_BROTLI|ERR_ZSTD|ERR_ZLIB)/.test(code);
}

function isHtml(contentType: string, text: string): boolean {
  return (
    /\b(text\/html|application\/xhtml)/i.test(contentType) ||
    /^\s*<(!doctype\s+html|html|head|body)\b/i.test(text)
  );
}

/** The page's title when it has one, else its start. */
function htmlPreview(text: string, secrets: string[]): string {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
  return title ? `"${preview(title, secrets)}"` : preview(text, secrets);
}

/**
 * The start of a body, on one line, for an error: never the bytes of binary data (a compressed
 * or garbled body would print as noise, or as terminal control sequences).
 */
function preview(text: string, secrets: string[]): string {
  const sample = text.slice(0, 400);
  // Control characters other than white space, and the replacement character of invalid UTF-8.
  const unprintable = [...sample].filter((char) => /[\p{Cc}\ufffd]/u.test(char) && !/\s/.test(char)).length;
  if (unprintable > sample.length / 20) return '(binary data)';
  const line = redact(sample, secrets)
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * undici hands the connection back to its pool a moment after the body ends; a request sent
 * before that would open a second connection. Waiting one turn of the event loop lets
 * sequential calls reuse one keep-alive connection.
 */
function connectionReleased(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
