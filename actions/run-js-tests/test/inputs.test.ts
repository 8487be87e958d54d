import path from 'node:path';
import { createClient, InputError, InputReader, inputSource } from '@sauce-actions/action-kit';
import { testStepDeps } from '@sauce-actions/action-kit/testing';
import { startEmulator } from '@sauce-actions/emulator';
import { describe, expect, it } from 'vitest';
import { runInputsGiven } from '../src/gather.ts';
import { parseCapabilities, parseTestPageUrl, readInputs } from '../src/inputs.ts';
import { run } from '../src/run.ts';
import { NO_NOTIFY } from '@sauce-actions/action-kit/inputs/notify-inputs';

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
        history: '3',
        'fail-on': 'new',
        'default-branch': 'trunk',
      }),
    ).toEqual({
      connection: {
        service: 'sauce',
        region: 'eu-central-1',
        username: 'demo',
        accessKey: 'demo-access-key',
      },
      operation: 'run',
      prComment: false,
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
      retries: 0,
      junitFile: path.join(WORKSPACE, 'reports/js.xml'),
      timeoutMs: 20 * 60_000,
      pollIntervalMs: 10_000,
      history: {
        runs: 3,
        failOn: 'new',
        defaultBranch: 'trunk',
        quarantine: { entries: [], expired: [] },
        notify: NO_NOTIFY,
      },
    });
  });

  it('leaves optional inputs out, and takes the credentials from the inputs over the environment', async () => {
    const inputs = await read({ ...REQUIRED, username: 'someone', 'access-key': 'another-key' });
    expect(inputs).toEqual({
      connection: { service: 'sauce', region: 'us-west-1', username: 'someone', accessKey: 'another-key' },
      operation: 'run',
      prComment: false,
      url: REQUIRED.url,
      framework: 'YUI Test',
      platforms: [['Linux', 'chrome', 'latest']],
      tags: [],
      capabilities: {},
      failOnFailure: true,
      retries: 0,
      timeoutMs: 30 * 60_000,
      pollIntervalMs: 10_000,
      history: { runs: 10, failOn: 'any', quarantine: { entries: [], expired: [] }, notify: NO_NOTIFY },
    });
  });

  it('operation: report refuses shard before any request', async () => {
    const inputs = { ...REQUIRED, operation: 'report', shard: '1/2', build: 'js-7' };
    await expect(read(inputs)).rejects.toThrow(/"shard" is set with `operation: report`/);
    await expect(read(inputs)).rejects.toBeInstanceOf(InputError);
  });

  it("operation: report reads an empty build: the run's default builds are searched (see requests.test.ts)", async () => {
    const inputs = await read({ ...REQUIRED, operation: 'report' });
    expect(inputs.build).toBeUndefined();
  });

  it('reads operation: report with the publishing inputs', async () => {
    const inputs = await read({
      ...REQUIRED,
      operation: 'report',
      build: 'js-7',
      'pr-comment': 'true',
      'check-name': 'JS unit tests',
      'pull-request': '12',
    });
    expect(inputs).toMatchObject({
      operation: 'report',
      build: 'js-7',
      prComment: true,
      checkName: 'JS unit tests',
      pullRequest: 12,
    });
  });

  it.each<[Record<string, string>, string[]]>([
    [{}, []],
    [{ retries: '0', tags: '' }, []],
    [
      {
        'tunnel-name': 'nightly',
        tags: 'nightly',
        'max-duration': '5m',
        capabilities: '{"a": 1}',
        retries: '2',
      },
      ['tunnel-name', 'tags', 'max-duration', 'capabilities', 'retries'],
    ],
  ])('a report given %o names %o as inputs of a run, which change nothing in it', async (values, names) => {
    const given = runInputsGiven(await read({ ...REQUIRED, operation: 'report', build: 'js-7', ...values }));
    expect(Object.keys(given).filter((name) => given[name])).toEqual(names);
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
    await expect(read({ ...REQUIRED, 'poll-interval': '500ms' })).rejects.toThrow(
      /"poll-interval" has 500ms, which is shorter than 1s\. Allowed: .*, from 1s to 10m\.$/,
    );
    await expect(read({ ...REQUIRED, 'poll-interval': '11m' })).rejects.toThrow(
      /"poll-interval" has 11m, which is longer than 10m/,
    );
    await expect(read({ ...REQUIRED, 'poll-interval': '1', 'max-duration': 'soon' })).rejects.toThrow(
      /"max-duration" has "soon", which is not a duration/,
    );
  });

  it('bounds max-duration by the service maximum of 3 hours', async () => {
    expect((await read({ ...REQUIRED, 'max-duration': '3h' })).maxDurationSeconds).toBe(10_800);
    expect((await read({ ...REQUIRED, 'max-duration': '1.2' })).maxDurationSeconds).toBe(2);
    for (const [value, problem] of [
      ['3h1s', 'has 3h1s, which is longer than 3h'],
      ['10801', 'has 10801, which is longer than 3h'],
      ['2147484', 'has 2147484, which is longer than 3h'],
      ['0', 'has 0, which is shorter than 1s'],
      ['-5', 'has "-5", which is not a duration'],
      ['1e400', 'has "1e400", which is not a duration'],
      ['30x', 'has "30x", which is not a duration'],
    ]) {
      await expect(read({ ...REQUIRED, 'max-duration': value as string })).rejects.toThrow(
        `Input "max-duration" ${problem}. Allowed: seconds (\`90\`) or a number with \`ms\`, \`s\`, \`m\`, \`h\` or \`d\` (\`90s\`, \`30m\`, \`1h30m\`, \`2d\`), from 1s to 3h.`,
      );
    }
  });

  it('bounds the timeout: 24 hours at most, where Node timers would overflow past 24.8 days', async () => {
    expect((await read({ ...REQUIRED, timeout: '24h' })).timeoutMs).toBe(86_400_000);
    for (const [value, problem] of [
      ['2147484', 'has 2147484, which is longer than 24h'],
      ['25h', 'has 25h, which is longer than 24h'],
      ['0', 'has 0, which is shorter than 1s'],
      ['NaN', 'has "NaN", which is not a duration'],
      ['10 minutes', 'has "10 minutes", which is not a duration'],
    ]) {
      await expect(read({ ...REQUIRED, timeout: value as string })).rejects.toThrow(
        `Input "timeout" ${problem}. Allowed: seconds`,
      );
    }
  });

  it('names the form of a required input left empty', async () => {
    await expect(read({ ...REQUIRED, url: '' })).rejects.toThrow(
      'Input "url" is required but was empty. Allowed: an http:// or https:// address of the test page, such as `https://example.com/tests.html`.',
    );
    await expect(read({ ...REQUIRED, platforms: '' })).rejects.toThrow(
      /^Input "platforms" is required but was empty\. Allowed: a YAML list of `\[os, browser, version\]`, or one `os \/ browser \/ version` per line, such as `Windows 11 \/ chrome \/ latest`\.$/,
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

  it("keeps the shard's share of the platforms, the same whatever order they are listed in", async () => {
    const platforms = [
      'Windows 11 / chrome / latest',
      'macOS 14 / safari / 17',
      'Linux / firefox / 126',
      'Windows 11 / MicrosoftEdge / latest',
    ];
    const shares = async (lines: string[]) =>
      Promise.all(
        [1, 2].map(
          async (index) =>
            (await read({ ...REQUIRED, platforms: lines.join('\n'), shard: `${index}/2` })).platforms,
        ),
      );
    const [first, second] = await shares(platforms);
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(2);
    expect([...first!, ...second!].map((p) => p.join(' / ')).sort()).toEqual([...platforms].sort());
    const reversed = await shares([...platforms].reverse());
    expect(reversed.map((share) => share.map((p) => p.join(' / ')).sort())).toEqual(
      [first!, second!].map((share) => share.map((p) => p.join(' / ')).sort()),
    );
    expect((await read({ ...REQUIRED, platforms: platforms.join('\n'), shard: '2/2' })).shard).toEqual({
      index: 2,
      total: 2,
      of: 4,
    });
    // 1/1 is the whole list, and no shard at all.
    const whole = await read({ ...REQUIRED, platforms: platforms.join('\n'), shard: '1/1' });
    expect(whole.platforms).toHaveLength(4);
    expect(whole.shard).toBeUndefined();
  });

  it('sends no request for a bad duration, read as the host reads it', async () => {
    const emulator = await startEmulator({ port: 0 });
    try {
      for (const values of [
        { 'max-duration': '2147484' },
        { 'max-duration': '3h1s' },
        { timeout: '2147484' },
        { 'poll-interval': '0.5' },
        { shard: '3/2' },
      ]) {
        const attempt = async () => {
          const inputs = await read({ ...REQUIRED, 'api-url': emulator.url, ...values });
          const client = createClient(inputs.connection, testStepDeps().logger);
          try {
            return await run(inputs, { ...testStepDeps({ workspace: WORKSPACE }), client });
          } finally {
            await client.close();
          }
        };
        await expect(attempt(), JSON.stringify(values)).rejects.toThrow(InputError);
      }
      const journal = (await (await fetch(`${emulator.url}/_emulator/requests`)).json()) as {
        requests: unknown[];
      };
      expect(journal.requests).toEqual([]);
    } finally {
      await emulator.close();
    }
  });
});
