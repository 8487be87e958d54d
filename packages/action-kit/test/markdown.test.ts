/** Markdown for pull-request comments: values cannot break the table, open tags, start code or notify anyone. */
import { afterEach, describe, expect, it } from 'vitest';
import { markdownCode, markdownLink, markdownTable, markdownText } from '../src/markdown.ts';
import { clearSecrets, registerSecret } from '../src/secrets.ts';

afterEach(() => clearSecrets());

describe('markdownText', () => {
  it.each([
    ['a | b', 'a \\| b'],
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['`rm -rf`', '\\`rm -rf\\`'],
    ['*bold* _it_ ~~gone~~', '\\*bold\\* \\_it\\_ \\~\\~gone\\~\\~'],
    ['[x](http://evil)', '\\[x\\](http://evil)'],
    ['@team #12 $x$', '\\@team \\#12 \\$x\\$'],
    ['a\\b & c', 'a\\\\b &amp; c'],
    ['two\nlines\r\n here', 'two lines here'],
  ])('%j', (text, markdown) => {
    expect(markdownText(text)).toBe(markdown);
  });

  it('redacts secrets', () => {
    registerSecret('s3cr3t-token');
    expect(markdownText('key s3cr3t-token here')).toBe('key \\*\\*\\* here');
  });
});

describe('markdownCode', () => {
  it('fences with more backticks than the value holds in a row, and escapes a table cell bar', () => {
    expect(markdownCode('Smoke #12.1')).toBe('`Smoke #12.1`');
    expect(markdownCode('a `b` c')).toBe('``a `b` c``');
    expect(markdownCode('``x``')).toBe('``` ``x`` ```');
    expect(markdownCode('a|b')).toBe('`a\\|b`');
    expect(markdownCode('')).toBe('');
  });
});

describe('markdownLink', () => {
  it('links http(s) addresses only, with characters that would end the address encoded', () => {
    expect(markdownLink('Job 1', 'https://app.saucelabs.com/tests/1')).toBe(
      '[Job 1](https://app.saucelabs.com/tests/1)',
    );
    expect(markdownLink('x', 'https://h/a b(c)|d')).toBe('[x](https://h/a%20b%28c%29%7Cd)');
    expect(markdownLink('[evil]', 'javascript:alert(1)')).toBe('\\[evil\\]');
  });
});

describe('markdownTable', () => {
  it('writes a header, a rule with alignment and rows; an empty cell keeps its place', () => {
    expect(
      markdownTable(
        ['A', 'B'],
        [
          ['1', ''],
          [markdownText('x|y'), '2'],
        ],
        ['left', 'right'],
      ),
    ).toBe(['| A | B |', '| --- | ---: |', '| 1 |   |', '| x\\|y | 2 |'].join('\n'));
  });
});
