/** How a run that ended early words what became of its jobs: stopped, or left to the post step. */
import { describe, expect, it } from 'vitest';
import { suiteFailure } from '../src/ending.ts';

type Last = Parameters<typeof suiteFailure>[1];

function cancelledWith(stopped: number, failed: number): Last {
  return {
    end: { why: 'cancelled', phase: 'follow' },
    batch: {
      stopped: {
        ids: new Set(Array.from({ length: stopped }, (_, k) => `s${k}`)),
        failed: Array.from({ length: failed }, (_, k) => ({ id: `f${k}`, error: 'listJobs: 429' })),
        missing: 0,
        asked: true,
      },
    },
  } as unknown as Last;
}

describe('a cancelled run’s failure', () => {
  const tally = { total: 3, finished: 0, passed: 0, failed: 0, flaky: 0, queued: 0, running: 3, stopped: 0 };
  const context = { failOnFailure: true, timeoutMs: 60_000, signal: new AbortController().signal };
  const rows: [string, number, number, string][] = [
    ['every job stopped', 3, 0, '3 did not finish and 3 were stopped.'],
    ['one stopped', 1, 0, '3 did not finish and 1 was stopped.'],
    [
      'one left to the post step',
      2,
      1,
      '3 did not finish and 2 were stopped; 1 job could not be stopped in time, which the post step stops.',
    ],
    [
      'none stopped in time',
      0,
      3,
      '3 did not finish; 3 jobs could not be stopped in time, which the post step stops.',
    ],
  ];
  it.each(rows)('%s', (_name, stopped, failed, words) => {
    const failure = suiteFailure(
      { buildName: 'B', jobs: [] },
      cancelledWith(stopped, failed),
      tally,
      context,
    );
    expect(failure).toEqual({
      kind: 'cancelled',
      message: `Cancelled while waiting for build "B": 0 of 3 job(s) finished (0 passed, 0 failed); ${words}`,
    });
  });
});
