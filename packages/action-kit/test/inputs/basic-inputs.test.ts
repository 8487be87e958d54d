/**
 * The input reader's plain forms: text (trimmed, required with its form), booleans, one of a set,
 * whole numbers, emails, lists and key=value lines.
 */
import { describe, expect, it } from 'vitest';
import { splitList, TIMEOUT_BOUNDS } from '../../src/index.ts';
import { errorOf, useTestReader } from './test-reader.ts';

const { read, setInput } = useTestReader();

describe('string', () => {
  it('trims and treats empty as not given', () => {
    setInput('app-name', '  My App \n');
    expect(read.string('app-name')).toBe('My App');
    setInput('app-name', '   ');
    expect(read.string('app-name')).toBeUndefined();
  });

  it('checks required itself, naming the input and the form it takes', () => {
    const error = errorOf(() => read.string('file', { required: true, form: 'a path to the app file' }));
    expect(error.input).toBe('file');
    expect(error.message).toBe('Input "file" is required but was empty. Allowed: a path to the app file.');
    expect(errorOf(() => read.requiredString('url', 'an http(s):// address')).message).toBe(
      'Input "url" is required but was empty. Allowed: an http(s):// address.',
    );
    setInput('url', ' https://example.com ');
    expect(read.requiredString('url', 'an http(s):// address')).toBe('https://example.com');
  });

  it('never refuses with a form that says nothing', () => {
    const refusals = [
      errorOf(() => read.requiredString('file', 'a path')),
      errorOf(() => read.integer('retries', undefined, { required: true })),
      errorOf(() => read.duration('timeout', undefined, { ...TIMEOUT_BOUNDS, required: true })),
      errorOf(() => read.id('build-id', 'positive-integer', { required: true })),
      errorOf(() => read.email('email', { required: true })),
      errorOf(() => read.emails('testers', { required: true })),
      errorOf(() => read.list('groups', { required: true })),
      errorOf(() => read.filePath('file', { required: true })),
    ];
    for (const error of refusals) {
      expect(error.allowed, error.message).toBeTruthy();
      expect(error.message).not.toMatch(/any non-empty value/);
    }
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

describe('emails', () => {
  it('reads one email, refusing anything but name@host', () => {
    setInput('email', 'me@example.com');
    expect(read.email('email')).toBe('me@example.com');
    for (const bad of ['me', 'me@example', '@example.com', 'me@@example.com', 'me @example.com']) {
      setInput('email', bad);
      const error = errorOf(() => read.email('email'));
      expect(error.message).toBe(
        `Input "email" has ${JSON.stringify(bad)}, which is not an email address. Allowed: an email address, \`name@host\` such as \`alice@example.com\`.`,
      );
    }
  });

  it('reads a list of emails, checked, without duplicates', () => {
    setInput('testers', 'alice@example.com\nbob@example.com, Alice@Example.com');
    expect(read.emails('testers')).toEqual(['alice@example.com', 'bob@example.com']);
    setInput('testers', 'ok@example.com, not-an-email, a@b');
    const error = errorOf(() => read.emails('testers'));
    expect(error.message).toBe(
      'Input "testers" has invalid emails: "not-an-email", "a@b". Allowed: email addresses (`name@host`, such as `alice@example.com`), separated by commas or newlines.',
    );
    setInput('testers', '');
    expect(read.emails('testers')).toEqual([]);
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
