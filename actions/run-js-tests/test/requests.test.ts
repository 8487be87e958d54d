/** The start request as a pure function of the inputs: a row per input, the body it sends. */
import { describe, expect, it } from 'vitest';
import { startRequest, type StartInputs } from '../src/requests.ts';

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
