/**
 * Typed readers of action inputs, over whatever source the host has (the runner's `INPUT_*`
 * variables, command-line flags). The runner does not enforce `required: true`, so every check
 * happens here, before anything is sent; an action's `inputs.ts` is the only place that reads.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { InputError, quoteValue } from '../step/input-error.ts';
import { registerSecret } from '../step/secrets.ts';
import {
  DURATION_FORM,
  formatBounds,
  formatDuration,
  parseDuration,
  type DurationBounds,
} from '../values/duration.ts';
import { optionalProperty } from '../values/optional-property.ts';
import { formatSize, formatSizeBounds, parseSize, SIZE_FORM, type SizeBounds } from '../values/size.ts';
import { checkId, EMAIL_FORM, idAllowed, isEmail, pathFormHint, type IdForm } from './input-forms.ts';
import { checkPathToWrite } from './input-forms.ts';

export * from './input-forms.ts';

/** Where inputs come from. */
export interface InputSource {
  /** The value as given, '' when not given (an empty input means "not given"). */
  input(name: string): string;
  /** An environment variable, for the documented fallbacks such as SAUCE_USERNAME. */
  env(name: string): string | undefined;
  /** Where relative paths start (the runner's workspace). */
  workspace: string;
}

interface ReadOptions {
  /** Fails when the input is empty; the runner does not check action.yml's `required`. */
  required?: boolean;
}

/**
 * A required free-form input: `form` says what it holds (`a path to the app file, relative to
 * the workspace`), so that the refusal of an empty one tells what to write.
 */
interface RequiredStringOptions {
  required: true;
  form: string;
}

interface IntegerOptions extends ReadOptions {
  min?: number;
  max?: number;
  /** What is allowed, before the bounds: `a whole number` unless said. */
  what?: string;
}

/**
 * Bounds in milliseconds, always both: an unbounded duration overflows the timers. The kit's
 * `TIMEOUT_BOUNDS`, `POLL_INTERVAL_BOUNDS` and `MAX_DURATION_BOUNDS` give the same input the same
 * bounds in every action.
 */
interface DurationOptions extends ReadOptions, DurationBounds {}

interface FileOptions extends ReadOptions {
  /** Fails unless the path names an existing regular file (default true). */
  mustExist?: boolean;
}

interface IdOptions extends ReadOptions {
  /** Where such an id comes from, added to the refusal: `the \`build-id\` output of upload-build`. */
  hint?: string;
}

/** One part of a run split among parallel jobs: the `index`-th (from 1) of `total`. */
export interface Shard {
  index: number;
  total: number;
}

/** A GitHub matrix has at most 256 jobs: more shards than that cannot all run. */
const MAX_SHARDS = 256;

/** How a shard is written, for refusals. */
const SHARD_FORM = `\`<index>/<total>\`, whole numbers with 1 ≤ index ≤ total ≤ ${MAX_SHARDS}, such as \`2/4\` (\`\${{ matrix.shard }}/4\`)`;

export class InputReader {
  readonly #source: InputSource;

  constructor(source: InputSource) {
    this.#source = source;
  }

  /** Where relative paths start. */
  get workspace(): string {
    return this.#source.workspace;
  }

  /** The raw input, trimmed; `undefined` when empty. A required one names its `form` when empty. */
  string(name: string, options?: { required?: false }): string | undefined;
  string(name: string, options: RequiredStringOptions): string;
  string(name: string, options: { required?: false } | RequiredStringOptions = {}): string | undefined {
    return this.#read(name, options.required === true, options.required === true ? options.form : '');
  }

  /** A required free-form input; `form` says what it holds, for the refusal of an empty one. */
  requiredString(name: string, form: string): string {
    return this.string(name, { required: true, form });
  }

