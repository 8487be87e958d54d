/** Markdown for pull-request comments: values cannot break the table, open tags, start code or notify anyone. */
import { afterEach, describe, expect, it } from 'vitest';
import {
  markdownCode,
  markdownLink,
  markdownSentence,
  markdownTable,
  markdownText,
} from '../../src/reporting/markdown.ts';
import { MAX_NAME_LENGTH, MAX_SENTENCE_LENGTH, oneLine, shorten } from '../../src/reporting/one-line.ts';
import { clearSecrets, registerSecret } from '../../src/step/secrets.ts';

/** A name that would end a block and bring an image and a heading, were it printed as it is. */
const PAYLOAD = 'name\n\n![px](https://tracker.example/px.gif)\n\n# Heading';

describe('oneLine', () => {
  it.each([
    ['breaks and tabs become one space', 'a\n\n\tb\r\nc\u2028d\u2029e\u0085f\vg\fh', 'a b c d e f g h'],
    ['C0 and C1 controls go', 'a\u0000b\u0007c\u001b[31md\u007fe\u009bf', 'abc[31mdef'],
    [
      'bidi overrides and isolates go',
      'invoice\u202egnp.exe\u202c \u2066x\u2069 \u200fy',
      'invoicegnp.exe x y',
    ],
    ['zero-width spaces and the byte-order mark go', '\ufeffad\u200bmin\u2060', 'admin'],
    ['joiners in emoji stay', '👩\u200d💻 dev', '👩\u200d💻 dev'],
    ['leading and trailing space goes', '  \n x  ', 'x'],
  ])('%s', (_what, text, line) => {
    expect(oneLine(text)).toBe(line);
  });

  it('shortens a long name in the middle, by characters, with an ellipsis', () => {
    const long = `${'a'.repeat(300)}-end`;
    const line = oneLine(long);
    expect(Array.from(line)).toHaveLength(MAX_NAME_LENGTH);
    expect(line.startsWith('aaaa')).toBe(true);
    expect(line.endsWith('a-end')).toBe(true);
    expect(line).toContain('…');
    expect(shorten('😀'.repeat(10), 5)).toBe('😀😀…😀😀');
    expect(oneLine('x'.repeat(MAX_NAME_LENGTH))).toBe('x'.repeat(MAX_NAME_LENGTH));
    expect(Array.from(oneLine('y'.repeat(5000), MAX_SENTENCE_LENGTH))).toHaveLength(MAX_SENTENCE_LENGTH);
  });

  it('redacts a secret that an invisible character or a line break had split', () => {
    registerSecret('s3cr3t-token');
    expect(oneLine('key s3cr\u200b3t-token')).toBe('key ***');
    expect(oneLine('key s3cr3t-token')).toBe('key ***');
  });
});

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
    [PAYLOAD, 'name !\\[px\\](https://tracker.example/px.gif) \\# Heading'],
    ['a\u202eb\u0000c\u200bd', 'abcd'],
  ])('%j', (text, markdown) => {
    expect(markdownText(text)).toBe(markdown);
  });

  it('is one line at most a name long; a sentence may be longer', () => {
    const long = `${'word '.repeat(100)}\n\n# end`;
    expect(markdownText(long)).not.toContain('\n');
    expect(Array.from(markdownText(long)).length).toBeLessThanOrEqual(MAX_NAME_LENGTH + 2);
    expect(markdownSentence(long)).toBe(`${'word '.repeat(100)}\\# end`);
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
    expect(markdownCode(PAYLOAD)).toBe('`name ![px](https://tracker.example/px.gif) # Heading`');
    expect(markdownCode('a\u202eb')).toBe('`ab`');
  });
});

describe('markdownLink', () => {
  it('links http(s) addresses only, with characters that would end the address encoded', () => {
    expect(markdownLink('Job 1', 'https://app.saucelabs.com/tests/1')).toBe(
      '[Job 1](https://app.saucelabs.com/tests/1)',
    );
    expect(markdownLink('x', 'https://h/a b(c)|d')).toBe('[x](https://h/a%20b%28c%29%7Cd)');
    expect(markdownLink('[evil]', 'javascript:alert(1)')).toBe('\\[evil\\]');
    expect(markdownLink(PAYLOAD, 'https://h/x\n\n# y\u202e')).toBe(
      `[${markdownText(PAYLOAD)}](https://h/x%0A%0A#%20y%E2%80%AE)`,
    );
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
