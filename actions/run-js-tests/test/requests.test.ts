/** The start request as a pure function of the inputs: a row per input, the body it sends. */
import { NO_HISTORY } from '@sauce-actions/action-kit/inputs/history-inputs';
import { InputError, runToken } from '@sauce-actions/action-kit';
import { testStepDeps } from '@sauce-actions/action-kit/testing';
import { describe, expect, it } from 'vitest';
import type { JsTestsInputs } from '../src/inputs.ts';
import { reportBuilds, runBuild, startRequest, type StartInputs } from '../src/requests.ts';
import { run } from '../src/run.ts';

const inputs: StartInputs = {
  url: 'https://example.com/tests.html',
  framework: 'qunit',
  tags: [],
  capabilities: {},
};
const platforms: [string, string, string][] = [
  ['Windows 11', 'chrome', 'latest'],
  ['Linux', 'firefox', '126'],
];
const base = { platforms, url: inputs.url, framework: 'qunit' };

describe('startRequest', () => {
  it.each<[string, Partial<StartInputs>, Record<string, unknown>]>([
    ['only what is required', {}, base],
    ['the tunnel', { tunnelName: 'ci-tunnel' }, { ...base, tunnelIdentifier: 'ci-tunnel' }],
    ['the build and the name', { build: 'b-1', name: 'unit' }, { ...base, build: 'b-1', name: 'unit' }],
    ['tags', { tags: ['ci', 'nightly'] }, { ...base, tags: ['ci', 'nightly'] }],
    ['no tags: none sent', { tags: [] }, base],
    ['max-duration, in seconds', { maxDurationSeconds: 90 }, { ...base, maxDuration: 90 }],
    [
      'capabilities',
      { capabilities: { screenResolution: '1280x1024' } },
      { ...base, capabilities: { screenResolution: '1280x1024' } },
    ],
    ['another framework', { framework: 'custom' }, { ...base, framework: 'custom' }],
  ])('%s', (_what, overrides, body) => {
    expect(startRequest({ ...inputs, ...overrides }, platforms)).toEqual(body);
  });

  it('sends the platforms it is given, in their order: a retry sends the failed ones', () => {
    const [, firefox] = platforms;
    expect(startRequest(inputs, [firefox!]).platforms).toEqual([['Linux', 'firefox', '126']]);
  });
});

describe('the build', () => {
  const key = 'github:https://github.com/acme/app/runs/8801';
  const token = runToken(key);

  it("is `build` as given; else, in a CI run, one of the run's identity and attempt; else none", () => {
    expect(runBuild('js-7', { key, runNumber: '42', runAttempt: '2' })).toBe('js-7');
    expect(runBuild(undefined, { key, runNumber: '42', runAttempt: '2' })).toBe(`JS tests #42.2 · ${token}`);
    expect(runBuild(undefined, { runNumber: '42', runAttempt: '2' })).toBeUndefined();
  });

  it("a report searches `build`, else the run's builds of every attempt so far, else none", () => {
    expect(reportBuilds('js-7', { key, runNumber: '42', runAttempt: '2' })).toEqual(['js-7']);
    expect(reportBuilds(undefined, { key, runNumber: '42', runAttempt: '2' })).toEqual([
      `JS tests #42.1 · ${token}`,
      `JS tests #42.2 · ${token}`,
    ]);
    expect(reportBuilds(undefined, { runNumber: '42', runAttempt: '2' })).toBeUndefined();
  });

  it('a report with no build and no identity of the run is refused, naming `build`, before any request', async () => {
    const client = new Proxy({}, { get: () => expect.unreachable('no request') });
    const deps = { ...testStepDeps({ workflow: { runNumber: '42', runAttempt: '2' } }), client } as never;
    const report = {
      ...inputs,
      connection: { service: 'sauce', region: 'us-west-1', username: 'demo', accessKey: 'k' },
      operation: 'report',
      platforms,
      failOnFailure: true,
      retries: 0,
      timeoutMs: 60_000,
      pollIntervalMs: 1000,
      prComment: false,
      history: NO_HISTORY,
    } satisfies JsTestsInputs;
    const refused = run(report, deps);
    await expect(refused).rejects.toBeInstanceOf(InputError);
    await expect(refused).rejects.toThrow(/"build" is empty, and without the run's identity/);
  });
});