  /** The trimmed value, `undefined` when empty; an empty required input is refused with `form`. */
  #read(name: string, required: boolean | undefined, form: string): string | undefined {
    const value = this.#source.input(name).trim();
    if (value !== '') return value;
    if (required) throw new InputError(name, 'is required but was empty', form);
    return undefined;
  }

  /** A non-empty environment variable, trimmed. */
  env(name: string): string | undefined {
    return this.#source.env(name)?.trim() || undefined;
  }

  /** A secret from its input or, when that is empty, from an environment variable; masked at once. */
  secret(name: string, envName?: string): string | undefined {
    const value = this.string(name) ?? (envName !== undefined ? this.env(envName) : undefined);
    if (value !== undefined) registerSecret(value);
    return value;
  }

  /** `true` or `false`, nothing else: `yes`, `1` or `True` are more likely typos than intent. */
  boolean(name: string, fallback: boolean): boolean {
    const value = this.#read(name, false, '');
    if (value === undefined) return fallback;
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw new InputError(name, `has ${quoteValue(value)}, which is not a boolean`, '`true` or `false`');
  }

  /** One of a fixed set of values; the error lists them. */
  enum<const T extends string>(name: string, allowed: readonly T[], fallback: T): T;
  enum<const T extends string>(name: string, allowed: readonly T[]): T | undefined;
  enum<const T extends string>(name: string, allowed: readonly T[], fallback?: T): T | undefined {
    const value = this.string(name);
    if (value === undefined) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    throw new InputError(name, `has ${quoteValue(value)}`, allowed.map((v) => `\`${v}\``).join(', '));
  }

  integer(name: string, fallback: number, options?: IntegerOptions): number;
  integer(name: string, fallback?: undefined, options?: IntegerOptions): number | undefined;
  integer(name: string, fallback?: number, options: IntegerOptions = {}): number | undefined {
    const min = options.min ?? Number.MIN_SAFE_INTEGER;
    const max = options.max ?? Number.MAX_SAFE_INTEGER;
    const allowed = boundsText(min, max, options.what ?? 'a whole number');
    const value = this.#read(name, options.required, allowed);
    if (value === undefined) return fallback;
    if (!/^[+-]?\d+$/.test(value))
      throw new InputError(name, `has ${quoteValue(value)}, which is not a whole number`, allowed);
    const number = Number(value);
    if (number < min || number > max)
      throw new InputError(name, `has ${value}, which is out of range`, allowed);
    return number;
  }

  /**
   * A duration in milliseconds: plain seconds or a number with `ms`, `s`, `m`, `h` or `d`, within
   * `options`' bounds; the refusal gives the form and the bounds. `fallbackMs` when empty.
   */
  duration(name: string, fallbackMs: number, options: DurationOptions): number;
  duration(name: string, fallbackMs: undefined, options: DurationOptions): number | undefined;
  duration(name: string, fallbackMs: number | undefined, options: DurationOptions): number | undefined {
    const allowed = `${DURATION_FORM}, ${formatBounds(options)}`;
    const value = this.#read(name, options.required, allowed);
    if (value === undefined) return fallbackMs;
    const ms = parseDuration(value);
    if (ms === undefined)
      throw new InputError(name, `has ${quoteValue(value)}, which is not a duration`, allowed);
    const shown = value.length > 24 ? quoteValue(`${value.slice(0, 21)}...`) : value;
    if (ms < options.minMs) {
      throw new InputError(
        name,
        `has ${shown}, which is shorter than ${formatDuration(options.minMs)}`,
        allowed,
      );
    }
    if (!(ms <= options.maxMs)) {
      throw new InputError(
        name,
        `has ${shown}, which is longer than ${formatDuration(options.maxMs)}`,
        allowed,
      );
    }
    return ms;
  }

  /**
   * A size in bytes: a number with a unit (`500MB`, `2GiB`), within `bounds`; the refusal gives
   * the form and the bounds. `fallbackBytes` when empty.
   */
  size(name: string, fallbackBytes: number, bounds: SizeBounds): number {
    const allowed = `${SIZE_FORM}, ${formatSizeBounds(bounds)}`;
    const value = this.#read(name, false, allowed);
    if (value === undefined) return fallbackBytes;
    const bytes = parseSize(value);
    if (bytes === undefined) {
      const problem = /^\d+(\.\d+)?$/.test(value) ? 'which has no unit' : 'which is not a size';
      throw new InputError(name, `has ${quoteValue(value)}, ${problem}`, allowed);
    }
    if (bytes < bounds.minBytes)
      throw new InputError(
        name,
        `has ${quoteValue(value)}, less than ${formatSize(bounds.minBytes)}`,
        allowed,
      );
    if (!(bytes <= bounds.maxBytes))
      throw new InputError(
        name,
        `has ${quoteValue(value)}, more than ${formatSize(bounds.maxBytes)}`,
        allowed,
      );
    return bytes;
  }

  /**
   * An id of the given form, checked before any request; its text as given (a number without
   * leading zeros). The refusal names the form, and `hint` where such an id comes from.
   */
  id(name: string, form: IdForm, options: IdOptions & { required: true }): string;
  id(name: string, form: IdForm, options?: IdOptions): string | undefined;
  id(name: string, form: IdForm, options: IdOptions = {}): string | undefined {
    const value = this.#read(name, options.required, idAllowed(form, options.hint));
    if (value === undefined) return undefined;
    return checkId(name, value, form, optionalProperty('hint', options.hint));
  }

  /** An email address (`name@host`); `undefined` when empty. */
  email(name: string, options: ReadOptions = {}): string | undefined {
    const value = this.#read(name, options.required, EMAIL_FORM);
    if (value === undefined || isEmail(value)) return value;
    throw new InputError(name, `has ${quoteValue(value)}, which is not an email address`, EMAIL_FORM);
  }

  /** Email addresses separated by commas or newlines, each checked; duplicates (any case) dropped. */
  emails(name: string, options: ReadOptions = {}): string[] {
    const allowed =
      'email addresses (`name@host`, such as `alice@example.com`), separated by commas or newlines';
    const emails = splitList(this.#read(name, options.required, allowed) ?? '');
    if (options.required && emails.length === 0)
      throw new InputError(name, 'is required but holds no email address', allowed);
    const invalid = emails.filter((email) => !isEmail(email));
    if (invalid.length > 0) {
      throw new InputError(
        name,
        `has ${invalid.length === 1 ? 'an invalid email' : 'invalid emails'}: ${invalid.map(quoteValue).join(', ')}`,
        allowed,
      );
    }
    const seen = new Set<string>();
    return emails.filter((email) => {
      const key = email.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /** A list, comma or newline separated; empty when not given. */
  list(name: string, options: ReadOptions = {}): string[] {
    const allowed = 'items separated by commas or newlines';
    const value = this.#read(name, options.required, allowed);
    const items = value === undefined ? [] : splitList(value);
    if (options.required && items.length === 0) {
      throw new InputError(name, 'is required but holds no item', allowed);
    }
    return items;
  }

  /** Lines of `key=value`; blank lines and lines starting with `#` are skipped. */
  keyValues(name: string): Record<string, string> {
    const value = this.#read(name, false, '');
    const out: Record<string, string> = {};
    if (value === undefined) return out;
    const allowed = 'one `key=value` per line, each key once';
    value.split('\n').forEach((raw, index) => {
      const line = raw.trim();
      if (line === '' || line.startsWith('#')) return;
      const eq = line.indexOf('=');
      const key = eq < 0 ? '' : line.slice(0, eq).trim();
      if (key === '')
        throw new InputError(name, `has line ${index + 1} ${quoteValue(line)} without a key`, allowed);
      if (Object.hasOwn(out, key))
        throw new InputError(name, `has the key ${quoteValue(key)} twice`, allowed);
      out[key] = line.slice(eq + 1).trim();
    });
    return out;
  }

  /**
   * `<index>/<total>`: which part of the work this job runs when a matrix splits it (see
   * `shareOf`); `undefined` when empty. Refused: an index of 0 or past the total, a total of 0.
   */
  shard(name: string, options: ReadOptions = {}): Shard | undefined {
    const value = this.#read(name, options.required, SHARD_FORM);
    if (value === undefined) return undefined;
    const match = /^(\d+)\s*\/\s*(\d+)$/.exec(value);
    if (!match)
      throw new InputError(name, `has ${quoteValue(value)}, which is not <index>/<total>`, SHARD_FORM);
    const index = Number(match[1]);
    const total = Number(match[2]);
    const problem =
      total === 0
        ? 'whose total is 0'
        : total > MAX_SHARDS
          ? `whose total is over ${MAX_SHARDS}`
          : index === 0
            ? 'whose index is 0 (shards count from 1)'
            : index > total
              ? 'whose index is past its total'
              : undefined;
    if (problem !== undefined) throw new InputError(name, `has ${quoteValue(value)}, ${problem}`, SHARD_FORM);
    return { index, total };
  }

  /** A path resolved against the workspace; by default it must name an existing file. */
  filePath(name: string, options: FileOptions = {}): string | undefined {
    const value = this.#read(name, options.required, 'a path to a file, relative to the workspace');
    if (value === undefined) return undefined;
    const resolved = path.resolve(this.workspace, value);
    if (options.mustExist === false) {
      checkPathToWrite(name, value);
      return resolved;
    }
    if (!existsSync(resolved)) {
      throw new InputError(
        name,
        `names ${quoteValue(value)}, which does not exist (looked for ${resolved})${pathFormHint(value)}`,
        'a path to an existing file, relative to the workspace',
      );
    }
    if (!statSync(resolved).isFile()) {
      throw new InputError(
        name,
        `names ${quoteValue(value)}, which is not a file`,
        'a path to an existing file',
      );
    }
    return resolved;
  }
}

/**
 * The items of one shard. The items are ranked by `key` (ties by their place in `items`) and
 * every `total`-th from `index - 1` is taken: every item goes to exactly one shard whatever order
 * they come in, and shard sizes differ by one at most. The items taken keep their order in
 * `items`. Without a shard, or with `1/1`, all of them.
 */
export function shareOf<T>(items: readonly T[], shard: Shard | undefined, key: (item: T) => string): T[] {
  if (shard === undefined || shard.total <= 1) return [...items];
  const ranked = items
    .map((item, position) => ({ position, key: key(item) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.position - b.position));
  const taken = new Set(
    ranked.filter((_, rank) => rank % shard.total === shard.index - 1).map((entry) => entry.position),
  );
  return items.filter((_, position) => taken.has(position));
}

/** `2/4`, as users write it. */
export function shardText(shard: Shard): string {
  return `${shard.index}/${shard.total}`;
}

/** Splits a list written with commas, newlines or both; blanks are dropped. */
export function splitList(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** A source over fixed values, for tests and for hosts that collect inputs themselves. */
export function inputSource(
  values: Readonly<Record<string, string>>,
  options: { env?: Readonly<Record<string, string | undefined>>; workspace?: string } = {},
): InputSource {
  return {
    input: (name) => values[name] ?? '',
    env: (name) => options.env?.[name],
    workspace: options.workspace ?? process.cwd(),
  };
}

function boundsText(min: number, max: number, what: string): string {
  const low = min > Number.MIN_SAFE_INTEGER;
  const high = max < Number.MAX_SAFE_INTEGER;
  if (low && high) return `${what} from ${min} to ${max}`;
  if (low) return `${what} of at least ${min}`;
  if (high) return `${what} of at most ${max}`;
  return what;
}
