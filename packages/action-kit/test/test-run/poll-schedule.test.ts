/** The gaps between polls: a table of rows, each a state and the gap it gives. */
import type { Job } from '@sauce-actions/api';
import { describe, expect, it } from 'vitest';
import {
  MAX_POLL_GAP_MS,
  nextExpectedEndInMs,
  nextPollGap,
  pollFloor,
  type PollPace,
  type PollState,
} from '../../src/test-run/poll-schedule.ts';

const alone: PollPace = { baseMs: 10_000 };
const twenty: PollPace = { baseMs: 10_000, shards: 20 };

describe('nextPollGap', () => {
  const rows: [string, PollPace, PollState, number][] = [
    ['the first gap is poll-interval', alone, { ended: false }, 10_000],
    ['grows by half while nothing ends', alone, { lastGapMs: 10_000, ended: false }, 15_000],
    ['keeps growing', alone, { lastGapMs: 100_000, ended: false }, 150_000],
    ['up to five minutes', alone, { lastGapMs: 250_000, ended: false }, MAX_POLL_GAP_MS],
    ['or to maxMs', { baseMs: 1000, maxMs: 6000 }, { lastGapMs: 5000, ended: false }, 6000],
    [
      'a poll-interval above the cap stays',
      { baseMs: 600_000 },
      { lastGapMs: 600_000, ended: false },
      600_000,
    ],
    ['back to the floor once a job ended', alone, { lastGapMs: 200_000, ended: true }, 10_000],
    [
      'no later than an expected end, with a margin',
      alone,
      { lastGapMs: 200_000, ended: false, nextEndInMs: 30_000 },
      32_000,
    ],
    [
      'an expected end later than the grown gap changes nothing',
      alone,
      { lastGapMs: 10_000, ended: false, nextEndInMs: 60_000 },
      15_000,
    ],
    [
      'an expected end never goes under the floor',
      alone,
      { lastGapMs: 40_000, ended: false, nextEndInMs: 0 },
      10_000,
    ],
    ['a shard of 20 starts at 20 × 10 s ÷ 2.5', twenty, { ended: false }, 80_000],
    ['and grows from there', twenty, { lastGapMs: 80_000, ended: false }, 120_000],
    [
      'and comes back to its floor, not to poll-interval',
      twenty,
      { lastGapMs: 300_000, ended: true },
      80_000,
    ],
    ['a shard of 2 keeps a longer poll-interval', { baseMs: 10_000, shards: 2 }, { ended: false }, 10_000],
  ];
  it.each(rows)('%s', (_name, pace, state, gap) => {
    expect(nextPollGap(pace, state)).toBe(gap);
  });

  it('spaces a matrix so that its shards together poll as often, whatever their count', () => {
    for (const shards of [3, 5, 20, 100, 256]) {
      const pollsPerMinute = (shards * 60_000) / pollFloor({ baseMs: 10_000, shards });
      expect(pollsPerMinute).toBe(15);
    }
    // Two shards keep poll-interval: 12 polls a minute between them.
    expect(pollFloor({ baseMs: 10_000, shards: 2 })).toBe(10_000);
    // A short poll-interval (a test's) keeps its matrix short too.
    expect(pollFloor({ baseMs: 1000, shards: 5 })).toBe(2000);
  });
});

describe('nextExpectedEndInMs', () => {
  const job = (id: string, status: string, start: number | null, end: number | null = null): Job =>
    ({ id, status, start_time: start, end_time: end, creation_time: start }) as Job;

  const rows: [string, Job[], number, number | undefined][] = [
    ['nothing finished yet: no end is expected', [job('a', 'in progress', 100)], 200, undefined],
    [
      'a running job is expected to take the median of the finished ones',
      [
        job('a', 'complete', 100, 400),
        job('b', 'complete', 100, 500),
        job('c', 'complete', 100, 900),
        job('d', 'in progress', 300),
      ],
      450,
      // 300 + the median 400 s = 700, 250 s from now.
      250_000,
    ],
    [
      'a late job expects nothing',
      [job('a', 'complete', 100, 200), job('b', 'in progress', 150)],
      400,
      undefined,
    ],
    [
      'a queued job (no start) expects nothing',
      [job('a', 'complete', 100, 200), job('b', 'queued', null)],
      150,
      undefined,
    ],
    [
      'times the service did not give are left out',
      [job('a', 'complete', null, 200), job('b', 'complete', 100, 160), job('c', 'in progress', 120)],
      150,
      30_000,
    ],
  ];
  it.each(rows)('%s', (_name, jobs, now, expected) => {
    expect(nextExpectedEndInMs(jobs, now)).toBe(expected);
  });
});

describe('the gap within a third of the time followed', () => {
  const rows: [string, PollState, number][] = [
    [
      'early on, poll-interval however it grew',
      { lastGapMs: 100_000, ended: false, elapsedMs: 12_000 },
      10_000,
    ],
    [
      'a third of the time followed once that is longer',
      { lastGapMs: 100_000, ended: false, elapsedMs: 240_000 },
      80_000,
    ],
    ['the growth when that is shorter', { lastGapMs: 20_000, ended: false, elapsedMs: 240_000 }, 30_000],
    [
      'and never past five minutes',
      { lastGapMs: 290_000, ended: false, elapsedMs: 3_600_000 },
      MAX_POLL_GAP_MS,
    ],
  ];
  it.each(rows)('%s', (_name, state, gap) => {
    expect(nextPollGap(alone, state)).toBe(gap);
  });
});
