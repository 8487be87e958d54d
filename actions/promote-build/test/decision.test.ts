/** The one decision of a step, by table: where the build stands, what it showed, the time. */
import { describe, expect, it } from 'vitest';
import { decide, type Decision, type Evidence } from '../src/decision.ts';
import type { DecisionInputs } from '../src/decision.ts';
import type { BuildStanding, RingRecord } from '../src/ring-record.ts';

const HOUR = 3_600_000;
const SINCE = Date.parse('2026-12-01T00:00:00Z');
const INPUTS: DecisionInputs = {
  rings: ['qa', 'beta', 'public'],
  soakMs: 24 * HOUR,
  gate: { minSessions: 20, maxCrashes: 0, maxFeedbacks: 5 },
};
const AT = { sessions: 10, crashes: 1, feedbacks: 2 };

function standing(ring?: string): BuildStanding {
  const record: RingRecord | undefined =
    ring === undefined ? undefined : { ring, sinceMs: SINCE, by: 'https://ci/run/1', at: AT };
  return { ...(record ? { record } : {}), counters: AT, tags: [] };
}

/** Counters now: `AT` plus these, as seen in the ring. */
function seen(inRing: { sessions?: number; crashes?: number; feedbacks?: number }, listed = 0): Evidence {
  return {
    counters: {
      sessions: AT.sessions + (inRing.sessions ?? 0),
      crashes: AT.crashes + (inRing.crashes ?? 0),
      feedbacks: AT.feedbacks + (inRing.feedbacks ?? 0),
    },
    feedbacksListed: listed,
  };
}

const row = (decision: Decision) => ({
  decision: decision.decision,
  from: decision.from,
  to: decision.to,
  reasons: decision.reasons,
});

describe('decide', () => {
  it.each<[string, string | undefined, Evidence, number, ReturnType<typeof row>]>([
    [
      'a build in no ring enters the first',
      undefined,
      seen({}),
      SINCE,
      {
        decision: 'promoted',
        from: undefined,
        to: 'qa',
        reasons: ['The build is in no ring yet: it enters the first, qa.'],
      },
    ],
    [
      'not soaked: held, saying until when',
      'qa',
      seen({ sessions: 50 }),
      SINCE + 23 * HOUR,
      {
        decision: 'held',
        from: 'qa',
        to: undefined,
        reasons: ['soak: in qa for 23h of 24h, until 2026-12-02T00:00:00Z.'],
      },
    ],
    [
      'soaked, too few sessions: held, naming min-sessions with the figures',
      'qa',
      seen({ sessions: 19 }),
      SINCE + 25 * HOUR,
      {
        decision: 'held',
        from: 'qa',
        to: undefined,
        reasons: ['min-sessions: 19 sessions in qa; beta needs at least 20.'],
      },
    ],
    [
      'soaked, a crash in the ring: held, naming max-crashes with the figures',
      'beta',
      seen({ sessions: 40, crashes: 1 }),
      SINCE + 25 * HOUR,
      {
        decision: 'held',
        from: 'beta',
        to: undefined,
        reasons: ['max-crashes: 1 crashes in beta; public needs at most 0.'],
      },
    ],
    [
      'soaked, feedbacks listed over the limit: held, naming max-feedbacks',
      'qa',
      seen({ sessions: 40, feedbacks: 1 }, 6),
      SINCE + 25 * HOUR,
      {
        decision: 'held',
        from: 'qa',
        to: undefined,
        reasons: ['max-feedbacks: 6 feedbacks in qa; beta needs at most 5.'],
      },
    ],
    [
      'soaked and the gate passes: promoted to the next ring, one only',
      'qa',
      seen({ sessions: 20 }),
      SINCE + 24 * HOUR,
      {
        decision: 'promoted',
        from: 'qa',
        to: 'beta',
        reasons: [
          'In qa since 2026-12-01T00:00:00Z; time in the ring 24h (soak 24h), sessions 20 (min-sessions at least 20), crashes 0 (max-crashes at most 0), feedbacks 0 (max-feedbacks at most 5): it moves to beta.',
        ],
      },
    ],
    [
      'in the last ring: done',
      'public',
      seen({ crashes: 9 }),
      SINCE + 100 * HOUR,
      {
        decision: 'done',
        from: 'public',
        to: undefined,
        reasons: ['The build is in the last ring, public, since 2026-12-01T00:00:00Z.'],
      },
    ],
    [
      'a ring that rings does not name: held until it does',
      'canary',
      seen({ sessions: 99 }),
      SINCE + 100 * HOUR,
      {
        decision: 'held',
        from: 'canary',
        to: undefined,
        reasons: [
          "The build's ring, canary, is not one of `rings` (qa, beta, public): it is held until `rings` names it.",
        ],
      },
    ],
    [
      "a clock behind the ring's start: not soaked",
      'qa',
      seen({ sessions: 99 }),
      SINCE - HOUR,
      {
        decision: 'held',
        from: 'qa',
        to: undefined,
        reasons: ['soak: in qa for 0s of 24h, until 2026-12-02T00:00:00Z.'],
      },
    ],
  ])('%s', (_, ring, evidence, nowMs, expected) => {
    expect(row(decide(standing(ring), evidence, INPUTS, nowMs))).toEqual(expected);
  });

  it('counts from the counters when the build entered its ring, never below 0', () => {
    const lower = { counters: { sessions: 0, crashes: 0, feedbacks: 0 }, feedbacksListed: 0 };
    const decision = decide(
      standing('qa'),
      lower,
      { ...INPUTS, gate: { minSessions: 0, maxCrashes: 0 } },
      SINCE + 48 * HOUR,
    );
    expect(decision.decision).toBe('promoted');
    expect(decision.gates.map((gate) => [gate.input, gate.seen])).toEqual([
      ['soak', '48h'],
      ['min-sessions', '0'],
      ['max-crashes', '0'],
    ]);
  });

  it('says every gate that holds, with the soak', () => {
    const decision = decide(standing('qa'), seen({ sessions: 1, crashes: 2 }), INPUTS, SINCE + HOUR);
    expect(decision.reasons.map((reason) => reason.split(':')[0])).toEqual([
      'soak',
      'min-sessions',
      'max-crashes',
    ]);
    expect(decision.soakedAtMs).toBe(SINCE + 24 * HOUR);
  });
});
