/**
 * What run-suite-and-wait refuses, and where: `readInputs` (every input's form and bounds, before
 * any request), `run`'s checks of `junit-file` before any request, an unknown suite found in the
 * service's list, and the service's refusal of `tunnel-name`; each names the input. Against an
 * in-process emulator whose journal shows every request that reached it; no job runs.
 */
import path from 'node:path';
import {
  ActionError,
  describeFailure,
  InputError,
  InputReader,
  inputSource,
} from '@sauce-actions/action-kit';
import type { RunningEmulator } from '@sauce-actions/emulator';
import { describe, expect, it } from 'vitest';
import { readInputs } from '../src/inputs.ts';
import { run } from '../src/run.ts';
import { journal, suiteInputs as inputs, withEmulators } from './helpers.ts';
import { GREEN_CASES, GREEN_SUITE } from './seed.ts';
import { NO_NOTIFY } from '@sauce-actions/action-kit/inputs/notify-inputs';

let fast: RunningEmulator, folder: string;
const { depsFor } = withEmulators([300], {
  started: (emulators) => ([fast] = emulators),
  folder: (made) => (folder = made),
});

describe('run-suite-and-wait readInputs', () => {
  const base = { username: 'demo', 'access-key': 'demo-access-key' };
  const read = (values: Record<string, string>, workspace = '/work/space') =>
    readInputs(new InputReader(inputSource({ ...base, ...values }, { workspace })));

  it('reads a suite run with defaults, the JUnit path against the workspace', async () => {
    const parsed = await read({ suite: 'Smoke', 'junit-file': 'reports/junit.xml' });
    expect(parsed).toEqual({
      connection: { service: 'sauce', region: 'us-west-1', username: 'demo', accessKey: 'demo-access-key' },
      operation: 'run',
      suite: 'Smoke',
      failOnFailure: true,
      stopOnCancel: true,
      downloadAssets: 'none',
      maxAssetsBytes: 500_000_000,
      retries: 0,
      failFast: false,
      rerunFailed: true,
      junitFile: path.resolve('/work/space', 'reports/junit.xml'),
      pollIntervalMs: 10_000,
      timeoutMs: 60 * 60_000,
      history: { runs: 10, failOn: 'any', quarantine: { entries: [], expired: [] }, notify: NO_NOTIFY },
      prComment: false,
    });
  });

  it('reads test cases and targets as YAML or plain lists', async () => {
    const parsed = await read({
      'test-cases':
        '- id: aaaaaaaaaaaaaaaaaaaaaa02\n  targets: [{ browserName: firefox }]\n- aaaaaaaaaaaaaaaaaaaaaa01',
      targets: '[{ browserName: chrome, platformName: Windows 11 }]',
      'build-name': 'Nightly',
      'tunnel-name': 'tunnel-1',
      'fail-on-failure': 'false',
      'stop-on-cancel': 'false',
      'download-assets': 'failed',
      'max-assets-size': '2GiB',
      'poll-interval': '2s',
      timeout: '30m',
    });
    expect(parsed).toMatchObject({
      testCases: [
        { id: 'aaaaaaaaaaaaaaaaaaaaaa02', targets: [{ capabilities: { browserName: 'firefox' } }] },
        { id: 'aaaaaaaaaaaaaaaaaaaaaa01' },
      ],
      targets: [{ capabilities: { browserName: 'chrome', platformName: 'Windows 11' } }],
      buildName: 'Nightly',
      tunnelName: 'tunnel-1',
      failOnFailure: false,
      stopOnCancel: false,
      downloadAssets: 'failed',
      maxAssetsBytes: 2 * 1024 ** 3,
      pollIntervalMs: 2000,
      timeoutMs: 30 * 60_000,
    });
    expect(parsed.suite).toBeUndefined();
    const plain = await read({ 'test-cases': 'aaaaaaaaaaaaaaaaaaaaaa01, aaaaaaaaaaaaaaaaaaaaaa02' });
    expect(plain.testCases).toEqual([{ id: 'aaaaaaaaaaaaaaaaaaaaaa01' }, { id: 'aaaaaaaaaaaaaaaaaaaaaa02' }]);
  });

  it.each([
    [
      'suite and test-cases both set',
      { suite: 'Smoke', 'test-cases': 'aaaaaaaaaaaaaaaaaaaaaa01' },
      'suite',
      'both set',
    ],
    ['neither suite nor test-cases', {}, 'suite', 'both empty'],
    ['malformed test-cases YAML', { 'test-cases': '- id: [unclosed' }, 'test-cases', 'not valid YAML'],
    [
      'malformed targets YAML',
      { suite: 'Smoke', targets: '{ browserName: chrome' },
      'targets',
      'not valid YAML',
    ],
    ['a target that is not a mapping', { suite: 'Smoke', targets: '[chrome]' }, 'targets', 'not a mapping'],
    [
      'a poll interval under 1s',
      { suite: 'Smoke', 'poll-interval': '500ms' },
      'poll-interval',
      'shorter than 1s',
    ],
    [
      'a poll interval over 10m',
      { suite: 'Smoke', 'poll-interval': '11m' },
      'poll-interval',
      'longer than 10m',
    ],
    ['a timeout under 1s', { suite: 'Smoke', timeout: '0' }, 'timeout', 'shorter than 1s'],
    ['a timeout that is not a duration', { suite: 'Smoke', timeout: 'soon' }, 'timeout', 'not a duration'],
    [
      'download-assets out of its set',
      { suite: 'Smoke', 'download-assets': 'some' },
      'download-assets',
      '"some"',
    ],
    [
      'max-assets-size without a unit',
      { suite: 'Smoke', 'download-assets': 'all', 'max-assets-size': '500' },
      'max-assets-size',
      'which has no unit',
    ],
    ...(
      [
        ['0', 'which is out of range'],
        ['401', 'which is out of range'],
        ['7d', 'which is not a whole number'],
      ] as const
    ).map(([days, problem]): [string, Record<string, string>, string, string] => [
      `retention-days ${days}`,
      { suite: 'Smoke', 'download-assets': 'failed', 'retention-days': days },
      'retention-days',
      `${problem}. Allowed: empty for the repository's default, or a whole number of days from 1 to 400`,
    ]),
    [
      'fail-on-failure not a boolean',
      { suite: 'Smoke', 'fail-on-failure': 'yes' },
      'fail-on-failure',
      'not a boolean',
    ],
  ])('refuses %s, with no request sent', async (_case, values, input, problem) => {
    const before = (await journal(fast)).length;
    const error = await read({ ...values, 'api-url': fast.url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).input).toBe(input);
    expect((error as InputError).message).toContain(problem);
    expect(await journal(fast)).toHaveLength(before);
  });
});

