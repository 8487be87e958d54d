/**
 * Checks of the fields of an answer that callers rely on. The service's answers are parsed JSON,
 * typed only by what the documents say: a field of another type (`download_page_url: 42`, a text
 * where a list belongs) would otherwise fail far from the request, as a bug. Each operation checks
 * the fields its callers read and fails at once with a `ResponseShapeError` naming the operation
 * and the field; fields nobody reads pass through unchecked, so the service may add or drop them.
 *
 * Hand-written rather than a schema library: a few lines of guards, one error type, and nothing
 * the bundles must carry beyond them.
 */
import { queryString, type RequestSpec } from '../transport/transport.ts';

/** Where an answer was off: the field (a path such as `jobs[2].sauceJobId`), what it should be, what came. */
interface ShapeMismatch {
  field: string;
  expected: string;
  got: unknown;
}

/** A check of one value; `field` is where it sits, for the mismatch it answers. */
export type Shape = (value: unknown, field: string) => ShapeMismatch | undefined;

/** The service answered, with success, but not in the form the operation reads. */
export class ResponseShapeError extends Error {
  override readonly name = 'ResponseShapeError';
  readonly operation: string;
  readonly method: string;
  /** Path and query of the request, without host or credentials. */
  readonly url: string;
  /** The field that was off: `download_page_url`, `js tests[0].id`, or `(the answer)` for the whole. */
  readonly field: string;
  /** What the field should hold, in words: `text`, `a list`, `an id`. */
  readonly expected: string;
  /** What it held, in words: `the number 42`, `text "none"`, `missing`. */
  readonly got: string;
  /** The parsed answer: a caller may keep what it can of it (the ids of a stored build). */
  readonly answer: unknown;

  constructor(details: {
    operation: string;
    method: string;
    url: string;
    mismatch: ShapeMismatch;
    answer: unknown;
  }) {
    const { field, expected } = details.mismatch;
    const got = describeValue(details.mismatch.got);
    super(
      `${details.operation}: the answer's ${field === ROOT ? 'body' : `\`${field}\``} is ${got}, where ${expected} was expected (${details.method} ${details.url})`,
    );
    this.operation = details.operation;
    this.method = details.method;
    this.url = details.url;
    this.field = field;
    this.expected = expected;
    this.got = got;
    this.answer = details.answer;
  }
}

/** The field name of the answer as a whole. */
const ROOT = '(the answer)';

/**
 * Checks `answer` against `shape` and returns it, typed; throws a `ResponseShapeError` naming the
 * first field that is off.
 */
export function checkAnswer<T>(
  request: Pick<RequestSpec, 'operation' | 'method' | 'path' | 'query'>,
  answer: unknown,
  shape: Shape,
): T {
  const mismatch = shape(answer, ROOT);
  if (mismatch === undefined) return answer as T;
  throw new ResponseShapeError({
    operation: request.operation,
    method: request.method,
    url: request.path + queryString(request.query),
    mismatch,
    answer,
  });
}

/** Any value at all, or none. */
const anything: Shape = () => undefined;

/** Any value, but there: a member the answer must have, whatever it holds. */
export const present: Shape = (value, field) =>
  value === undefined ? { field, expected: 'a value', got: value } : undefined;

export const text: Shape = (value, field) =>
  typeof value === 'string' ? undefined : { field, expected: 'text', got: value };

export const number: Shape = (value, field) =>
  typeof value === 'number' && Number.isFinite(value)
    ? undefined
    : { field, expected: 'a number', got: value };

export const boolean: Shape = (value, field) =>
  typeof value === 'boolean' ? undefined : { field, expected: 'true or false', got: value };

/** An id as the services write them: non-empty text, or a whole number. */
export const id: Shape = (value, field) =>
  (typeof value === 'string' && value.trim() !== '') ||
  (typeof value === 'number' && Number.isSafeInteger(value))
    ? undefined
    : { field, expected: 'an id (text or a whole number)', got: value };

/** A value that may be missing or null; when present, of `shape`. */
export function optional(shape: Shape): Shape {
  return (value, field) => (value === undefined || value === null ? undefined : shape(value, field));
}

/** One of several shapes (text or a number, say). */
export function either(...shapes: Shape[]): Shape {
  return (value, field) => {
    const mismatches = shapes.map((shape) => shape(value, field));
    if (mismatches.some((mismatch) => mismatch === undefined)) return undefined;
    const expected = mismatches.map((mismatch) => mismatch?.expected).join(' or ');
    return { field, expected, got: value };
  };
}

/** A list whose items are each of `item` (any items without it). */
export function list(item: Shape = anything): Shape {
  return (value, field) => {
    if (!Array.isArray(value)) return { field, expected: 'a list', got: value };
    for (let index = 0; index < value.length; index++) {
      const mismatch = item(value[index], `${field === ROOT ? '' : field}[${index}]`);
      if (mismatch !== undefined) return mismatch;
    }
    return undefined;
  };
}

/** An object (not a list) whose named fields are each of their shape; other fields pass as they are. */
export function record(fields: Readonly<Record<string, Shape>> = {}): Shape {
  return (value, field) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { field, expected: 'an object', got: value };
    }
    const members = value as Record<string, unknown>;
    for (const [name, shape] of Object.entries(fields)) {
      const mismatch = shape(members[name], field === ROOT ? name : `${field}.${name}`);
      if (mismatch !== undefined) return mismatch;
    }
    return undefined;
  };
}

/** A value in words, short and on one line: `the number 42`, `text "none"`, `missing`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    const line = value.replace(/\s+/g, ' ');
    return `text ${JSON.stringify(line.length > 40 ? `${line.slice(0, 37)}...` : line)}`;
  }
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `a list of ${value.length}`;
  return 'an object';
}
