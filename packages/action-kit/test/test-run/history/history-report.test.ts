/**
 * The classes as the summary, the comment and the check run show them: the counts, a section per
 * class, names from the service escaped for each format, and the outputs.
 */
import { describe, expect, it } from 'vitest';
import { listText, type Block } from '../../../src/reporting/report-text.ts';
import { classifyItems } from '../../../src/test-run/history/classes.ts';
import type { Comparison } from '../../../src/test-run/history/comparison.ts';
import {
  countsLine,
  historyBlocks,
  historyMarkdown,
  historyOutputs,
} from '../../../src/test-run/history/history-report.ts';
import { itemKey, type RunRecord } from '../../../src/test-run/history/run-record.ts';

const HOSTILE = '<!channel> **bold** `code` ::error::x |a|';

function comparison(): Comparison {
  const before: RunRecord = {
    series: 's',
    branch: 'main',
    pullRequest: false,
    run: { number: '41', url: 'https://example.com/runs/41' },
    at: 1,
    builds: ['Nightly #41'],
    items: { [itemKey('new')]: 'passed', [itemKey('still')]: 'failed', [itemKey('fixed')]: 'failed' },
  };
  const classification = classifyItems(
    [
      { item: 'new', name: HOSTILE, outcome: 'failed' },
      { item: 'still', name: 'Still', outcome: 'failed' },
      { item: 'fixed', name: 'Fixed', outcome: 'passed' },
      {
        item: 'q',
        name: 'Quarantined',
        outcome: 'failed',
        quarantined: { reason: 'flaky <b>', mode: 'run' },
      },
    ],
    [before],
  );
  return {
    series: { token: 't', defaultBranch: 'main', ofDefaultBranch: true },
    classification,
    compared: [{ ...before, anchor: 'a1' }],
    failing: [],
    requests: 1,
  };
}

const text = (blocks: Block[]): string =>
  blocks.map((block) => (typeof block === 'string' ? block : listText(block))).join('\n');

describe('the history in the reports', () => {
  it('leads with the counts and lists each class, new failures first, still failing folded', () => {
    const html = text(historyBlocks(comparison()));
    expect(countsLine(comparison())).toBe(
      'Against 1 earlier run(s) on main: 1 new failure(s), 1 still failing, 1 fixed, 0 flaky, 1 quarantined.',
    );
    const order = ['New failures (1)', 'Fixed (1)', 'Still failing (1)', 'Quarantined (1)'].map((title) =>
      html.indexOf(title),
    );
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain('<details><summary><strong>Still failing (1)</strong></summary>');
    expect(html).toContain('last passed in <a href="https://example.com/runs/41">run #41</a>');
    expect(historyOutputs(comparison())).toEqual({
      'new-failures': 1,
      'still-failing': 1,
      fixed: 1,
      quarantined: 1,
    });
  });

  it('escapes names from the service in HTML and in Markdown', () => {
    const html = text(historyBlocks(comparison()));
    expect(html).not.toContain('<!channel>');
    expect(html).toContain('&lt;!channel&gt;');
    expect(html).toContain('quarantined: flaky &lt;b&gt;');
    const markdown = historyMarkdown(comparison());
    expect(markdown).not.toContain('<!channel>');
    expect(markdown).toContain('\\*\\*bold\\*\\*');
    expect(markdown).toContain('\\|a\\|');
    // No line of either starts a workflow command.
    for (const line of [...html.split('\n'), ...markdown.split('\n')])
      expect(line.startsWith('::')).toBe(false);
  });

  it('says why nothing was compared, and counts every failure as new', () => {
    const off: Comparison = { ...comparison(), off: 'the comparison with earlier runs is off (history: 0)' };
    expect(countsLine(off)).toBe('History: the comparison with earlier runs is off (history: 0).');
    expect(historyOutputs(undefined)).toEqual({
      'new-failures': 0,
      'still-failing': 0,
      fixed: 0,
      quarantined: 0,
    });
  });

  it('shows 20 items of a class in a comment, and counts the rest', () => {
    const many = classifyItems(
      Array.from({ length: 2000 }, (_, n) => ({
        item: `c${n}`,
        name: `Case ${n}`,
        outcome: 'failed' as const,
      })),
      [],
    );
    const markdown = historyMarkdown({ ...comparison(), classification: many });
    expect(markdown.match(/^- \*\*Case/gm)).toHaveLength(20);
    expect(markdown).toContain('- and 1980 more');
    expect(markdown.length).toBeLessThan(5000);
  });
});