describe('run-suite-and-wait run', () => {
  it('refuses an unknown suite, naming the input, before running anything', async () => {
    const deps = depsFor(fast);
    const before = (await journal(fast)).length;
    const error = await run(inputs(fast, { suite: 'No such suite' }), deps).catch((e: unknown) => e);

    // The service's list showed it: a refusal (requests were sent), worded as the input's mistake.
    expect(error).toBeInstanceOf(ActionError);
    expect((error as ActionError).kind).toBe('refused');
    expect((error as ActionError).message).toMatch(/^Input "suite" names "No such suite", but no test suite/);
    expect((error as ActionError).message).toMatch(/Fix the input and run the step again\.$/);
    const requests = (await journal(fast)).slice(before);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((entry) => entry.method !== 'GET')).toEqual([]);
  });
});

describe('run-suite-and-wait output files and refusals', () => {
  it('refuses a junit-file that cannot be created before any request, at once', async () => {
    const deps = depsFor(fast);
    const before = (await journal(fast)).length;
    const started = Date.now();
    const error = await run(
      inputs(fast, { suite: GREEN_SUITE, junitFile: '/proc/no-such/y.xml' }),
      deps,
    ).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).input).toBe('junit-file');
    expect((error as InputError).message).toContain('cannot be written');
    expect(await journal(fast)).toHaveLength(before);
  });

  it('refuses a junit-file that is a folder before any request', async () => {
    const deps = depsFor(fast);
    const before = (await journal(fast)).length;
    const error = await run(inputs(fast, { suite: GREEN_SUITE, junitFile: folder }), deps).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).input).toBe('junit-file');
    expect((error as InputError).message).toContain('which is a folder');
    expect(await journal(fast)).toHaveLength(before);
  });

  it('names tunnel-name when the service refuses the tunnel', async () => {
    const deps = depsFor(fast);
    const error = await run(inputs(fast, { suite: 'Smoke', tunnelName: 'no-such-tunnel' }), deps).catch(
      (e: unknown) => e,
    );
    const failure = describeFailure(error, deps.signal);
    expect(failure.kind).toBe('refused');
    expect(failure.message).toContain('secure tunnel no-such-tunnel does not exist');
    expect(failure.message).toContain('Check `tunnel-name` ("no-such-tunnel")');
    expect(failure.message).not.toContain('check the inputs named above');
  });

  it('names tunnel-name when the service refuses a test case run for its tunnel', async () => {
    const deps = depsFor(fast);
    const error = await run(
      inputs(fast, { testCases: [{ id: GREEN_CASES[0] }], tunnelName: 'no-such-tunnel' }),
      deps,
    ).catch((e: unknown) => e);
    const failure = describeFailure(error, deps.signal);
    expect(failure.kind).toBe('refused');
    expect(failure.message).toMatch(
      /^Sauce Labs refused to run test case aaaaaaaaaaaaaaaaaaaaaa01 \(runTestCase: 400 /,
    );
    expect(failure.message).toContain('Check `tunnel-name`');
  });
});
