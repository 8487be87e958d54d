/**
 * Typed readers of action inputs. The runner hands inputs over as `INPUT_*` variables and does not
 * enforce `required: true`, so every check happens here, before anything is sent.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import * as core from '@actions/core';
import { InputError, quoteValue } from './input-error.ts';

export interface ReadOptions {
  /** Fails when the input is empty; the runner does not check action.yml's `required`. */
  required?: boolean;
}

/** The raw input, trimmed; `undefined` when empty (an empty input means "not given"). */
export function readString(name: string, options: ReadOptions = {}): string | undefined {
  const value = core.getInput(name).trim();
  if (value !== '') return value;
  if (options.required) throw new InputError(name, 'is required but was empty', 'any non-empty value');
  return undefined;
}

export function readRequiredString(name: string): string {
  return readString(name, { required: true }) as string;
}

/** `true` or `false`, nothing else: `yes`, `1` or `True` are more likely typos than intent. */
export function readBoolean(name: string, fallback: boolean): boolean {
  const value = readString(name);
  if (value === undefined) return fallback;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new InputError(name, `has ${quoteValue(value)}, which is not a boolean`, '`true` or `false`');
}

/** One of a fixed set of values; the error lists them. */
export function readEnum<const T extends string>(name: string, allowed: readonly T[], fallback: T): T;
export function readEnum<const T extends string>(name: string, allowed: readonly T[]): T | undefined;
export function readEnum<const T extends string>(
  name: string,
  allowed: readonly T[],
  fallback?: T,
): T | undefined {
  const value = readString(name);
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new InputError(name, `has ${quoteValue(value)}`, allowed.map((v) => `\`${v}\``).join(', '));
}

export interface IntegerOptions extends ReadOptions {
  min?: number;
  max?: number;
}

export function readInteger(name: string, fallback: number, options?: IntegerOptions): number;
export function readInteger(name: string, fallback?: undefined, options?: IntegerOptions): number | undefined;
export function readInteger(
  name: string,
  fallback?: number,
  options: IntegerOptions = {},
): number | undefined {
  const value = readString(name, options);
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

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses `90`, `90s`, `30m`, `1h`, `1h30m` or `500ms` into milliseconds; `undefined` when malformed. */
export function parseDuration(text: string): number | undefined {
  const value = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(value)) return undefined;
  let total = 0;
  for (const match of value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) {
    total += Number(match[1]) * (UNIT_MS[match[2] as string] as number);
  }
  return Math.round(total);
}

export interface DurationOptions extends ReadOptions {
  /** Bounds in milliseconds. */
  minMs?: number;
  maxMs?: number;
}

/** A duration in milliseconds: plain seconds or a number with `ms`, `s`, `m` or `h`. */
export function readDuration(name: string, fallbackMs: number, options: DurationOptions = {}): number {
  const value = readString(name, options);
  const allowed = 'seconds (`90`) or a duration such as `90s`, `30m`, `1h`';
  if (value === undefined) return fallbackMs;
  const ms = parseDuration(value);
  if (ms === undefined)
    throw new InputError(name, `has ${quoteValue(value)}, which is not a duration`, allowed);
  if (options.minMs !== undefined && ms < options.minMs) {
    throw new InputError(
      name,
      `has ${value}, which is shorter than ${formatDuration(options.minMs)}`,
      allowed,
    );
  }
  if (options.maxMs !== undefined && ms > options.maxMs) {
    throw new InputError(
      name,
      `has ${value}, which is longer than ${formatDuration(options.maxMs)}`,
      allowed,
    );
  }
  return ms;
}

export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/** Splits a list written with commas, newlines or both; blanks are dropped. */
export function splitList(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** A list, comma or newline separated; empty when not given. */
export function readList(name: string, options: ReadOptions = {}): string[] {
  const value = readString(name, options);
  const items = value === undefined ? [] : splitList(value);
  if (options.required && items.length === 0) {
    throw new InputError(name, 'is required but holds no item', 'items separated by commas or newlines');
  }
  return items;
}

/** Lines of `key=value`; blank lines and lines starting with `#` are skipped. */
export function readKeyValues(name: string): Record<string, string> {
  const value = readString(name);
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
    if (Object.hasOwn(out, key)) throw new InputError(name, `has the key ${quoteValue(key)} twice`, allowed);
    out[key] = line.slice(eq + 1).trim();
  });
  return out;
}

/** Where relative paths start: the workspace, as on the runner, else the current folder. */
export function workspaceDir(): string {
  return process.env.GITHUB_WORKSPACE || process.cwd();
}

export interface FileOptions extends ReadOptions {
  /** Fails unless the path names an existing regular file (default true). */
  mustExist?: boolean;
}

/** A file path, resolved against the workspace and checked to be a file. */
export function readFilePath(name: string, options: FileOptions = {}): string | undefined {
  const value = readString(name, options);
  if (value === undefined) return undefined;
  const resolved = path.resolve(workspaceDir(), value);
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

function boundsText(min: number, max: number, what: string): string {
  const low = min > Number.MIN_SAFE_INTEGER;
  const high = max < Number.MAX_SAFE_INTEGER;
  if (low && high) return `${what} from ${min} to ${max}`;
  if (low) return `${what} of at least ${min}`;
  if (high) return `${what} of at most ${max}`;
  return what;
}
