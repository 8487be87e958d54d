import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InputError, InputReader, parseDuration, splitList } from '../src/index.ts';

const values = new Map<string, string>();
let workspace = process.cwd();
const read = new InputReader({
  input: (name) => values.get(name) ?? '',
  env: () => undefined,
  get workspace() {
    return workspace;
  },
});

function setInput(name: string, value: string): void {
  values.set(name, value);
}

function errorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}

afterEach(() => {
  values.clear();
  workspace = process.cwd();
});

describe('string', () => {
  it('trims and treats empty as not given', () => {
    setInput('app-name', '  My App \n');
    expect(read.string('app-name')).toBe('My App');
    setInput('app-name', '   ');
    expect(read.string('app-name')).toBeUndefined();
  });

  it('checks required itself, naming the input', () => {
    const error = errorOf(() => read.string('file', { required: true }));
    expect(error.input).toBe('file');
    expect(error.message).toMatch(/^Input "file" is required/);
  });
});

describe('boolean', () => {
  it('accepts only true and false', () => {
    setInput('notify', 'true');
    expect(read.boolean('notify', false)).toBe(true);
    setInput('notify', 'false');
    expect(read.boolean('notify', true)).toBe(false);
    setInput('notify', '');
    expect(read.boolean('notify', true)).toBe(true);
    for (const bad of ['yes', 'True', '1', 'on']) {
      setInput('notify', bad);
      const error = errorOf(() => read.boolean('notify', false));
      expect(error.message).toContain(`"${bad}"`);
      expect(error.message).toContain('`true` or `false`');
    }
  });
});

describe('enum', () => {
  it('lists the allowed values in its error', () => {
    setInput('landing-page-mode', 'closed');
    expect(read.enum('landing-page-mode', ['open', 'closed'])).toBe('closed');
    setInput('landing-page-mode', 'secret');
    const error = errorOf(() => read.enum('landing-page-mode', ['open', 'closed'], 'open'));
    expect(error.message).toBe('Input "landing-page-mode" has "secret". Allowed: `open`, `closed`.');
  });

  it('falls back when empty', () => {
    expect(read.enum('region', ['us-east-1', 'eu-central-1'], 'us-east-1')).toBe('us-east-1');
    expect(read.enum('region', ['a', 'b'])).toBeUndefined();
  });
});

describe('durations', () => {
  it('parses seconds and units', () => {
    expect(parseDuration('90')).toBe(90_000);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('30m')).toBe(1_800_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('soon')).toBeUndefined();
    expect(parseDuration('10 minutes')).toBeUndefined();
    expect(parseDuration('-5')).toBeUndefined();
  });

  it('reads with bounds', () => {
    setInput('timeout', '2m');
    expect(read.duration('timeout', 1000)).toBe(120_000);
    setInput('timeout', '');
    expect(read.duration('timeout', 1000)).toBe(1000);
    setInput('timeout', '2h');
    expect(errorOf(() => read.duration('timeout', 1000, { maxMs: 3_600_000 })).message).toContain(
      'longer than 1h',
    );
    setInput('timeout', 'forever');
    expect(errorOf(() => read.duration('timeout', 1000)).message).toContain('`30m`');
  });
});

describe('integer', () => {
  it('accepts whole numbers within bounds', () => {
    setInput('retries', '3');
    expect(read.integer('retries', 1, { min: 0, max: 5 })).toBe(3);
    setInput('retries', '9');
    expect(errorOf(() => read.integer('retries', 1, { min: 0, max: 5 })).message).toContain('from 0 to 5');
    setInput('retries', '2.5');
    expect(errorOf(() => read.integer('retries', 1)).message).toContain('not a whole number');
  });
});

describe('lists and key=value lines', () => {
  it('splits on commas and newlines', () => {
    expect(splitList('a, b\nc,,\n d ')).toEqual(['a', 'b', 'c', 'd']);
    setInput('groups', 'qa\nbeta, staff');
    expect(read.list('groups')).toEqual(['qa', 'beta', 'staff']);
    setInput('groups', ' , ');
    expect(errorOf(() => read.list('groups', { required: true })).input).toBe('groups');
  });

  it('reads key=value lines', () => {
    setInput('metadata', 'branch=main\n# note\n\ncommit = abc=def\n');
    expect(read.keyValues('metadata')).toEqual({ branch: 'main', commit: 'abc=def' });
    setInput('metadata', 'branch=main\nnokey');
    expect(errorOf(() => read.keyValues('metadata')).message).toContain('line 2');
    setInput('metadata', 'a=1\na=2');
    expect(errorOf(() => read.keyValues('metadata')).message).toContain('twice');
  });
});

describe('filePath', () => {
  it('resolves against the workspace and checks the file', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kit-'));
    try {
      writeFileSync(path.join(dir, 'app.apk'), 'x');
      workspace = dir;
      setInput('file', 'app.apk');
      expect(read.filePath('file')).toBe(path.join(dir, 'app.apk'));
      setInput('file', 'missing.apk');
      expect(errorOf(() => read.filePath('file')).message).toContain('does not exist');
      setInput('file', '.');
      expect(errorOf(() => read.filePath('file')).message).toContain('not a file');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
