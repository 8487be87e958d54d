/**
 * Failed platforms of run-js-tests run again (`retries`) by their place in `platforms`: a platform
 * listed twice keeps its own runs; against an in-process emulator with short jobs and a real
 * client. What retries are to the engine (flaky, failing every attempt, a retry refused) are rows
 * of `test/engine-scenarios/`.
 */
import type { JsTestPlatform } from '@sauce-actions/api';
import type { RunningEmulator } from '@sauce-actions/emulator';
import { describe, expect, it } from 'vitest';
import { run } from '../src/run.ts';
import { clientOf, resultsOf, withEmulators } from './helpers.ts';

let emulator: RunningEmulator;
const { inputs, deps } = withEmulators([300], { started: (emulators) => ([emulator] = emulators) });

describe('run-js-tests retries', () => {
  it('keeps a platform listed twice as two platforms, each with its own runs', async () => {
    const twice: JsTestPlatform[] = [
      ['Linux', 'firefox', '126'],
      ['Linux', 'firefox', '126'],
    ];
    const result = await run(
      inputs({ platforms: twice, url: 'https://example.com/fail.html', retries: 1, failOnFailure: false }),
      deps(clientOf(emulator)),
    );
    expect(result.outputs).toMatchObject({ total: 2, failed: 2, flaky: 0 });
    const results = await resultsOf(result.outputs['results-file']);
    expect(results.platforms.map((p) => p.attempts.length)).toEqual([1, 1]);
    expect(new Set(results.platforms.flatMap((p) => [p.jobId, ...p.attempts.map((a) => a.jobId)])).size).toBe(
      4,
    );
  });
});
