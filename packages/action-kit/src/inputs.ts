/**
 * Typed readers of action inputs, over whatever source the host has (the runner's `INPUT_*`
 * variables, command-line flags). The runner does not enforce `required: true`, so every check
 * happens here, before anything is sent; an action's `inputs.ts` is the only place that reads.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { formatDuration, parseDuration } from './duration.ts';
import { InputError, quoteValue } from './input-error.ts';
import { registerSecret } from './secrets.ts';

/** Where inputs come from. */
export interface InputSource {
  /** The value as given, '' when not given (an empty input means "not given"). */
  input(name: string): string;
  /** An environment variable, for the documented fallbacks such as SAUCE_USERNAME. */
  env(name: string): string | undefined;
  /** Where relative paths start (the runner's workspace). */
  workspace: string;
}

export interface ReadOptions {
  /** Fails when the input is empty; the runner does not check action.yml's `required`. */
  required?: boolean;
}

export interface IntegerOptions extends ReadOptions {
  min?: number;
  max?: number;
}

export interface DurationOptions extends ReadOptions {
  /** Bounds in milliseconds. */
  minMs?: number;
  maxMs?: number;
}

export interface FileOptions extends ReadOptions {
  /** Fails unless the path names an existing regular file (default true). */
  mustExist?: boolean;
}

const DURATION_FORM = 'seconds (`90`) or a duration such as `90s`, `30m`, `1h`';

export class InputReader {
  readonly #source: InputSource;

  constructor(source: InputSource) {
    this.#source = source;
  }

  /** Where relative paths start. */
  get workspace(): string {
    return this.#source.workspace;
  }

  /** The raw input, trimmed; `undefined` when empty. */
  string(name: string, options: ReadOptions = {}): string | undefined {
    const value = this.#source.input(name).trim();
    if (value !== '') return value;
    if (options.required) throw new InputError(name, 'is required but was empty', 'any non-empty value');
    return undefined;
  }

  requiredString(name: string): string {
    return this.string(name, { required: true }) as string;
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
    const value = this.string(name);
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
    const value = this.string(name, options);
    const min = options.min ?? Number.MIN_SAFE_INTEGER;
    const max = options.max ?? Number.MAX_SAFE_INTEGER;
    const allowed = boundsText(min, max, 'a whole number');
    if (value === undefined) return fallback;
    if (!/^[+-]?\d+$/.test(value))
      throw new InputError(name, `has ${quoteValue(value)}, which is not a whole number`, allowed);
    const number = Number(value);
    if (number < min || number > max)
      throw new InputError(name, `has ${value}, which is out of range`, allowed);
    return number;
  }

  /** A duration in milliseconds: plain seconds or a number with `ms`, `s`, `m` or `h`. */
  duration(name: string, fallbackMs: number, options: DurationOptions = {}): number {
    const value = this.string(name, options);
    if (value === undefined) return fallbackMs;
    const ms = parseDuration(value);
    if (ms === undefined)
      throw new InputError(name, `has ${quoteValue(value)}, which is not a duration`, DURATION_FORM);
    if (options.minMs !== undefined && ms < options.minMs) {
      throw new InputError(
        name,
        `has ${value}, which is shorter than ${formatDuration(options.minMs)}`,
        DURATION_FORM,
      );
    }
    if (options.maxMs !== undefined && ms > options.maxMs) {
      throw new InputError(
        name,
        `has ${value}, which is longer than ${formatDuration(options.maxMs)}`,
        DURATION_FORM,
      );
    }
    return ms;
  }

  /** A list, comma or newline separated; empty when not given. */
  list(name: string, options: ReadOptions = {}): string[] {
    const value = this.string(name, options);
    const items = value === undefined ? [] : splitList(value);
    if (options.required && items.length === 0) {
      throw new InputError(name, 'is required but holds no item', 'items separated by commas or newlines');
    }
    return items;
  }

  /** Lines of `key=value`; blank lines and lines starting with `#` are skipped. */
  keyValues(name: string): Record<string, string> {
    const value = this.string(name);
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

  /** A path resolved against the workspace; by default it must name an existing file. */
  filePath(name: string, options: FileOptions = {}): string | undefined {
    const value = this.string(name, options);
    if (value === undefined) return undefined;
    const resolved = path.resolve(this.workspace, value);
    if (options.mustExist === false) return resolved;
    if (!existsSync(resolved)) {
      throw new InputError(
        name,
        `names ${quoteValue(value)}, which does not exist (looked for ${resolved})`,
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
