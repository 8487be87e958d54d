/**
 * A matrix's shard waits its turn before its first request: the engine holds the plan back by
 * `planTurnMs`, on the step's clock and signal, so that a cancel in the wait starts nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancelledError } from '../../src/step/failure.ts';
import type { TestRunAdapter, TestPlan } from '../../src/test-run/adapter.ts';
import { runTests } from '../../src/test-run/engine.ts';
import { planTurnMs } from '../../src/test-run/shard-turns.ts';
import type { TestRunOutputs } from '../../src/test-run/results.ts';
import { testStepDeps } from '../../src/testing.ts';
import { recordingLogger, systemClock } from '../../src/index.ts';

let folder: string;
beforeAll(async () => void (folder = await mkdtemp(path.join(os.tmpdir(), 'engine-turns-'))));
afterAll(async () => rm(folder, { recursive: true, force: true }));

/** An adapter whose plan fails at once with a mark: the test needs only what happened before it. */
function planOnly(planned: string[]): TestRunAdapter<TestPlan<string>, string, never, TestRunOutputs> {
  return {
    itemsName: 'toys',
    plan: async () => {
      planned.push('planned');
      throw new Error('planned');
    },
    batch: () => {
      throw new Error('no batch');
    },
    retryItems: () => [],
    report: () => {
      throw new Error('no report');
    },
  };
}

async function runShard(
  shard: { index: number; total: number } | undefined,
  controller = new AbortController(),
) {
  const sleeps: number[] = [];
  const planned: string[] = [];
  const clock = {
    ...systemClock,
    sleep: async (ms: number, signal?: AbortSignal) => {
      sleeps.push(ms);
      controller.abort(new CancelledError('the run was cancelled (SIGINT)'));
      signal?.throwIfAborted();
    },
  };
  const logger = recordingLogger();
  const deps = testStepDeps({
    tempDir: folder,
    clock,
    logger,
    signal: controller.signal,
    workflow: { step: 'turns' },
  });
  const options = { name: 'toys', timeoutMs: 60_000, retries: 0, failOnFailure: true, shard };
  const error = await runTests(planOnly(planned), options, deps).catch((caught: unknown) => caught);
  return { sleeps, planned, error, info: logger.lines('info') };
}

describe('a shard’s turn before it plans', () => {
  it('is its index’s slot, and a cancel during it starts nothing', async () => {
    const cancelled = await runShard({ index: 3, total: 5 });
    expect(cancelled.sleeps).toEqual([planTurnMs({ index: 3, total: 5 })]);
    expect(cancelled.info).toEqual([
      "Shard 3/5 sends its first request in 1200ms, at its turn: a matrix's shards plan one after another on the account they share.",
    ]);
    expect(cancelled.sleeps[0]).toBeGreaterThan(0);
    expect(cancelled.planned).toEqual([]);
    expect(cancelled.error).toBeInstanceOf(Error);
  });

  it('is none for the first shard, a lone step, and 1/1', async () => {
    for (const shard of [{ index: 1, total: 5 }, undefined, { index: 1, total: 1 }]) {
      const alone = await runShard(shard);
      expect(alone.sleeps).toEqual([]);
      expect(alone.planned).toEqual(['planned']);
    }
  });
});
