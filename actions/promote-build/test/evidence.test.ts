/** The feedbacks of a build since it entered its ring, from the account's latest 100, and when that window is full. */
import type { MobileFeedback } from '@sauce-actions/api';
import { describe, expect, it } from 'vitest';
import { readEvidence } from '../src/evidence.ts';
import type { BuildStanding } from '../src/ring-record.ts';

const SINCE = Date.parse('2026-12-01T00:00:00Z');
const standing: BuildStanding = {
  record: { ring: 'qa', sinceMs: SINCE, by: '', at: { sessions: 0, crashes: 0, feedbacks: 0 } },
  counters: { sessions: 3, crashes: 0, feedbacks: 4 },
  tags: [],
};

const feedback = (buildId: number, at: string, text = 'crashes on launch'): MobileFeedback =>
  ({ buildId, recorded_at: at, text, reported_by: 'alice@example.com' }) as MobileFeedback;

const readWith = (feedbacks: MobileFeedback[]) =>
  readEvidence('12', standing, ['qa', 'beta'], {
    signal: new AbortController().signal,
    client: { mobile: { feedbacks: { list: async () => ({ status: 'ok', feedbacks }) } } },
  });

describe('readEvidence', () => {
  it("counts the build's feedbacks since its ring's start, in the service's time forms", async () => {
    const evidence = await readWith([
      feedback(12, '2026-12-01 09:30:00'),
      feedback(12, '2026-12-01T10:00:00Z', 'second'),
      feedback(12, '2026-11-30 23:59:59', 'before the ring'),
      feedback(13, '2026-12-01 12:00:00', 'another build'),
      feedback(12, 'yesterday', 'no time'),
    ]);
    expect(evidence.feedbacksListed).toBe(2);
    expect(evidence.feedbacks.map((item) => item.text)).toEqual(['crashes on launch', 'second']);
    expect(evidence.windowFull).toBe(false);
    expect(evidence.counters).toEqual(standing.counters);
  });

  it.each([
    ['100 listed, all newer than the ring: full', 100, '2026-12-01 01:00:00', true],
    ['100 listed, the oldest before the ring: not full', 100, '2026-11-30 01:00:00', false],
    ['99 listed: not full', 99, '2026-12-01 01:00:00', false],
  ])('%s', async (_, count, oldest, full) => {
    const feedbacks = [
      ...Array.from({ length: count - 1 }, () => feedback(13, '2026-12-01 08:00:00')),
      feedback(13, oldest),
    ];
    expect((await readWith(feedbacks)).windowFull).toBe(full);
  });

  it.each([
    ['in no ring', undefined],
    ['in the last ring', 'beta'],
    ['in a ring rings does not name', 'canary'],
  ])('reads no feedback for a build %s: no gate reads it', async (_, ring) => {
    let listed = 0;
    const evidence = await readEvidence(
      '12',
      ring === undefined
        ? { counters: standing.counters, tags: [] }
        : { ...standing, record: { ...standing.record!, ring } },
      ['qa', 'beta'],
      {
        signal: new AbortController().signal,
        client: {
          mobile: { feedbacks: { list: async () => ((listed += 1), { status: 'ok', feedbacks: [] }) } },
        },
      },
    );
    expect(listed).toBe(0);
    expect(evidence).toEqual({
      counters: standing.counters,
      feedbacksListed: 0,
      feedbacks: [],
      windowFull: false,
    });
  });
});
