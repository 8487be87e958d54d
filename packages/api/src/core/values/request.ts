/** What a request and its answer are made of: the types the transport's modules share. */
import type { Readable } from 'node:stream';
import type { Credentials } from './credentials.ts';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryScalar = string | number | boolean | null;
export type QueryValue = QueryScalar | undefined | readonly QueryScalar[];
export type Headers = Record<string, string | string[] | undefined>;

export interface Logger {
  debug(message: string): void;
  warn(message: string): void;
}

export const silentLogger: Logger = { debug: () => {}, warn: () => {} };

export interface Timeouts {
  /** Establishing the connection (applies to the dispatcher the transport creates itself). */
  connectMs: number;
  /**
   * From sending the request to receiving the answer's headers and, for an answer read whole
   * (JSON, text, nothing), its last byte: a body trickled slowly cannot outlast it.
   */
  headersMs: number;
  /** Longest silence while receiving the answer's body. */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 60_000, bodyMs: 60_000 };

/**
 * The largest answer read whole (JSON, text, an error's body is cut shorter): the largest answer
 * of the three interfaces (a page of 1000 full jobs) is far below it, and an endless or runaway
 * body stops here instead of filling the memory.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 8 * 1024 * 1024;

export type RequestBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'form'; fields: Record<string, string | number | boolean | undefined> }
  | {
      kind: 'stream';
      contentType: string;
      length?: number;
      /** Opens the body afresh; called once per attempt so a retried request resends it whole. */
      open: () => Readable | Buffer | AsyncIterable<Uint8Array>;
    };

export type ResponseType = 'json' | 'text' | 'stream' | 'none';

export interface RequestSpec {
  /** Name of the operation, used in errors and logs (for example `runSuite`). */
  operation: string;
  method: HttpMethod;
  /** Path below the base address, starting with `/`, with every segment already encoded. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: RequestBody;
  headers?: Record<string, string>;
  /** Credentials for this request: `null` sends none (public operations); omitted uses the transport's. */
  credentials?: Credentials | null;
  signal?: AbortSignal;
  /**
   * Once this aborts, no attempt is started and no wait (pacing, retry) is begun or finished; an
   * attempt already on its way runs on under `signal`. For a request whose answer says what it
   * started: cut in flight, the answer is lost; not yet sent, it must not be sent any more.
   */
  sendUntil?: AbortSignal;
  /**
   * When the request must be over (on the monotonic clock, `performance.now()`), where `signal` aborts on its
   * own; a signal marked with `markDeadline` brings its own. No retry wait is started that would
   * end later: the request fails at once with its last answer. An attempt still waiting for its
   * answer, or reading a body read whole, is given up at it.
   */
  deadline?: number;
  /**
   * Whether the request may be repeated after it could have reached the service.
   * Defaults to true for GET, HEAD, PUT and DELETE. A request that is not idempotent is only
   * repeated when the connection failed before anything was sent, or when the service answered
   * 429 (it did not carry the request out).
   */
  idempotent?: boolean;
  timeouts?: Partial<Timeouts>;
  responseType?: ResponseType;
  /** The largest answer read whole, in bytes, for this request; the transport's otherwise. */
  maxAnswerBytes?: number;
  /** Reads a failure from a successful answer's body (mobile distribution's `status: fail`). */
  failureOf?: (body: unknown) => { code?: string | number; message?: string } | undefined;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}
