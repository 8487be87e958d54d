import { describe, expect, it } from 'vitest';
import { countsText } from '../src/results.ts';

describe('test counts in words', () => {
  it('names the failures first, else the passes', () => {
    expect(countsText({ passed: 2, failed: 1, total: 3 })).toBe('1 of 3 tests failed');
    expect(countsText({ passed: 3, failed: 0, total: 3 })).toBe('3 of 3 tests passed');
    expect(countsText(undefined)).toBeUndefined();
  });
});
