/**
 * run-js-tests split among the jobs of a matrix (`shard`): every platform runs in exactly one
 * shard under the one build; against an in-process emulator with short jobs and a real client.
 * An empty share is a row of `test/engine-scenarios/`.
 */
import { shareOf, wholeText } from '@sauce-actions/action-kit';
import type { JsTestPlatform } from '@sauce-actions/api';
import type { RunningEmulator } from '@sauce-actions/emulator';
import { describe, expect, it } from 'vitest';
import { run } from '../src/run.ts';
import { clientOf, journal, withEmulators } from './helpers.ts';

let emulator: RunningEmulator;
const { inputs, deps } = withEmulators([300], {
  started: (emulators) => ([emulator] = emulators),
});

describe('run-js-tests shards', () => {
  const all: JsTestPlatform[] = [
    ['Windows 11', 'chrome', 'latest'],
    ['Linux', 'firefox', '126'],
    ['macOS 14', 'safari', '17'],
    ['Windows 11', 'MicrosoftEdge', 'latest'],
  ];

  it('two shards of four platforms run two each, every platform once, under the one build', async () => {
    const before = (await journal(emulator)).length;
    const client = clientOf(emulator);
    const results = await Promise.all(
      [1, 2].map((index) => {
        const shard = { index, total: 2 };
        const platforms = shareOf(all, shard, (p) => p.join('\u0000'));
        return run(inputs({ platforms, shard: { ...shard, of: 4 }, build: 'js-shards' }), deps(client));
      }),
    );
    expect(results.map((result) => result.failure)).toEqual([undefined, undefined]);
    expect(results.map((result) => result.outputs.total)).toEqual([2, 2]);
    const starts = (await journal(emulator))
      .slice(before)
      .filter((entry) => entry.method === 'POST' && entry.path.endsWith('/js-tests'));
    expect(starts).toHaveLength(2);
    const ran = await Promise.all(
      results
        .flatMap((result) => JSON.parse(result.outputs['job-ids']) as string[])
        .map((id) => client.automation.jobs.get(id)),
    );
    expect(ran.map((job) => job.build)).toEqual(['js-shards', 'js-shards', 'js-shards', 'js-shards']);
    expect(ran.map((job) => `${job.os}/${job.browser}`).sort()).toEqual(
      all.map((p) => `${p[0]}/${p[1]}`).sort(),
    );
    expect(wholeText(results[0]!.summary)).toContain('JS unit tests (custom), shard 1/2: all passed');
    expect(wholeText(results[1]!.summary)).toContain('2/2: 2 of the 4 platforms, split among 2 shards');
  });
});
