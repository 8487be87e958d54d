/**
 * The one decision of a step, from where the build stands, the rings and the gate, at the
 * service's time now. A build in no ring enters the first; one in the last ring is done; one
 * that has not soaked, or whose evidence in its ring fails the gate, is held; else it moves to
 * the next ring, one ring a step at most. Pure: `run` reads the build, this decides.
 */
import { formatDuration } from '@sauce-actions/action-kit';
import type { Gate } from './inputs.ts';
import type { BuildStanding, Counters } from './ring-record.ts';

export type Verdict = 'promoted' | 'held' | 'done';

export interface GateRow {
  /** The input that sets it: `min-sessions`, `max-crashes`, `max-feedbacks`, and `soak`. */
  input: 'soak' | 'min-sessions' | 'max-crashes' | 'max-feedbacks';
  needed: string;
  seen: string;
  pass: boolean;
}

export interface Decision {
  decision: Verdict;
  /** The ring the build is in before the step; none for a build in no ring. */
  from?: string;
  /** The ring it is in after the step, when promoted. */
  to?: string;
  /** Why, one sentence each. */
  reasons: string[];
  /** Every gate read, with the soak, for the summary's table. */
  gates: GateRow[];
  /** When it has soaked enough (service time), when it is held for that. */
  soakedAtMs?: number;
}

export interface DecisionInputs {
  /** At least one: `inputs.ts` refuses an empty `rings`. */
  rings: readonly [string, ...string[]];
  soakMs: number;
  gate: Gate;
}

/** The evidence since the build entered its ring: its counters then and now, the feedbacks listed. */
export interface Evidence {
  counters: Counters;
  /** Feedbacks of the build listed since it entered its ring. */
  feedbacksListed: number;
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Counts since the build entered its ring: now less then, never below 0 (a counter reset). */
export function inRing(standing: BuildStanding, evidence: Evidence): Counters {
  const at = standing.record?.at ?? { sessions: 0, crashes: 0, feedbacks: 0 };
  const since = (now: number, then: number) => Math.max(0, now - then);
  return {
    sessions: since(evidence.counters.sessions, at.sessions),
    crashes: since(evidence.counters.crashes, at.crashes),
    // The list holds the account's latest 100 only; the counter is the build's own.
    feedbacks: Math.max(evidence.feedbacksListed, since(evidence.counters.feedbacks, at.feedbacks)),
  };
}

export function gateRows(gate: Gate, counts: Counters): GateRow[] {
  return [
    {
      input: 'min-sessions',
      needed: `at least ${gate.minSessions}`,
      seen: String(counts.sessions),
      pass: counts.sessions >= gate.minSessions,
    },
    {
      input: 'max-crashes',
      needed: `at most ${gate.maxCrashes}`,
      seen: String(counts.crashes),
      pass: counts.crashes <= gate.maxCrashes,
    },
    ...(gate.maxFeedbacks !== undefined
      ? [
          {
            input: 'max-feedbacks' as const,
            needed: `at most ${gate.maxFeedbacks}`,
            seen: String(counts.feedbacks),
            pass: counts.feedbacks <= gate.maxFeedbacks,
          },
        ]
      : []),
  ];
}

const WORDS: Record<GateRow['input'], string> = {
  soak: 'time in the ring',
  'min-sessions': 'sessions',
  'max-crashes': 'crashes',
  'max-feedbacks': 'feedbacks',
};

export function decide(
  standing: BuildStanding,
  evidence: Evidence,
  inputs: DecisionInputs,
  nowMs: number,
): Decision {
  const { record } = standing;
  const [first] = inputs.rings;
  if (record === undefined) {
    return {
      decision: 'promoted',
      to: first,
      reasons: [`The build is in no ring yet: it enters the first, ${first}.`],
      gates: [],
    };
  }
  const at = inputs.rings.indexOf(record.ring);
  if (at < 0) {
    return {
      decision: 'held',
      from: record.ring,
      reasons: [
        `The build's ring, ${record.ring}, is not one of \`rings\` (${inputs.rings.join(', ')}): it is held until \`rings\` names it.`,
      ],
      gates: [],
    };
  }
  const next = inputs.rings[at + 1];
  if (next === undefined) {
    return {
      decision: 'done',
      from: record.ring,
      reasons: [`The build is in the last ring, ${record.ring}, since ${iso(record.sinceMs)}.`],
      gates: [],
    };
  }
  const soakedAtMs = record.sinceMs + inputs.soakMs;
  const inRingMs = Math.max(0, nowMs - record.sinceMs);
  const soak: GateRow = {
    input: 'soak',
    needed: formatDuration(inputs.soakMs),
    seen: formatDuration(Math.floor(inRingMs / 60_000) * 60_000),
    pass: nowMs >= soakedAtMs,
  };
  const gates = [soak, ...gateRows(inputs.gate, inRing(standing, evidence))];
  const failed = gates.filter((row) => !row.pass);
  if (failed.length === 0) {
    return {
      decision: 'promoted',
      from: record.ring,
      to: next,
      reasons: [
        `In ${record.ring} since ${iso(record.sinceMs)}; ${gates.map((row) => `${WORDS[row.input]} ${row.seen} (${row.input} ${row.needed})`).join(', ')}: it moves to ${next}.`,
      ],
      gates,
    };
  }
  return {
    decision: 'held',
    from: record.ring,
    reasons: failed.map((row) =>
      row.input === 'soak'
        ? `soak: in ${record.ring} for ${row.seen} of ${row.needed}, until ${iso(soakedAtMs)}.`
        : `${row.input}: ${row.seen} ${WORDS[row.input]} in ${record.ring}; ${next} needs ${row.needed}.`,
    ),
    gates,
    ...(soak.pass ? {} : { soakedAtMs }),
  };
}
