import { beforeEach, describe, expect, it } from 'vitest';
import {
  clearSecrets,
  createProgressReporter,
  formatBytes,
  mobileBuildUrl,
  mobileInviteUrl,
  mobileWebBase,
  outputText,
  recordingLogger,
  registerSecret,
  summaryWithFailure,
  SummaryBuilder,
} from '../../src/index.ts';

beforeEach(() => clearSecrets());

describe('SummaryBuilder', () => {
  it('builds headings, facts, links and lists, escaped and redacted', () => {
    registerSecret('topsecret');
    const html = new SummaryBuilder()
      .heading('Uploaded <App>')
      .facts([
        ['Version', '1.0'],
        ['Skipped', undefined],
        ['Build', { text: 'open', href: 'http://127.0.0.1/b?x=1&y=2' }],
      ])
      .links([{ text: 'Download page', href: 'http://127.0.0.1/d' }, undefined])
      .list(['qa', 'has topsecret'])
      .list([], 'No testers.')
      .table(['Name', 'Id'], [['a<b', 'topsecret']])
      .toString();
    expect(html).toContain('<h2>Uploaded &lt;App&gt;</h2>\n');
    expect(html).toContain('<tr><td>Version</td><td>1.0</td></tr>');
    expect(html).not.toContain('Skipped');
    expect(html).toContain('<a href="http://127.0.0.1/b?x=1&amp;y=2">open</a>');
    expect(html).toContain('<ul><li><a href="http://127.0.0.1/d">Download page</a></li></ul>');
    expect(html).toContain('<li>has ***</li>');
    expect(html).toContain('<p>No testers.</p>');
    expect(html).toContain('<tr><th>Name</th><th>Id</th></tr><tr><td>a&lt;b</td><td>***</td></tr>');
    expect(html).not.toContain('topsecret');
  });

  it('keeps every value on one line, without controls, shortened: no block of Markdown can start', () => {
    const payload = 'name\n\n![px](https://tracker.example/px.gif)\n\n# Heading\u202e';
    const html = new SummaryBuilder()
      .heading(`Uploaded ${payload}`)
      .facts([
        ['App', payload],
        ['Build', { text: payload, href: `https://h/b\n\n${payload}` }],
      ])
      .table(['Name'], [[payload], ['x'.repeat(5000)]])
      .list([payload])
      .links([{ text: payload, href: 'javascript:alert(1)' }])
      .paragraph(`Failed: ${payload}`)
      .toString();
    // Every line is HTML: Markdown reads the whole as HTML blocks, and no value adds a line.
    expect(html.split('\n').filter((line) => line !== '' && !line.startsWith('<'))).toEqual([]);
    expect(html.split('\n')).toHaveLength(7);
    expect(html).not.toMatch(/\n\s*\n/);
    expect([...html].filter((char) => (char < ' ' && char !== '\n') || char === '\u202e')).toEqual([]);
    expect(html).not.toContain('<a href="javascript');
    expect(html).toContain(`<td>${'x'.repeat(100)}…${'x'.repeat(99)}</td>`);
    expect(html).toContain('<h2>Uploaded name ![px](https://tracker.example/px.gif) # Heading</h2>');
  });

  it("ends a failed step's summary with what made it fail", () => {
    const result = {
      outputs: {},
      summary: '<h2>Jobs</h2>\n',
      annotations: [],
      failure: { kind: 'timeout' as const, message: 'Timed out <now>.' },
    };
    expect(summaryWithFailure('Run suite', result)).toBe(
      '<h2>Jobs</h2>\n<h2>Run suite: timed out</h2>\n<p>Timed out &lt;now&gt;.</p>\n',
    );
    expect(summaryWithFailure('Run suite', { ...result, failure: undefined } as never)).toBe(
      '<h2>Jobs</h2>\n',
    );
  });
});

describe('links and outputs', () => {
  it('builds links from the region or api-url', () => {
    expect(mobileWebBase('eu-central-1')).toBe('https://mobile.eu-central-1.saucelabs.com');
    expect(mobileWebBase('us-east-1', 'http://127.0.0.1:9/')).toBe('http://127.0.0.1:9');
    expect(mobileBuildUrl('http://h', 7, 'b 1')).toBe('http://h/projects/7/builds/b%201');
    expect(mobileInviteUrl('http://h', 7, 8)).toBe('http://h/projects/7/builds/8/invite-testers');
    expect(outputText(['a', 'b'])).toBe('a,b');
    expect(outputText([])).toBe('');
    expect(outputText(3)).toBe('3');
  });
});

describe('createProgressReporter', () => {
  it('reports at most once per interval, and always the end', () => {
    const logger = recordingLogger();
    let clock = 0;
    const report = createProgressReporter({ label: 'Uploading', intervalMs: 5000, logger, now: () => clock });
    const total = 10 * 1024 * 1024;
    for (let step = 1; step <= 100; step++) {
      clock = step * 200;
      report({ sentBytes: (total * step) / 100, totalBytes: total });
    }
    // 20 s of transfer at one line per 5 s, plus the final line
    const lines = logger.lines();
    expect(lines.length).toBe(4);
    expect(lines.at(-1)).toBe('Uploading: 100% (10.0 MiB of 10.0 MiB, 512.0 KiB/s)');
    expect(lines[0]).toMatch(/^Uploading: 25% /);
    expect(formatBytes(512)).toBe('512 B');
  });
});
