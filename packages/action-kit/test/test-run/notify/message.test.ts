/** The one model of a run's message: counts by class, the items of each class, links kept safe. */
import { describe, expect, it } from 'vitest';
import { cutLines, messageUrl, runMessage } from '../../../src/test-run/notify/message.ts';
import { FACTS, night, nightMessage } from './fixtures.ts';

describe('a run message', () => {
  it('counts the classes and lists the items of each class with their job links', () => {
    const message = nightMessage(8);
    expect(message.counts).toEqual({
      total: 8,
      passed: 4,
      failed: 4,
      classes: { new: 2, 'still-failing': 2, fixed: 2, flaky: 0, quarantined: 0, passed: 2 },
    });
    expect(message.items.new.map((item) => item.name)).toEqual(['case 0', 'case 4']);
    expect(message.items.new[0]).toEqual({
      name: 'case 0',
      url: 'https://app.saucelabs.com/tests/id-0?a=1&b=2',
      lastPassedUrl: 'https://github.com/o/r/actions/runs/41',
    });
    expect(message.items.fixed[0]?.lastPassedUrl).toBeUndefined();
    expect(message.run).toEqual(FACTS.run);
    expect(message.compared).toEqual({ runs: 1, branch: 'main' });
    expect(message.commit).toBe(FACTS.commit);
  });

  it('makes names one line and keeps only http(s) addresses', () => {
    const message = runMessage(
      night(4, () => 'a\nb\u202e'),
      {
        run: { name: 'N\r\n', url: 'javascript:alert(1)' },
        reportUrl: 'ftp://x',
        jobUrlOf: () => 'https://x.test/a b',
      },
    );
    expect(message.items.new[0]).toEqual({
      name: 'a b',
      url: 'https://x.test/a%20b',
      lastPassedUrl: expect.any(String),
    });
    expect(message.run).toEqual({ name: 'N' });
    expect(message.reportUrl).toBeUndefined();
    expect(messageUrl(`https://x.test/${'a'.repeat(2000)}`)).toBeUndefined();
  });

  it('cuts a list with "and N more" within its size', () => {
    const lines = Array.from({ length: 100 }, (_, at) => `line ${at}`);
    const text = cutLines(lines, { max: 50, size: (t) => t.length, more: (n) => `and ${n} more` });
    expect(text.length).toBeLessThanOrEqual(50);
    expect(text.split('\n').at(-1)).toMatch(/^and \d+ more$/);
    expect(cutLines(lines.slice(0, 2), { max: 50, size: (t) => t.length, more: () => 'more' })).toBe(
      'line 0\nline 1',
    );
    expect(
      cutLines(lines, { max: 1000, size: (t) => t.length, more: (n) => `and ${n} more`, maxLines: 3 }),
    ).toBe('line 0\nline 1\nline 2\nand 97 more');
  });
});
