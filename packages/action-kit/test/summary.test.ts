import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clearSecrets,
  createProgressReporter,
  formatBytes,
  mobileBuildUrl,
  mobileInviteUrl,
  mobileWebBase,
  outputText,
  registerSecret,
  SummaryBuilder,
  workflowRunUrl,
} from '../src/index.ts';
import { captureStdout } from './capture-stdout.ts';

beforeEach(() => {
  clearSecrets();
  captureStdout();
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('SummaryBuilder', () => {
  it('writes headings, facts, links and lists, escaped and redacted', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kit-'));
    try {
      const file = path.join(dir, 'summary.md');
      writeFileSync(file, '');
      vi.stubEnv('GITHUB_STEP_SUMMARY', file);
      registerSecret('topsecret');
      await new SummaryBuilder()
        .heading('Uploaded <App>')
        .facts([
          ['Version', '1.0'],
          ['Skipped', undefined],
          ['Build', { text: 'open', href: 'http://127.0.0.1/b?x=1&y=2' }],
        ])
        .links([{ text: 'Download page', href: 'http://127.0.0.1/d' }, undefined])
        .list(['qa', 'has topsecret'])
        .list([], 'No testers.')
        .write();
      const html = readFileSync(file, 'utf8');
      expect(html).toContain('<h2>Uploaded &lt;App&gt;</h2>');
      expect(html).toContain('<td>Version</td><td>1.0</td>');
      expect(html).not.toContain('Skipped');
      expect(html).toContain('<a href="http://127.0.0.1/b?x=1&amp;y=2">open</a>');
      expect(html).toContain('<a href="http://127.0.0.1/d">Download page</a>');
      expect(html).toContain('<li>has ***</li>');
      expect(html).toContain('<p>No testers.</p>');
      expect(html).not.toContain('topsecret');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('links and outputs', () => {
  it('builds links from the region or api-url', () => {
    expect(mobileWebBase('eu-central-1')).toBe('https://mobile.eu-central-1.saucelabs.com');
    expect(mobileWebBase('us-east-1', 'http://127.0.0.1:9/')).toBe('http://127.0.0.1:9');
    expect(mobileBuildUrl('http://h', 7, 'b 1')).toBe('http://h/projects/7/builds/b%201');
    expect(mobileInviteUrl('http://h', 7, 8)).toBe('http://h/projects/7/builds/8/invite-testers');
    expect(
      workflowRunUrl({
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_REPOSITORY: 'o/r',
        GITHUB_RUN_ID: '9',
      }),
    ).toBe('https://github.com/o/r/actions/runs/9');
    expect(workflowRunUrl({})).toBeUndefined();
    expect(outputText(['a', 'b'])).toBe('a,b');
    expect(outputText(undefined)).toBe('');
  });
});

describe('createProgressReporter', () => {
  it('reports at most once per interval, and always the end', () => {
    const lines: string[] = [];
    let clock = 0;
    const report = createProgressReporter({
      label: 'Uploading',
      intervalMs: 5000,
      log: (l) => lines.push(l),
      now: () => clock,
    });
    const total = 10 * 1024 * 1024;
    for (let step = 1; step <= 100; step++) {
      clock = step * 200;
      report({ sentBytes: (total * step) / 100, totalBytes: total });
    }
    // 20 s of transfer at one line per 5 s, plus the final line
    expect(lines.length).toBe(4);
    expect(lines.at(-1)).toBe('Uploading: 100% (10.0 MiB of 10.0 MiB, 512.0 KiB/s)');
    expect(lines[0]).toMatch(/^Uploading: 25% /);
    expect(formatBytes(512)).toBe('512 B');
  });
});
