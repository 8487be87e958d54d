/** List outputs bounded so that a job's outputs stay far under GitHub's 1 MB; other values as they are. */
import { describe, expect, it } from 'vitest';
import {
  boundOutput,
  boundOutputs,
  MAX_OUTPUT_BYTES,
  MAX_OUTPUT_ITEMS,
} from '../../src/reporting/output-budget.ts';
import { outputText, type OutputValue } from '../../src/reporting/result.ts';

const ids = (count: number, length = 32): string[] =>
  Array.from({ length: count }, (_, n) => n.toString(16).padStart(length, '0'));

describe('boundOutput', () => {
  it.each<[string, OutputValue, OutputValue, { kept: number; total: number } | undefined]>([
    ['a count', 2_000, 2_000, undefined],
    ['a flag', true, true, undefined],
    ['an address', 'https://app.saucelabs.com/tests/abc', 'https://app.saucelabs.com/tests/abc', undefined],
    ['a short list', ids(3), ids(3), undefined],
    ['a list of 2,000 ids', ids(2_000), ids(MAX_OUTPUT_ITEMS), { kept: MAX_OUTPUT_ITEMS, total: 2_000 }],
    [
      'a JSON array of 2,000 ids',
      JSON.stringify(ids(2_000)),
      JSON.stringify(ids(MAX_OUTPUT_ITEMS)),
      { kept: MAX_OUTPUT_ITEMS, total: 2_000 },
    ],
    ['a short JSON array', '["a","b"]', '["a","b"]', undefined],
    ['text that only looks like an array', '[not json', '[not json', undefined],
    ['a list of 50 long items, cut by size', ids(50, 2_000), ids(16, 2_000), { kept: 16, total: 50 }],
  ])('%s', (_, value, expected, cut) => {
    const bounded = boundOutput(value);
    expect(bounded.value).toEqual(expected);
    expect(bounded.cut).toEqual(cut);
    expect(Buffer.byteLength(outputText(bounded.value), 'utf8')).toBeLessThanOrEqual(
      Math.max(MAX_OUTPUT_BYTES, Buffer.byteLength(outputText(value))),
    );
    if (cut)
      expect(Buffer.byteLength(outputText(bounded.value), 'utf8')).toBeLessThanOrEqual(MAX_OUTPUT_BYTES);
  });
});

describe('boundOutputs', () => {
  it.each([
    [
      'with a results file',
      { 'results-file': '/tmp/results.json' },
      'the results file (the output results-file)',
    ],
    ['without one', {}, 'the step summary'],
  ])('bounds every list and says which were cut, and where all are, for the log (%s)', (_, extra, where) => {
    const { outputs, notes } = boundOutputs({
      total: 2_000,
      'job-ids': ids(2_000),
      'build-name': 'Large #1',
      ...extra,
    });
    expect(outputs).toEqual({
      total: 2_000,
      'job-ids': ids(MAX_OUTPUT_ITEMS),
      'build-name': 'Large #1',
      ...extra,
    });
    expect(notes).toEqual([
      `The output job-ids holds the first ${MAX_OUTPUT_ITEMS} of 2000 items, to keep the job's outputs far under GitHub's 1 MB; ${where} has them all.`,
    ]);
  });
});
