import { describe, expect, it } from 'vitest';
import { uniqueBuildName } from '../../src/authoring/build-names.ts';

describe('uniqueBuildName', () => {
  it('keeps a new name and numbers repeats from 1', () => {
    expect(uniqueBuildName('X', new Set(), 100)).toBe('X');
    expect(uniqueBuildName('X', new Set(['X']), 100)).toBe('X - 1');
    expect(uniqueBuildName('X', new Set(['X', 'X - 1', 'X - 2']), 100)).toBe('X - 3');
    expect(uniqueBuildName('X', new Set(['X', 'X - 2']), 100)).toBe('X - 1');
  });

  it('cuts the name, and the base under the suffix, to the cap', () => {
    expect(uniqueBuildName('abcdef', new Set(), 4)).toBe('abcd');
    expect(uniqueBuildName('abcdefghij', new Set(['abcdefgh']), 8)).toBe('abcd - 1');
    const used = new Set(['abcdefgh', ...Array.from({ length: 9 }, (_, i) => `abcd - ${i + 1}`)]);
    expect(uniqueBuildName('abcdefghij', used, 8)).toBe('abc - 10');
  });
});
