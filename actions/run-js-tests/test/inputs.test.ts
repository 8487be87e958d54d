import path from 'node:path';
import { InputError } from '@sauce-actions/action-kit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseCapabilities, parseTestPageUrl, readJsTestsInputs } from '../src/inputs.ts';

function given(inputs: Record<string, string>): void {
  for (const [name, value] of Object.entries(inputs)) {
    vi.stubEnv(`INPUT_${name.replace(/ /g, '_').toUpperCase()}`, value);
  }
}

afterEach(() => {
  vi.unstubAllEnvs();
});

const REQUIRED = {
  url: 'https://example.com/tests.html',
  framework: 'YUI Test',
  platforms: 'Linux / chrome / latest',
};

describe('run-js-tests inputs', () => {
  it('reads every input, with defaults', () => {
    given({
      ...REQUIRED,
      'tunnel-name': 'demo-tunnel',
      tags: 'ci, nightly',
      'max-duration': '5m',
      capabilities: '{"screenResolution": "1280x1024"}',
      'fail-on-failure': 'false',
      'junit-file': 'reports/js.xml',
      timeout: '20m',
    });
    expect(readJsTestsInputs()).toEqual({
      url: REQUIRED.url,
      framework: 'YUI Test',
      platforms: [['Linux', 'chrome', 'latest']],
      tunnelName: 'demo-tunnel',
      tags: ['ci', 'nightly'],
      maxDurationSeconds: 300,
      capabilities: { screenResolution: '1280x1024' },
      failOnFailure: false,
      junitFile: path.resolve(process.env.GITHUB_WORKSPACE || process.cwd(), 'reports/js.xml'),
      timeoutMs: 20 * 60_000,
      pollIntervalMs: 10_000,
    });
  });

  it('lists the frameworks when one is wrong or missing', () => {
    given({ ...REQUIRED, framework: 'jest' });
    expect(() => readJsTestsInputs()).toThrow(
      'Input "framework" has "jest". Allowed: `qunit`, `jasmine`, `YUI Test`, `mocha`, `custom`.',
    );
    given({ framework: '' });
    expect(() => readJsTestsInputs()).toThrow(/"framework" is required.*`YUI Test`/);
  });

  it('refuses a poll interval that would flood the service, and a bad max-duration', () => {
    given({ ...REQUIRED, 'poll-interval': '100ms' });
    expect(() => readJsTestsInputs()).toThrow(/"poll-interval" has 100ms, which is shorter than 500ms/);
    given({ 'poll-interval': '1', 'max-duration': 'soon' });
    expect(() => readJsTestsInputs()).toThrow(/"max-duration" has "soon", which is not a duration/);
  });

  it('takes only an http(s) test page', () => {
    expect(parseTestPageUrl('http://127.0.0.1:8080/t.html')).toBe('http://127.0.0.1:8080/t.html');
    expect(() => parseTestPageUrl('file:///tmp/t.html')).toThrow(
      /"url" has "file:\/\/\/tmp\/t.html", which is not http/,
    );
    expect(() => parseTestPageUrl('tests.html')).toThrow(InputError);
  });

  it('takes capabilities as a JSON object only', () => {
    expect(parseCapabilities(undefined)).toEqual({});
    expect(parseCapabilities('{"idleTimeout": 90}')).toEqual({ idleTimeout: 90 });
    expect(() => parseCapabilities('[1]')).toThrow(/"capabilities" has "\[1\]", which is not a JSON object/);
    expect(() => parseCapabilities('{idle')).toThrow(/"capabilities" is not valid JSON/);
  });
});
