/** Ids: positive whole numbers, 24 hexadecimal digits and UUIDs, read and checked, refusals saying what an id is. */
import { describe, expect, it } from 'vitest';
import { checkId, isId } from '../../src/index.ts';
import { errorOf, useTestReader } from './test-reader.ts';

const { read, setInput } = useTestReader();

describe('ids', () => {
  it('reads a positive whole number, without leading zeros', () => {
    setInput('build-id', '77');
    expect(read.id('build-id', 'positive-integer')).toBe('77');
    setInput('build-id', ' 0077 ');
    expect(read.id('build-id', 'positive-integer')).toBe('77');
    setInput('build-id', String(Number.MAX_SAFE_INTEGER));
    expect(read.id('build-id', 'positive-integer')).toBe('9007199254740991');
    setInput('build-id', '');
    expect(read.id('build-id', 'positive-integer')).toBeUndefined();
  });

  it.each([
    ['abc', 'has "abc", which is not a positive whole number'],
    ['0', 'has "0", which is not positive'],
    ['-1', 'has "-1", which is not a positive whole number'],
    ['1.5', 'has "1.5", which is not a positive whole number'],
    ['1e3', 'has "1e3", which is not a positive whole number'],
    ['99999999999999999999', 'has "99999999999999999999", which is too large for an id'],
    ['9007199254740992', 'has "9007199254740992", which is too large for an id'],
  ])('refuses the build id %s, saying what a build id is', (value, problem) => {
    setInput('build-id', value);
    const error = errorOf(() =>
      read.id('build-id', 'positive-integer', {
        required: true,
        hint: 'the `build-id` output of upload-build',
      }),
    );
    expect(error.input).toBe('build-id');
    expect(error.message).toContain(`Input "build-id" ${problem}.`);
    expect(error.allowed).toBe(
      'a positive whole number such as `1234`, at most 9007199254740991 (the `build-id` output of upload-build)',
    );
  });

  it('needs a required id, naming its form', () => {
    expect(
      errorOf(() =>
        read.id('project-id', 'positive-integer', { required: true, hint: 'upload-build output' }),
      ).message,
    ).toBe(
      'Input "project-id" is required but was empty. Allowed: a positive whole number such as `1234`, at most 9007199254740991 (upload-build output).',
    );
  });

  it('checks 24 hexadecimal digits and UUIDs, in lists too', () => {
    const hex = '65a1f0c2b3d4e5f607182930';
    expect(checkId('test-cases', ` ${hex} `, 'hex-24')).toBe(hex);
    expect(checkId('test-cases', hex.toUpperCase(), 'hex-24')).toBe(hex.toUpperCase());
    for (const bad of [
      'abc',
      hex.slice(1),
      `${hex}0`,
      `${hex.slice(1)}g`,
      '3f6c2a9e-8b1d-4c7e-9f20-5a4b3c2d1e0f',
    ]) {
      const error = errorOf(() => checkId('test-cases', bad, 'hex-24', { where: 'item 2' }));
      expect(error.input).toBe('test-cases');
      expect(error.problem).toBe(`has item 2 "${bad}", which is not 24 hexadecimal digits`);
      expect(error.allowed).toContain('24 hexadecimal digits (0-9, a-f)');
    }
    const uuid = '3f6c2a9e-8b1d-4c7e-9f20-5a4b3c2d1e0f';
    expect(checkId('suite', uuid, 'uuid')).toBe(uuid);
    expect(errorOf(() => checkId('suite', 'Smoke', 'uuid')).message).toBe(
      'Input "suite" has "Smoke", which is not a UUID. Allowed: a UUID such as `3f6c2a9e-8b1d-4c7e-9f20-5a4b3c2d1e0f`.',
    );
  });

  it('tells whether a text is an id of a form, for inputs that take an id or a name', () => {
    expect(isId('3f6c2a9e-8b1d-4c7e-9f20-5a4b3c2d1e0f', 'uuid')).toBe(true);
    expect(isId('Smoke', 'uuid')).toBe(false);
    expect(isId('12', 'positive-integer')).toBe(true);
    expect(isId('0', 'positive-integer')).toBe(false);
    expect(isId('99999999999999999999', 'positive-integer')).toBe(false);
    expect(isId('65a1f0c2b3d4e5f607182930', 'hex-24')).toBe(true);
  });
});
