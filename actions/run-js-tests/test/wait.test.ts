/**
 * `waitForResults` of run-js-tests: when an answer is final, how failed polls are borne, the
 * signal, and the clock between polls; with answers made up in the test, no service.
 */
import { recordingLogger, systemClock } from '@sauce-actions/action-kit';
import { ApiError, type JsTestStatus, type JsTestStatusAnswer } from '@sauce-actions/api';
import { describe, expect, it } from 'vitest';
import { waitForResults } from '../src/wait.ts';

describe('waiting for results', () => {
  const done: JsTestStatusAnswer = {
    completed: true,
    'js tests': [
      { id: 'a', job_id: 'f'.repeat(32), platform: ['Linux', 'chrome', '1'], url: '', result: null },
    ],
  };
  const unavailable = new ApiError({ operation: 'getJsTestStatus', method: 'POST', url: '/s', status: 503 });

  it('keeps polling while the answer is not final: completed needs real job ids', async () => {
    const answers: JsTestStatusAnswer[] = [
      { ...done, 'js tests': [{ ...done['js tests'][0]!, job_id: 'job not ready' }] },
      { ...done, completed: false },
      done,
    ];
    let calls = 0;
    const result = await waitForResults(
      { getStatus: async () => answers[calls++]! },
      { ids: ['a'], pace: { baseMs: 1 }, clock: systemClock, logger: recordingLogger() },
    );
    expect(calls).toBe(3);
    expect(result).toEqual({ ended: 'finished', answer: done });
  });

  it('gives up after too many failed polls in a row, and at once on a client error', async () => {
    const logger = recordingLogger();
    let calls = 0;
    await expect(
      waitForResults(
        {
          getStatus: async () => {
            calls++;
            throw unavailable;
          },
        },
        { ids: ['a'], pace: { baseMs: 1 }, clock: systemClock, logger, maxFailedPolls: 3 },
      ),
    ).rejects.toBe(unavailable);
    expect(calls).toBe(3);
    expect(logger.lines('warning')).toHaveLength(2);
    const refused = new ApiError({ operation: 'getJsTestStatus', method: 'POST', url: '/s', status: 404 });
    await expect(
      waitForResults(
        {
          getStatus: async () => {
            throw refused;
          },
        },
        { ids: ['a'], pace: { baseMs: 1 }, clock: systemClock, logger: recordingLogger() },
      ),
    ).rejects.toBe(refused);
  });

  it('ends at once when the signal aborts, keeping the last answer', async () => {
    const controller = new AbortController();
    const pending = { ...done, completed: false };
    const result = await waitForResults(
      {
        getStatus: async () => {
          controller.abort();
          return pending;
        },
      },
      {
        ids: ['a'],
        pace: { baseMs: 10_000 },
        signal: controller.signal,
        clock: systemClock,
        logger: recordingLogger(),
      },
    );
    expect(result).toEqual({ ended: 'aborted', answer: pending });
  });

  it('waits between polls on the clock it is given', async () => {
    const waits: number[] = [];
    let calls = 0;
    const clock = { now: () => 0, monotonic: () => 0, sleep: async (ms: number) => void waits.push(ms) };
    await waitForResults(
      { getStatus: async () => (++calls < 3 ? { ...done, completed: false } : done) },
      { ids: ['a'], pace: { baseMs: 7000 }, clock, logger: recordingLogger() },
    );
    // Nothing ended, but the gap stays within a third of the time followed: poll-interval still.
    expect(waits).toEqual([7000, 7000]);
  });

  it('grows while no platform ends, within a third of the time followed, and comes back when one did', async () => {
    const entry = (id: string, result: JsTestStatus['result']) => ({
      id,
      job_id: 'f'.repeat(32),
      platform: ['Linux', 'chrome', '1'] as [string, string, string],
      url: '',
      result,
    });
    const passed = { passed: true, total: 1 };
    const pending = { completed: false, 'js tests': [entry('a', null), entry('b', null)] };
    const oneEnded = { completed: false, 'js tests': [entry('a', passed), entry('b', null)] };
    const answers: JsTestStatusAnswer[] = [
      ...Array<JsTestStatusAnswer>(6).fill(pending),
      oneEnded,
      oneEnded,
      { completed: true, 'js tests': [entry('a', passed), entry('b', passed)] },
    ];
    const run = async (pace: { baseMs: number; shards?: number }) => {
      const waits: number[] = [];
      let t = 0;
      let calls = 0;
      const clock = {
        now: () => t,
        monotonic: () => t,
        sleep: async (ms: number) => void (waits.push(ms), (t += ms)),
      };
      await waitForResults(
        { getStatus: async () => answers[calls++]! },
        { ids: ['a', 'b'], pace, clock, logger: recordingLogger() },
      );
      return waits;
    };
    // poll-interval until a third of the time followed passes it, then by half at most; back to
    // poll-interval once a platform ended.
    expect(await run({ baseMs: 10_000 })).toEqual([
      10_000, 10_000, 10_000, 10_000, 13_333, 17_778, 10_000, 15_000,
    ]);
    // A shard of 20: the same from its floor of 80 s.
    expect(await run({ baseMs: 10_000, shards: 20 })).toEqual([
      80_000, 80_000, 80_000, 80_000, 106_667, 142_222, 80_000, 120_000,
    ]);
  });
});
