import path from 'node:path';
import { InputError, InputReader, inputSource } from '@sauce-actions/action-kit';
import { describe, expect, it } from 'vitest';
import { parseCapabilities, parseTestPageUrl, readInputs } from '../src/inputs.ts';

const WORKSPACE = path.resolve('/tmp/run-js-tests-workspace');

const REQUIRED = {
  url: 'https://example.com/tests.html',
  framework: 'YUI Test',
  platforms: 'Linux / chrome / latest',
};

function read(values: Record<string, string>, env: Record<string, string> = {}) {
  return readInputs(
    new InputReader(
      inputSource(values, {
        env: { SAUCE_USERNAME: 'demo', SAUCE_ACCESS_KEY: 'demo-access-key', ...env },
        workspace: WORKSPACE,
      }),
    ),
  );
}

describe('run-js-tests inputs', () => {
  it('reads every input, with defaults', async () => {
    expect(
      await read({
        ...REQUIRED,
        'tunnel-name': 'demo-tunnel',
        build: 'b-7',
        name: 'unit',
        tags: 'ci, nightly',
        'max-duration': '5m',
        capabilities: '{"screenResolution": "1280x1024"}',
        'fail-on-failure': 'false',
        'junit-file': 'reports/js.xml',
        timeout: '20m',
        region: 'eu-central-1',
      }),
    ).toEqual({
      connection: {
        service: 'sauce',
        region: 'eu-central-1',
        username: 'demo',
        accessKey: 'demo-access-key',
      },
      url: REQUIRED.url,
      framework: 'YUI Test',
      platforms: [['Linux', 'chrome', 'latest']],
      tunnelName: 'demo-tunnel',
      build: 'b-7',
      name: 'unit',
      tags: ['ci', 'nightly'],
      maxDurationSeconds: 300,
      capabilities: { screenResolution: '1280x1024' },
      failOnFailure: false,
      junitFile: path.join(WORKSPACE, 'reports/js.xml'),
      timeoutMs: 20 * 60_000,
      pollIntervalMs: 10_000,
    });
  });

  it('leaves optional inputs out, and takes the credentials from the inputs over the environment', async () => {
    const inputs = await read({ ...REQUIRED, username: 'someone', 'access-key': 'another-key' });
    expect(inputs).toEqual({
      connection: { service: 'sauce', region: 'us-west-1', username: 'someone', accessKey: 'another-key' },
      url: REQUIRED.url,
      framework: 'YUI Test',
      platforms: [['Linux', 'chrome', 'latest']],
      tags: [],
      capabilities: {},
      failOnFailure: true,
      timeoutMs: 30 * 60_000,
      pollIntervalMs: 10_000,
    });
  });

  it('reads the YAML list form of the platforms', async () => {
    const inputs = await read({
      ...REQUIRED,
      platforms: '- [Windows 11, chrome, latest]\n- [macOS 14, safari, "17.0"]',
    });
    expect(inputs.platforms).toEqual([
      ['Windows 11', 'chrome', 'latest'],
      ['macOS 14', 'safari', '17.0'],
    ]);
  });

  it('lists the frameworks when one is wrong or missing', async () => {
    await expect(read({ ...REQUIRED, framework: 'jest' })).rejects.toThrow(
      'Input "framework" has "jest". Allowed: `qunit`, `jasmine`, `YUI Test`, `mocha`, `custom`.',
    );
    await expect(read({ ...REQUIRED, framework: '' })).rejects.toThrow(/"framework" is required.*`YUI Test`/);
  });

  it('refuses a poll interval that would flood the service, and a bad max-duration', async () => {
    await expect(read({ ...REQUIRED, 'poll-interval': '100ms' })).rejects.toThrow(
      /"poll-interval" has 100ms, which is shorter than 500ms/,
    );
    await expect(read({ ...REQUIRED, 'poll-interval': '1', 'max-duration': 'soon' })).rejects.toThrow(
      /"max-duration" has "soon", which is not a duration/,
    );
  });

  it('needs the credentials', async () => {
    await expect(
      readInputs(new InputReader(inputSource(REQUIRED, { workspace: WORKSPACE }))),
    ).rejects.toThrow(/"username" is required/);
  });

  it('takes only an http(s) test page', async () => {
    expect(parseTestPageUrl('http://127.0.0.1:8080/t.html')).toBe('http://127.0.0.1:8080/t.html');
    expect(() => parseTestPageUrl('file:///tmp/t.html')).toThrow(
      /"url" has "file:\/\/\/tmp\/t.html", which is not http/,
    );
    expect(() => parseTestPageUrl('tests.html')).toThrow(InputError);
    await expect(read({ ...REQUIRED, url: 'tests.html' })).rejects.toThrow(/"url" has "tests.html"/);
  });

  it('takes capabilities as a JSON object only', async () => {
    expect(parseCapabilities(undefined)).toEqual({});
    expect(parseCapabilities('{"idleTimeout": 90}')).toEqual({ idleTimeout: 90 });
    expect(() => parseCapabilities('[1]')).toThrow(/"capabilities" has "\[1\]", which is not a JSON object/);
    expect(() => parseCapabilities('{idle')).toThrow(/"capabilities" is not valid JSON/);
    await expect(read({ ...REQUIRED, capabilities: '[1]' })).rejects.toThrow(InputError);
  });
});
