/**
 * The engine's start, cut short by the runner's cancellation, through each test action against an
 * emulator whose jobs outlast the test: before the start request nothing is sent or saved; while
 * it is on its way its answer is waited for, within a grace, and what it started is stopped; with
 * no answer within the grace, the failure says what may run and where to look.
 */
import { describeFailure, type ActionResult } from '@sauce-actions/action-kit';
import type { TestRunOutputs } from '@sauce-actions/action-kit/test-run/results';
import { describe, expect, it } from 'vitest';
import { journal } from '../support/emulators.ts';
import { ADAPTERS } from './support/adapters.ts';
import {
  cancellation,
  expectStopped,
  hold,
  jobsOf,
  onFirst,
  requestsSince,
  scenarioLab,
  whenArrives,
} from './support/lab.ts';

type Result = ActionResult<TestRunOutputs>;

describe.each(ADAPTERS)('$name', (adapter) => {
  const lab = scenarioLab(adapter, adapter.longJobsMs);

  it('cancelled before the start: sends no start request, saves nothing, and fails as cancelled', async () => {
    const emulator = lab.emulator();
    const { signal, cancel } = cancellation();
    const since = (await journal(emulator)).length;
    const before = adapter.beforeStart;
    if ('request' in before) {
      // Held until the cancellation cuts it: the plan's last request before the start.
      await hold(emulator, before.request, 60_000);
      whenArrives(emulator, before.request, since, cancel);
    }
    const deps = lab.deps({ signal, ...('line' in before ? { onLine: onFirst(before.line, cancel) } : {}) });
    const error = await adapter.run(emulator, deps, { build: 'Before start' }).catch((e: unknown) => e);

    expect(describeFailure(error, deps.signal).kind).toBe('cancelled');
    expect(await requestsSince(emulator, adapter.start, since)).toEqual([]);
    expect(jobsOf(emulator, 'Before start')).toEqual([]);
    expect(deps.state.saved.has(adapter.stateKey)).toBe(false);
  });

  /** A run cancelled as its start request arrives, which the emulator holds for `holdMs`. */
  async function cancelledDuringStart(build: string, holdMs: number) {
    const emulator = lab.emulator();
    const { signal, cancel } = cancellation();
    const since = (await journal(emulator)).length;
    await hold(emulator, adapter.start, holdMs);
    whenArrives(emulator, adapter.start, since, cancel);
    const deps = lab.deps({ signal });
    const result = await adapter.run(emulator, deps, { build }).catch((e: unknown) => e);
    return { deps, result, starts: await requestsSince(emulator, adapter.start, since) };
  }

  it('cancelled while the start is on its way: waits for its answer, then stops what it started', async () => {
    // Answered within the grace the start has after a cancellation.
    const { deps, result, starts } = await cancelledDuringStart('During start', 1000);

    expect(starts.map((entry) => entry.status)).toEqual([200]);
    await expectStopped(adapter, lab, { build: 'During start', deps, result: result as Result }, 'cancelled');
  });

  it('cancelled with the start unanswered past its grace: says what may run and where, having saved nothing', async () => {
    const { deps, result: error, starts } = await cancelledDuringStart('No answer', 60_000);

    // Cut at the end of the grace (2.5 s), not answered after the minute it was held.
    expect(starts.map((entry) => entry.status)).toEqual([0]);
    const failure = describeFailure(error, deps.signal);
    expect(failure.kind).toBe('cancelled');
    expect(failure.message).toBe(adapter.words.cutOff('No answer'));
    expect(deps.state.saved.has(adapter.stateKey)).toBe(false);
  });
});
