/** The requests that queue runs, as pure functions of the inputs and the plan: a row per case, the body sent. */
import { describe, expect, it } from 'vitest';
import { caseRunRequest, suiteRunRequest, type RunSettings } from '../src/requests.ts';
import type { CaseSelection } from '../src/selection.ts';

const chrome = { capabilities: { browserName: 'chrome', platformName: 'Windows 11' } };
const safari = { capabilities: { browserName: 'safari', platformName: 'macOS 14' }, isRdc: false };
const ID = 'aaaaaaaaaaaaaaaaaaaaaa01';

describe('caseRunRequest', () => {
  it.each<[string, RunSettings, CaseSelection, Record<string, unknown>]>([
    [
      'the step build, no tunnel: null, the case on its own targets',
      { buildName: 'Smoke #7.1' },
      { id: ID },
      { buildName: 'Smoke #7.1', scTunnelName: null },
    ],
    [
      'the tunnel by name',
      { buildName: 'B', tunnelName: 'ci-tunnel' },
      { id: ID },
      { buildName: 'B', scTunnelName: 'ci-tunnel' },
    ],
    [
      'the targets input',
      { buildName: 'B', targets: [chrome] },
      { id: ID },
      { buildName: 'B', scTunnelName: null, targets: [chrome] },
    ],
    [
      "the case's own targets before the targets input",
      { buildName: 'B', targets: [chrome] },
      { id: ID, targets: [safari] },
      { buildName: 'B', scTunnelName: null, targets: [safari] },
    ],
    [
      'a retry in the build of the run it repeats',
      { buildName: 'B' },
      { id: ID, name: 'Checkout', buildName: 'B - 2' },
      { buildName: 'B - 2', scTunnelName: null },
    ],
  ])('%s', (_what, settings, selection, body) => {
    expect(caseRunRequest(settings, selection)).toEqual(body);
  });
});

describe('suiteRunRequest', () => {
  it.each<[string, RunSettings, Record<string, unknown>]>([
    ['no tunnel: null', { buildName: 'Smoke #7.1' }, { buildName: 'Smoke #7.1', scTunnelName: null }],
    [
      'the tunnel',
      { buildName: 'B', tunnelName: 'ci-tunnel' },
      { buildName: 'B', scTunnelName: 'ci-tunnel' },
    ],
    [
      'no targets: each case runs on its own',
      { buildName: 'B', targets: [chrome] },
      { buildName: 'B', scTunnelName: null },
    ],
  ])('%s', (_what, settings, body) => {
    expect(suiteRunRequest(settings)).toEqual(body);
  });
});
